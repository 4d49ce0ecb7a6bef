"""Running this checkout's Python as an unprivileged user, from root (CI runs as root):
used by tests/test_ordinary_user.py and bench/sandbox.py.

The checkout, the interpreter and the packages may lie in folders the user cannot
traverse (/root is 0700): they are bound read-only at a folder of the caller's in a
private mount namespace of that one command (`unshare --mount`), so the host is not
changed, and the user's tasks are bounded (`prlimit --nproc`) whatever it runs.
"""

from __future__ import annotations

import os
import sys
import sysconfig
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
# a bound on the user's tasks whatever the sandbox does: a fork bomb that escaped it
# must not take the machine's pids
MAX_TASKS = 2000


def bound_command(
    user: str, env: dict[str, str], argv: list[str], at: Path, repo: Path = REPO
) -> list[str]:
    """`argv` (the arguments of a python command line) run as `user` from the checkout
    `repo`, interpreter and packages bound read-only under `at` (an empty folder, 0755),
    with only `env` in its environment."""
    prefix = Path(sys.base_prefix)
    python = Path(os.path.realpath(sys.executable)).relative_to(prefix)
    binds = {"src": repo, "python": prefix, "site": Path(sysconfig.get_paths()["purelib"])}
    script = []
    for name, source in binds.items():
        (at / name).mkdir()
        script.append(f'mount --bind -o ro "{source}" "{at / name}"')
    # the packages after the standard library, as in the venv: on PYTHONPATH they came
    # first, and an old PyPI backport a dependency pulls in (`typing`, comby's) shadowed
    # the standard module of that name
    (at / "boot").mkdir()
    (at / "boot" / "sitecustomize.py").write_text(
        f"import site\nsite.addsitedir({str(at / 'site')!r})\n"
    )
    env = {
        **env,
        "PYTHONPATH": f"{at / 'src'}:{at / 'boot'}",
        "LD_LIBRARY_PATH": str(at / "python" / "lib"),
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    settings = [f"{k}={v}" for k, v in env.items()]
    bound = ["prlimit", f"--nproc={MAX_TASKS}:{MAX_TASKS}", "--"]
    inner = ["runuser", "-u", user, "--", *bound, "env", "-i", *settings]
    inner.append(str(at / "python" / python))
    script.append(f'cd "{at / "src"}" && exec ' + " ".join(f"'{a}'" for a in inner + argv))
    return ["unshare", "--mount", "--propagation", "private", "sh", "-c", " && ".join(script)]
