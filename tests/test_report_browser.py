"""report.html in a real browser (headless Chromium): it loads with no console error and
no network request, the gradebook sorts on a click, every submission's section is
reached by its link. Chromium is a test requirement (Debian `chromium`): without it the
test skips, which CI turns into a failure."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from typing import Any

import pytest

from pipeline.ids import natural_sorted
from pipeline.report.html import write_report
from pipeline.results.store import write_results_part, write_run_json
from pipeline.schemas import RESULTS_SCHEMA

websocket = pytest.importorskip("websocket", reason="websocket-client is a dev extra")
from tests.browser import Browser, open_page, page_troubles  # noqa: E402

IDS = ["s1", "s2", "s3", "s9", "s10", "s11", "s20", "alice", "<b>bob</b>"]


def _row(sub: str, case: str, ok: bool) -> dict[str, Any]:
    row: dict[str, Any] = {name: None for name in RESULTS_SCHEMA.names}
    row.update(
        run_id="r", submission=sub, submission_sha=sub, problem="clocks", case_id=case,
        family=case.split("/")[0], verdict="AC" if ok else "WA", cpu_ms=1.0, attempt=0,
        batch_size=1, checker_msg=None if ok else "expected 3 tokens, got 1",
        output_head=None if ok else "1 2",
    )  # fmt: skip
    return row


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    if binary is None:
        pytest.skip("chromium is not installed (Debian package `chromium`)")
    run = tmp_path_factory.mktemp("browser") / "run"
    rows = [
        _row(sub, f"{fam}/{i:07d}", (n * 7 + i + len(fam)) % (n + 2) != 0)
        for n, sub in enumerate(IDS)
        for fam in ("random", "all12")
        for i in range(6)
    ]
    write_run_json(run, {"run_id": "r", "command": "gridjudge grade x", "pairs": len(rows)})
    write_results_part(run, rows)
    browser = open_page(binary, write_report(run))
    yield browser
    browser.close()


def _column(page: Browser, index: int) -> list[str]:
    return list(
        page.evaluate(
            "Array.from(document.querySelectorAll('#gradebook tbody tr'))"
            f".map(r => r.cells[{index}].textContent)"
        )
    )


def test_loads_without_console_errors_or_network_requests(page: Browser) -> None:
    assert page.evaluate("document.querySelectorAll('#gradebook tbody tr').length") == len(IDS)
    assert any(e.get("method") == "Page.loadEventFired" for e in page.events)
    errors, requests = page_troubles(page)
    assert errors == []
    assert len(requests) == 1 and requests[0].startswith("file:"), requests  # the page


def test_gradebook_sorts_on_a_click(page: Browser) -> None:
    assert _column(page, 0) == natural_sorted(IDS)  # as written: natural id order
    page.click("#gradebook th:nth-child(2)")  # score, ascending
    scores = [float(s) for s in _column(page, 1)]
    assert scores == sorted(scores) and len(set(scores)) > 2
    page.click("#gradebook th:nth-child(2)")  # descending
    assert [float(s) for s in _column(page, 1)] == sorted(scores, reverse=True)
    page.click("#gradebook th:nth-child(1)")  # ids, natural order
    ids = _column(page, 0)
    assert ids.index("s2") < ids.index("s10") < ids.index("s20")
    assert [i for i in ids if i.startswith("s")] == IDS[:7]


def test_every_submission_section_is_reached_by_its_link(page: Browser) -> None:
    links = page.evaluate(
        "Array.from(document.querySelectorAll('#gradebook a'))"
        ".map(a => [a.getAttribute('href'), a.textContent])"
    )
    assert sorted(text for _, text in links) == sorted(IDS)
    for href, text in links:
        page.click(f'#gradebook a[href="{href}"]')
        state = page.evaluate(
            f"(() => {{ const s = document.querySelector('{href}');"
            " const r = s.getBoundingClientRect();"
            " return [location.hash, s.querySelector('h3').textContent, Math.round(r.top)]; })()"
        )
        assert state[0] == href and state[1].startswith(f"{text}: ")
        assert abs(state[2]) <= 2  # scrolled to the section
        page.evaluate("window.scrollTo(0, 0)")
    sections = page.evaluate("document.querySelectorAll('section.sub').length")
    assert sections == len(IDS)
    errors, requests = page_troubles(page)  # still none after every click
    assert errors == [] and len(requests) == 1, (errors, requests)
