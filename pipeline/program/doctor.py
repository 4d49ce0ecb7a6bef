"""`gridjudge doctor`: what this machine gives a submission (isolation.py's facts), which
toolchains are here, and how trustworthy its timings are (frequency governor, busy SMT
siblings, load), as rows; each gap names the one command that closes it."""

from __future__ import annotations

import glob
import os
import time
from dataclasses import asdict, dataclass
from typing import Any

from pipeline.program.languages.registry import all_languages, missing
from pipeline.sandbox import isolation
from pipeline.sandbox.isolation import Facts

CPU_SYS = "/sys/devices/system/cpu"
BUSY_SAMPLE_S = 0.25  # /proc/stat is read twice this far apart
BUSY_SHARE = 0.5  # a CPU more than half busy in that time is busy
LOADED_PER_CPU = 0.5  # a 1-minute load above this per CPU makes timings noisy
GOVERNOR_FIX = f"echo performance | tee {CPU_SYS}/cpu*/cpufreq/scaling_governor"
SMT_FIX = f"echo off > {CPU_SYS}/smt/control"
DELEGATE_FIX = "systemd-run --user --scope -p Delegate=yes gridjudge ..."
ROOT_FIX = "sudo gridjudge ..."


@dataclass(frozen=True)
class Row:
    area: str
    check: str
    status: str  # ok | gap | info
    detail: str
    fix: str = ""


@dataclass(frozen=True)
class Timing:
    governors: dict[str, int]  # governor -> how many CPUs use it (empty: no cpufreq)
    smt_siblings: list[list[int]]  # CPUs sharing a core, where SMT is on
    busy_cpus: list[int]
    load1: float
    cpus: int


def parse_cpu_list(text: str) -> list[int]:
    """`0-2,5` (sysfs CPU lists) as [0, 1, 2, 5]."""
    cpus: list[int] = []
    for part in text.strip().split(","):
        if not part:
            continue
        low, _, high = part.partition("-")
        cpus.extend(range(int(low), int(high or low) + 1))
    return cpus


def parse_proc_stat(text: str) -> dict[int, tuple[int, int]]:
    """{cpu: (busy ticks, all ticks)} from /proc/stat (idle and iowait are not busy)."""
    out = {}
    for line in text.splitlines():
        name, *fields = line.split()
        if not name.startswith("cpu") or name == "cpu":
            continue
        ticks = [int(f) for f in fields[:8]]
        idle = ticks[3] + (ticks[4] if len(ticks) > 4 else 0)
        out[int(name[3:])] = (sum(ticks) - idle, sum(ticks))
    return out


def busy_between(
    before: dict[int, tuple[int, int]], after: dict[int, tuple[int, int]]
) -> list[int]:
    busy = []
    for cpu, (busy1, total1) in sorted(after.items()):
        busy0, total0 = before.get(cpu, (busy1, total1))
        if total1 > total0 and (busy1 - busy0) / (total1 - total0) > BUSY_SHARE:
            busy.append(cpu)
    return busy


def _read(path: str) -> str:
    try:
        with open(path) as fh:
            return fh.read()
    except OSError:
        return ""


def probe_timing() -> Timing:
    governors: dict[str, int] = {}
    for path in glob.glob(f"{CPU_SYS}/cpu[0-9]*/cpufreq/scaling_governor"):
        name = _read(path).strip() or "unknown"
        governors[name] = governors.get(name, 0) + 1
    siblings = {
        tuple(parse_cpu_list(_read(path)))
        for path in glob.glob(f"{CPU_SYS}/cpu[0-9]*/topology/thread_siblings_list")
    }
    before = parse_proc_stat(_read("/proc/stat"))
    time.sleep(BUSY_SAMPLE_S)
    after = parse_proc_stat(_read("/proc/stat"))
    return Timing(
        governors=governors,
        smt_siblings=sorted(list(s) for s in siblings if len(s) > 1),
        busy_cpus=busy_between(before, after),
        load1=os.getloadavg()[0],
        cpus=os.cpu_count() or 1,
    )


def _userns_fix(facts: Facts) -> str:
    return isolation.userns_fix(facts)


def isolation_rows(facts: Facts) -> list[Row]:
    who = "root" if facts.root else f"ordinary user {facts.user}"
    ns = facts.userns
    rows = [
        Row("isolation", "user", "info", who),
        Row(
            "isolation",
            "user namespaces",
            "ok" if ns.usable else "gap",
            "`unshare -Ur true` works" if ns.usable else f"`unshare -Ur true`: {ns.detail}",
            "" if ns.usable else _userns_fix(facts),
        ),
        _namespaces_row(facts),
        Row("isolation", "cgroup hierarchy", "info", _hierarchy(facts)),
        _v1_row(facts),
        _v2_row(facts),
        Row(
            "isolation",
            "bubblewrap",
            "ok" if facts.bwrap_usable else "gap",
            facts.bwrap if facts.bwrap_usable else facts.bwrap_detail,
            "" if facts.bwrap else "apt-get install bubblewrap",
        ),
    ]
    level, why = isolation.isolation_level(facts)
    gaps = [r.fix for r in rows if r.status == "gap" and r.fix]
    full = level == "full"
    rows.append(
        Row(
            "isolation",
            "a submission gets",
            "ok" if full else "gap",
            f"{level}: {why}",
            "" if full else (gaps[0] if gaps else ""),
        )
    )
    return rows


def _namespaces_row(facts: Facts) -> Row:
    name = "namespaces for runs"
    if facts.namespaces:
        if facts.root:
            return Row("isolation", name, "ok", "net, pid, mount, ipc, uts unshared per run")
        return Row(
            "isolation",
            name,
            "ok",
            "net, pid, mount, ipc, uts unshared per run in a user namespace (your uid)",
        )
    if facts.root:
        return Row("isolation", name, "gap", "`unshare -mnipuf true` fails as root")
    if isolation.ORDINARY_USER_NAMESPACES:
        return Row("isolation", name, "gap", "no user namespaces", _userns_fix(facts))
    return Row("isolation", name, "gap", "the sandbox unshares namespaces only as root", ROOT_FIX)


def _hierarchy(facts: Facts) -> str:
    parts = [facts.cgroup_version]
    if facts.v1_controllers:
        parts.append(f"v1 controllers {' '.join(facts.v1_controllers)}")
    if facts.unified_mount:
        having = " ".join(facts.unified_controllers) or "no controllers"
        parts.append(f"cgroup2 at {facts.unified_mount} ({having})")
    return "; ".join(parts)


def _v1_row(facts: Facts) -> Row:
    name = "cgroup v1 slots"
    if not facts.v1_controllers:
        return Row("isolation", name, "info", "no v1 controllers mounted")
    if facts.v1_writable:
        return Row("isolation", name, "ok", "pids, memory, cpuacct writable")
    return Row("isolation", name, "gap", "v1 controllers need root", ROOT_FIX)


def _v2_row(facts: Facts) -> Row:
    name = "cgroup v2 subtree"
    v2 = facts.v2
    if facts.cgroup_version in ("v1", "hybrid"):
        return Row("isolation", name, "info", "none: the v1 hierarchy holds memory and pids")
    if v2.path is None:
        return Row("isolation", name, "info", v2.source)
    where = f"{v2.path} (from {v2.source})"
    if v2.usable and isolation.CGROUP_V2_SLOTS:
        return Row("isolation", name, "ok", f"{where}: writable, memory and pids")
    if v2.usable:
        return Row("isolation", name, "gap", f"{where}: usable, not used yet (issue 24)")
    if not v2.writable:
        fix = "" if facts.root else DELEGATE_FIX
        return Row("isolation", name, "gap", f"{where}: not writable", fix)
    fix = (
        f"echo '+memory +pids' > {facts.unified_mount}/cgroup.subtree_control"
        if facts.root
        else DELEGATE_FIX
    )
    return Row("isolation", name, "gap", f"{where}: lacks {' '.join(v2.missing)}", fix)


def toolchain_rows() -> list[Row]:
    rows = []
    for lang in all_languages().values():
        why = missing(lang)
        if why is None:
            rows.append(Row("toolchain", lang.name, "ok", lang.title))
        else:
            rows.append(Row("toolchain", lang.name, "gap", why, f"apt-get install {lang.package}"))
    return rows


def timing_rows(timing: Timing) -> list[Row]:
    governors = timing.governors
    if not governors:
        governor = Row("timing", "frequency governor", "info", "no cpufreq (a VM, or fixed)")
    elif set(governors) == {"performance"}:
        governor = Row("timing", "frequency governor", "ok", "performance on every CPU")
    else:
        shown = ", ".join(f"{g} on {n} CPUs" for g, n in sorted(governors.items()))
        governor = Row("timing", "frequency governor", "gap", shown, GOVERNOR_FIX)
    busy = set(timing.busy_cpus)
    shared = [s for s in timing.smt_siblings if busy & set(s)]
    if not timing.smt_siblings:
        smt = Row("timing", "SMT siblings", "ok", "no CPU shares its core")
    elif shared:
        smt = Row("timing", "SMT siblings", "gap", f"busy cores: {shared}", SMT_FIX)
    else:
        smt = Row("timing", "SMT siblings", "ok", "SMT on, no sibling busy now")
    load = f"{timing.load1:.2f} over 1 min on {timing.cpus} CPUs; busy now: {timing.busy_cpus}"
    loaded = timing.load1 > LOADED_PER_CPU * timing.cpus
    return [
        governor,
        smt,
        Row(
            "timing",
            "load",
            "gap" if loaded else "ok",
            load,
            "top -o %CPU (other work makes timings noisy)" if loaded else "",
        ),
    ]


@dataclass(frozen=True)
class Diagnosis:
    facts: Facts
    timing: Timing
    rows: list[Row]

    @property
    def isolation(self) -> str:
        return isolation.isolation_level(self.facts)[0]

    def as_dict(self) -> dict[str, Any]:
        return {
            "isolation": self.isolation,
            "facts": self.facts.as_dict(),
            "timing": asdict(self.timing),
            "rows": [asdict(r) for r in self.rows],
        }


def diagnose() -> Diagnosis:
    """Probes the machine now and returns every row."""
    facts = isolation.probe()
    timing = probe_timing()
    rows = isolation_rows(facts) + toolchain_rows() + timing_rows(timing)
    return Diagnosis(facts, timing, rows)
