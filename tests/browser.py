"""A headless Chromium driven through its DevTools protocol (a websocket), for tests that
load report.html as a grader's browser would: console errors, network requests, clicks."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

import websocket

FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--remote-debugging-port=0",
    "--remote-allow-origins=*",
]


class Browser:
    """One Chromium with one page; `events` holds every protocol event received."""

    def __init__(self, binary: str) -> None:
        self.profile = tempfile.mkdtemp(prefix="gj-chromium-")
        self.proc = subprocess.Popen(
            [binary, *FLAGS, f"--user-data-dir={self.profile}", "about:blank"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.events: list[dict[str, Any]] = []
        self._id = 0
        url = self._browser_url()
        port = re.search(r":(\d+)/", url)
        assert port is not None, url
        self.ws = websocket.create_connection(self._page_url(int(port.group(1))), timeout=30)

    def _browser_url(self) -> str:
        assert self.proc.stderr is not None
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            line = self.proc.stderr.readline()
            match = re.search(r"DevTools listening on (ws://\S+)", line)
            if match:
                return match.group(1)
            if not line and self.proc.poll() is not None:
                break
        raise RuntimeError("chromium did not start its DevTools endpoint")

    def _page_url(self, port: int) -> str:
        import urllib.request

        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list") as reply:
                pages = [t for t in json.load(reply) if t["type"] == "page"]
            if pages:
                return str(pages[0]["webSocketDebuggerUrl"])
            time.sleep(0.1)
        raise RuntimeError("chromium opened no page")

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        self._id += 1
        self.ws.send(json.dumps({"id": self._id, "method": method, "params": params}))
        while True:
            message = json.loads(self.ws.recv())
            if message.get("id") == self._id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return dict(message.get("result", {}))
            self.events.append(message)

    def wait_for(self, method: str, timeout: float = 30) -> None:
        if any(e.get("method") == method for e in self.events):
            return
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            message = json.loads(self.ws.recv())
            self.events.append(message)
            if message.get("method") == method:
                return
        raise TimeoutError(method)

    def evaluate(self, expression: str) -> Any:
        reply = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in reply:
            raise RuntimeError(f"{expression}: {reply['exceptionDetails']}")
        return reply["result"].get("value")

    def click(self, selector: str) -> None:
        """A real mouse click (pressed, released) at the centre of the element."""
        box = self.evaluate(
            f"(() => {{ const e = document.querySelector({json.dumps(selector)});"
            " e.scrollIntoView({block: 'center'}); const r = e.getBoundingClientRect();"
            " return [r.left + r.width / 2, r.top + r.height / 2]; })()"
        )
        x, y = box
        for kind in ("mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1)

    def close(self) -> None:
        try:
            self.ws.close()
        finally:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
            shutil.rmtree(self.profile, ignore_errors=True)


def open_page(binary: str, page: Path) -> Browser:
    """A browser with console, log and network events on, after `page` has loaded."""
    browser = Browser(binary)
    for domain in ("Runtime", "Log", "Network", "Page"):
        browser.call(f"{domain}.enable")
    browser.call("Page.navigate", url=page.resolve().as_uri())
    browser.wait_for("Page.loadEventFired")
    return browser


def page_troubles(page: Browser) -> tuple[list[Any], list[str]]:
    """Console errors and exceptions so far; requests for anything but the file itself."""
    page.evaluate("0")  # collect the events sent so far
    errors = [
        e
        for e in page.events
        if e.get("method") == "Runtime.exceptionThrown"
        or (e.get("method") == "Runtime.consoleAPICalled" and e["params"]["type"] == "error")
        or (e.get("method") == "Log.entryAdded" and e["params"]["entry"]["level"] == "error")
    ]
    requests = [
        e["params"]["request"]["url"]
        for e in page.events
        if e.get("method") == "Network.requestWillBeSent"
    ]
    return errors, requests
