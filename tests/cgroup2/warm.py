"""Builds, natively on the host, what the cgroup v2 VM runs (vm.sh calls it with
GRIDJUDGE_CACHE set to the folder the VM shares): compiling under software emulation
would take most of the VM's time. The VM finds the builds in the compile cache, the
sandbox's launcher and fork-server library among them (an ordinary user in the VM cannot
build into the shared folder: its files there belong to root)."""

from __future__ import annotations

from pathlib import Path

from pipeline.problem.registry import get_problem
from pipeline.program.submission import parse_spec, prepare
from pipeline.sandbox.launcher import fork_server_library, launcher_path
from tests._fake_problem import make_problem
from tests.test_forkserver import HOSTILE as FORK_SERVER_ATTACKS
from tests.test_forkserver_agreement import EXAMPLES, SEED_SPEC
from tests.test_hostile import FILES
from tests.test_seed_programs import SEEDS

LANGUAGES = Path(__file__).resolve().parents[1] / "submissions" / "languages"


def main() -> None:
    print(f"built {launcher_path()} and {fork_server_library()}")
    specs = [(get_problem("clocks"), str(LANGUAGES / n)) for n in ("Clocks.java", "clocks.go")]
    specs += [(make_problem(), str(p)) for p in FILES]
    attacks = sorted(FORK_SERVER_ATTACKS.glob("*.[cp]*"))  # the .c and .py programs
    specs += [(make_problem(), str(p)) for p in attacks]
    spot = get_problem("spot")
    specs.append((spot, SEED_SPEC["spot"].format(SEEDS / "spot.cpp")))
    specs += [(spot, str(p)) for p in sorted((EXAMPLES / "spot").iterdir())]
    for problem, spec in specs:
        sub = prepare(parse_spec(spec), problem)
        print(f"built {spec}: {'ok' if sub.compile_error is None else 'compile error'}")


if __name__ == "__main__":
    main()
