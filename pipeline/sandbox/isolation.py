"""What isolation this machine allows a submission, probed once: root or not, user
namespaces, the cgroup hierarchy (v1 controllers, unified cgroup2, a delegated cgroup v2
subtree this user may write) and bubblewrap.

It only reads files and runs plain commands (`unshare`, `bwrap`): it starts no sandboxed
run. The parsers are pure functions of the files' text, tested on fixture text.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from pipeline.errors import GridjudgeError

CGROUP_MOUNT = Path("/sys/fs/cgroup")
# the v1 controllers the sandbox's slots use, and the v2 ones (CPU comes from cpu.stat,
# which every v2 cgroup has without the cpu controller)
V1_CONTROLLERS = ("pids", "memory", "cpuacct")
V2_CONTROLLERS = ("memory", "pids")
CGROUP_ENV = "GRIDJUDGE_CGROUP"
# the leaf of a delegated subtree its processes (the judge) move into, so that the
# subtree may hand controllers on to the slots (cgroups_v2.py)
JUDGE_LEAF = "judge"
PROBE_TIMEOUT_S = 10.0
# the view the bwrap backend builds, every namespace unshared
BWRAP_CHECK = ("--unshare-all", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "true")
# What the sandbox does with what the machine allows: an ordinary user's launcher makes
# its namespaces inside a user namespace (launcher.c --userns); its slots are cgroup v1
# ones where v1 is writable, else cgroup v2 ones in the subtree `v2_subtree` finds
# (slot_hierarchy).
ORDINARY_USER_NAMESPACES = True
CGROUP_V2_SLOTS = True

# what the launcher makes as an ordinary user: all five namespaces in a user namespace
# mapping the user's own uid, and a /proc of the new pid namespace
USER_SANDBOX_CHECK = ("unshare", "--user", "--map-current-user", "-mnipuf", "--mount-proc", "true")
# set (to 1) where a run without isolation was allowed (--allow-unsandboxed, a run
# config's allow_unsandboxed): the sandbox refuses such runs otherwise, in every worker
ALLOW_UNSANDBOXED_ENV = "GRIDJUDGE_ALLOW_UNSANDBOXED"
# the fixes of sysctls that turn user namespaces off: (sysctl, blocking value, command)
USERNS_FIXES = (
    (
        "kernel.apparmor_restrict_unprivileged_userns",
        "1",
        "sysctl -w kernel.apparmor_restrict_unprivileged_userns=0",
    ),
    ("kernel.unprivileged_userns_clone", "0", "sysctl -w kernel.unprivileged_userns_clone=1"),
    ("user.max_user_namespaces", "0", "sysctl -w user.max_user_namespaces=15000"),
)

LEVELS = ("full", "namespaces without cgroups", "rlimits only", "none")
# how often the launcher's watchdog samples a run's memory and CPU where no cgroup holds
# them (run.h's MEM_POLL_US)
WATCHDOG_PERIOD_MS = 10
# what holds a run without a cgroup (the launcher's watchdog, run.c)
WATCHED = (
    "memory (resident, of every process of the run, and its tmpfs) and CPU summed by "
    f"the launcher, sampled every {WATCHDOG_PERIOD_MS} ms"
)


@dataclass(frozen=True)
class CgroupMounts:
    v1: dict[str, str]  # controller -> mount point
    unified: str | None  # where cgroup2 is mounted


def _unescape(field_text: str) -> str:
    """/proc/self/mounts writes a space in a path as \\040 (and tab, newline, backslash)."""
    for code, char in (("\\040", " "), ("\\011", "\t"), ("\\012", "\n"), ("\\134", "\\")):
        field_text = field_text.replace(code, char)
    return field_text


def parse_mounts(text: str) -> CgroupMounts:
    """The cgroup mounts listed in /proc/self/mounts text."""
    v1: dict[str, str] = {}
    unified = None
    for line in text.splitlines():
        parts = line.split()
        if len(parts) < 4:
            continue
        where, fstype, options = _unescape(parts[1]), parts[2], parts[3].split(",")
        if fstype == "cgroup2" and unified is None:
            unified = where
        elif fstype == "cgroup":
            for option in options:
                if option not in ("rw", "ro", "relatime", "noatime", "nosuid", "nodev", "noexec"):
                    v1.setdefault(option, where)
    return CgroupMounts(v1, unified)


def parse_proc_cgroup(text: str) -> tuple[str | None, dict[str, str]]:
    """(the cgroup v2 path, {v1 controller: path}) from /proc/PID/cgroup text: lines
    `hierarchy-id:controllers:path`, the v2 one being `0::path`."""
    v2 = None
    v1: dict[str, str] = {}
    for line in text.splitlines():
        hierarchy, sep, rest = line.partition(":")
        controllers, sep2, path = rest.partition(":")
        if not sep or not sep2:
            continue
        if hierarchy == "0" and controllers == "":
            v2 = path
        else:
            for name in controllers.split(","):
                v1[name] = path
    return v2, v1


def parse_words(text: str) -> tuple[str, ...]:
    """cgroup.controllers / cgroup.subtree_control: names separated by spaces."""
    return tuple(text.split())


def _read(path: Path | str) -> str | None:
    try:
        with open(path) as fh:
            return fh.read()
    except OSError:
        return None


def _writable(path: Path) -> bool:
    return os.access(path, os.W_OK)


@dataclass(frozen=True)
class UserNamespaces:
    usable: bool
    detail: str  # the command's complaint, or ""
    sysctls: dict[str, str] = field(default_factory=dict)  # name -> value, where present


@dataclass(frozen=True)
class CgroupV2Subtree:
    path: str | None  # the cgroup v2 directory this process would put its slots under
    source: str  # where it came from: root, GRIDJUDGE_CGROUP, /proc/self/cgroup
    writable: bool
    controllers: tuple[str, ...]  # available in it (its cgroup.controllers)

    @property
    def missing(self) -> tuple[str, ...]:
        return tuple(c for c in V2_CONTROLLERS if c not in self.controllers)

    @property
    def usable(self) -> bool:
        return self.path is not None and self.writable and not self.missing


@dataclass(frozen=True)
class Facts:
    root: bool
    user: str
    userns: UserNamespaces
    namespaces: bool  # the namespaces the launcher unshares, as this user
    cgroup_version: str  # v1 | v2 | hybrid | none
    v1_controllers: tuple[str, ...]  # mounted v1 controllers among the sandbox's
    v1_writable: bool  # the sandbox's v1 controllers can take slots (needs root)
    unified_mount: str | None
    unified_controllers: tuple[str, ...]
    v2: CgroupV2Subtree
    bwrap: str  # path, or "" when absent
    bwrap_usable: bool
    bwrap_detail: str
    sandbox_backend: str

    def as_dict(self) -> dict[str, Any]:
        return asdict(self) | {"isolation": isolation_level(self)[0]}


def _run(argv: list[str]) -> tuple[bool, str]:
    """(exit 0, first line of stderr) of a plain command; absent is (False, why)."""
    if shutil.which(argv[0]) is None:
        return False, f"{argv[0]} not found"
    try:
        done = subprocess.run(
            argv, capture_output=True, text=True, timeout=PROBE_TIMEOUT_S, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return False, f"{type(exc).__name__}: {exc}"
    lines = [ln.strip() for ln in done.stderr.splitlines() if ln.strip()]
    return done.returncode == 0, (lines[0] if lines else f"exit {done.returncode}")[:200]


USERNS_SYSCTLS = {
    "kernel.unprivileged_userns_clone": "/proc/sys/kernel/unprivileged_userns_clone",
    "user.max_user_namespaces": "/proc/sys/user/max_user_namespaces",
    "kernel.apparmor_restrict_unprivileged_userns": (
        "/proc/sys/kernel/apparmor_restrict_unprivileged_userns"
    ),
}


def probe_userns() -> UserNamespaces:
    sysctls = {}
    for name, path in USERNS_SYSCTLS.items():
        value = _read(path)
        if value is not None:
            sysctls[name] = value.strip()
    ok, detail = _run(["unshare", "-Ur", "true"])
    return UserNamespaces(ok, "" if ok else detail, sysctls)


def v2_subtree(
    root: bool, unified: str | None, own_path: str | None, env: str | None
) -> CgroupV2Subtree:
    """The cgroup v2 directory the slots would go under: GRIDJUDGE_CGROUP when set, the
    unified root for root, else this process's own cgroup (systemd's `Delegate=yes`
    hands its files to the user)."""
    if env:
        path, source = Path(env), CGROUP_ENV
    elif unified is None:
        return CgroupV2Subtree(None, "no cgroup2 mount", False, ())
    elif root:
        path, source = Path(unified), "unified root"
    elif own_path is None:
        return CgroupV2Subtree(None, "no cgroup v2 line in /proc/self/cgroup", False, ())
    else:
        path, source = Path(unified) / own_path.lstrip("/"), "/proc/self/cgroup"
        if path.name == JUDGE_LEAF:  # a judge moved there already: the subtree is above
            path = path.parent
    writable = all(
        _writable(p) for p in (path, path / "cgroup.procs", path / "cgroup.subtree_control")
    )
    controllers = parse_words(_read(path / "cgroup.controllers") or "")
    return CgroupV2Subtree(str(path), source, writable, controllers)


def v1_writable(root: bool, mounts: CgroupMounts) -> bool:
    """The sandbox's v1 controllers are all mounted and can take slots (needs root)."""
    return root and all(c in mounts.v1 and _writable(Path(mounts.v1[c])) for c in V1_CONTROLLERS)


def cgroup_version(mounts: CgroupMounts, unified_controllers: tuple[str, ...]) -> str:
    has_v1 = any(c in mounts.v1 for c in V1_CONTROLLERS)
    if has_v1:
        return "hybrid" if unified_controllers else "v1"
    return "v2" if mounts.unified is not None else "none"


def probe(env: dict[str, str] | None = None) -> Facts:
    """Everything above, read now (the doctor; `probed()` is the once-per-process one)."""
    env = dict(os.environ) if env is None else env
    root = os.geteuid() == 0
    mounts = parse_mounts(_read("/proc/self/mounts") or "")
    unified_controllers = (
        parse_words(_read(Path(mounts.unified) / "cgroup.controllers") or "")
        if mounts.unified
        else ()
    )
    own_v2, _ = parse_proc_cgroup(_read("/proc/self/cgroup") or "")
    userns = probe_userns()
    namespaces = (
        _run(["unshare", "-mnipuf", "true"])[0]
        if root
        else (ORDINARY_USER_NAMESPACES and userns.usable and _run(list(USER_SANDBOX_CHECK))[0])
    )
    v1 = tuple(c for c in V1_CONTROLLERS if c in mounts.v1)
    bwrap = shutil.which("bwrap") or ""
    bwrap_ok, bwrap_detail = _run([bwrap, *BWRAP_CHECK]) if bwrap else (False, "bwrap not found")
    return Facts(
        root=root,
        user=_user_name(),
        userns=userns,
        namespaces=namespaces,
        cgroup_version=cgroup_version(mounts, unified_controllers),
        v1_controllers=v1,
        v1_writable=v1_writable(root, mounts),
        unified_mount=mounts.unified,
        unified_controllers=unified_controllers,
        v2=v2_subtree(root, mounts.unified, own_v2, env.get(CGROUP_ENV)),
        bwrap=bwrap,
        bwrap_usable=bwrap_ok,
        bwrap_detail="" if bwrap_ok else bwrap_detail,
        sandbox_backend=env.get("GRIDJUDGE_SANDBOX") or "rlimit",
    )


def _user_name() -> str:
    try:
        import pwd

        return pwd.getpwuid(os.geteuid()).pw_name
    except (KeyError, ImportError):
        return str(os.geteuid())


@functools.cache
def probed() -> Facts:
    """The machine's facts, probed once per process."""
    return probe()


def slot_hierarchy(facts: Facts) -> str:
    """Where the sandbox's slots go: "v1" (root, v1 controllers), "v2" (the unified
    root for root, a delegated subtree for an ordinary user) or "" (none: rlimits)."""
    return _hierarchy(facts.v1_writable, facts.v2)


def _hierarchy(v1: bool, v2: CgroupV2Subtree) -> str:
    if v1:
        return "v1"
    if CGROUP_V2_SLOTS and v2.usable:
        return "v2"
    return ""


@functools.cache
def slots_probed() -> tuple[str, CgroupV2Subtree]:
    """(slot_hierarchy, the cgroup v2 subtree) for the sandbox, probed once per process
    from files alone (no command runs: every sandbox of every worker asks)."""
    root = os.geteuid() == 0
    mounts = parse_mounts(_read("/proc/self/mounts") or "")
    own_v2, _ = parse_proc_cgroup(_read("/proc/self/cgroup") or "")
    v2 = v2_subtree(root, mounts.unified, own_v2, os.environ.get(CGROUP_ENV))
    return _hierarchy(v1_writable(root, mounts), v2), v2


def cgroups_usable(facts: Facts) -> bool:
    return slot_hierarchy(facts) != ""


def isolation_level(facts: Facts) -> tuple[str, str]:
    """(one of LEVELS, why) for a submission run with the facts' backend."""
    if facts.sandbox_backend == "none":
        return "none", "GRIDJUDGE_SANDBOX=none: the program runs as you, unconfined"
    cgroups = cgroups_usable(facts)
    if facts.namespaces and cgroups:
        return "full", "namespaces, another uid, cgroup limits and measures"
    if facts.namespaces and facts.root:
        return "namespaces without cgroups", WATCHED
    if facts.namespaces:
        return "namespaces without cgroups", (
            "your uid without capabilities in a user namespace, none of your files in "
            f"view; {WATCHED}"
        )
    return "rlimits only", f"the program runs as you, with your files and the network; {WATCHED}"


def userns_fix(facts: Facts) -> str:
    """The command that turns user namespaces on here, where a sysctl turned them off."""
    for name, blocking, command in USERNS_FIXES:
        if facts.userns.sysctls.get(name) == blocking:
            return command
    return ""


def refusal(facts: Facts) -> str | None:
    """Why untrusted code may not run here (one line: the cause and the fix), or None
    where the sandbox isolates it."""
    if isolation_level(facts)[0] != "rlimits only":
        return None
    if facts.root:
        cause = "`unshare -mnipuf true` fails as root"
        fix = "run gridjudge where root may make namespaces (a VM, or a privileged container)"
    else:
        cause = "no user namespaces for an ordinary user here"
        detail = facts.userns.detail or "the sandbox's namespaces cannot be made"
        cause += f" ({detail})"
        command = userns_fix(facts)
        fix = f"sudo {command}" if command else "sudo gridjudge ..."
    return (
        f"refusing to run untrusted code without isolation: {cause}; fix: {fix}, "
        "or pass --allow-unsandboxed (allow_unsandboxed: true in a run config) to run it "
        "as you, with your files and the network"
    )


class IsolationRefused(GridjudgeError):
    """Untrusted code would run without isolation, and that was not allowed."""


def admit(allow_unsandboxed: bool, facts: Facts | None = None) -> None:
    """Raises IsolationRefused where no isolation is possible and it was not allowed;
    where it was, tells the sandboxes of this process and of its workers (the env)."""
    facts = probed() if facts is None else facts
    why = refusal(facts)
    if why is None:
        return
    if not (allow_unsandboxed or os.environ.get(ALLOW_UNSANDBOXED_ENV) == "1"):
        raise IsolationRefused(why)
    os.environ[ALLOW_UNSANDBOXED_ENV] = "1"
