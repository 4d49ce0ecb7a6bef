"""A generators.yaml plan (generators.py) made into the package's `data/`, as `bt
generate` writes it: each case's files, each folder's test_group.yaml.

Generators and solutions are package programs: built by the build cache and run in the
sandbox under GENERATOR_LIMITS (execute.run, as every program runs). A generator runs in
its scratch dir with `{name}` as `testcase`: the `testcase.in` (and `.ans`) it writes
there are the case's, else its stdout is the input. Each step's result is kept in the
generation cache under a hash of all it depends on (the program's source files, the
arguments with the seed filled in, the input a solution reads), so generating an
unchanged package again runs nothing, and writes only files that differ.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from pipeline.distribute.cluster import SERIAL, Cluster
from pipeline.limits import Limits
from pipeline.outcome import ExecutionResult
from pipeline.package.generators import GENERATORS_YAML, Case, GeneratorsError, Plan, read_plan
from pipeline.package.programs import PackageProgram
from pipeline.package.spec import read_package
from pipeline.package.submissions import read_submissions
from pipeline.program import execute
from pipeline.program.build import default_cache_dir

# of every generator and solution run: the judge's time, not a submission's
GENERATOR_LIMITS = Limits(cpu_ms=60_000, memory_mb=2048, output_kb=256 * 1024)
CAUGHT = ("testcase.in", "testcase.ans")  # what a generator may write beside its stdout
CHUNK_CASES = 8  # cases per Ray task
SERIAL_CASES = 32  # at most this many cases: generated in this process, no Ray started


def cache_dir() -> Path:
    """The generation cache: beside the build cache."""
    return default_cache_dir().parent / "generated"


def default_solution(root: Path) -> str | None:
    """The first accepted submission (by path), package-rooted: what answers the cases
    where generators.yaml names no solution, as `bt generate` picks one."""
    accepted = sorted(s.path for s in read_submissions(root) if s.folder == "accepted")
    return "/" + accepted[0].relative_to(root).as_posix() if accepted else None


def within(base: Path, relative: str, what: str) -> Path:
    """`base / relative`, which must stay inside `base` (a `copy: ../../etc/shadow`, a
    `solution: /../x` would read the host's files into the package's data)."""
    path = (base / relative.lstrip("/")).resolve()
    if not path.is_relative_to(base.resolve()):
        raise GeneratorsError(f"{what} {relative}: outside {base}: refused")
    return path


def _digest(*parts: bytes | str) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(part.encode() if isinstance(part, str) else part)
        h.update(b"\0")
    return h.hexdigest()


def _source_digest(path: Path) -> str:
    files = [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file())
    return _digest(*(p.relative_to(path.parent).as_posix() for p in files),
                   *(p.read_bytes() for p in files))  # fmt: skip


@dataclass
class Generated:
    """What one generation did."""

    cases: int = 0
    ran: int = 0  # programs run (0: everything came from the cache)
    written: list[str] = field(default_factory=list)  # data/ files written, package-rooted
    notes: list[str] = field(default_factory=list)


@dataclass
class _Generator:
    """The plan's programs and the runs of its cases."""

    root: Path
    plan: Plan
    servers: execute.Servers
    done: Generated
    interactive: bool = False
    constants: dict[str, str] = field(default_factory=dict)  # problem.yaml's
    programs: dict[Path, tuple[PackageProgram, str]] = field(default_factory=dict)

    def program(self, path: Path) -> tuple[PackageProgram, str]:
        """The program at `path` and the digest of its sources."""
        if path not in self.programs:
            if not path.exists():
                raise GeneratorsError(f"{path}: no such program")
            # a generator gets the constants; a solution, an example submission, does not
            mine = {} if path.is_relative_to(self.root / "submissions") else self.constants
            program = PackageProgram(path, mine)
            program.check_spec()
            constants = json.dumps(sorted(mine.items()))
            self.programs[path] = (program, _digest(_source_digest(path), constants))
        return self.programs[path]

    def generator_path(self, name: str) -> Path:
        """A name of the `generators:` list (its files staged as one program folder), else
        a file or folder in generators/."""
        base = self.root / GENERATORS_YAML.parent
        files = self.plan.generators.get(name)
        if files is None:
            return within(base, name, "generator")
        paths = [within(base, f, f"generator {name}:") for f in files]
        digest = _digest(*files, *(p.read_bytes() for p in paths if p.is_file()))
        staged = cache_dir() / "programs" / digest / name
        if not staged.is_dir():
            for file, path in zip(files, paths, strict=True):
                if not path.is_file():
                    raise GeneratorsError(f"{base / GENERATORS_YAML.name}: {name}: no file {file}")
            _publish(
                staged, {Path(f).name: p.read_bytes() for f, p in zip(files, paths, strict=True)}
            )
        return staged

    def run(self, path: Path, stdin: bytes, args: list[str], what: str) -> ExecutionResult:
        program, _ = self.program(path)
        failed = program.failure()
        if failed is not None:
            raise GeneratorsError(f"{what}: {failed}")
        self.done.ran += 1
        return execute.run(
            program.prepared(),
            stdin,
            limits=GENERATOR_LIMITS,
            args=args,
            read_back=CAUGHT,
            servers=self.servers,
        )

    def cached(self, key: str, make: Callable[[], dict[str, bytes]]) -> dict[str, bytes]:
        """`make()`'s files, kept under `key` (a run that failed raises, and is not kept)."""
        folder = cache_dir() / "results" / key[:2] / key
        index = folder / "files.json"
        if index.is_file():
            names = json.loads(index.read_text())
            return {n: (folder / n).read_bytes() for n in names}
        files = make()
        _publish(folder, {**files, "files.json": json.dumps(sorted(files)).encode()})
        return files

    def generate(self, case: Case) -> dict[str, bytes]:
        """in (and ans) of `case`'s generator command."""
        argv = case.argv()
        path = self.generator_path(argv[0])
        _, digest = self.program(path)
        where = f"data/{case.path}: {case.command}"

        def make() -> dict[str, bytes]:
            result = None
            for retry in range(case.retries):
                args = case.argv() if retry == 0 else _reseeded(case, retry)
                result = self.run(path, b"", args[1:], where)
                if _succeeded(result):
                    break
            assert result is not None
            if not _succeeded(result):
                raise GeneratorsError(f"{where}: the generator failed: {_why(result)}")
            files = {"ans": result.files["testcase.ans"]} if "testcase.ans" in result.files else {}
            files["in"] = result.files.get("testcase.in", result.output)
            return files

        return self.cached(_digest("generate", digest, json.dumps(argv[1:])), make)

    def answer(self, case: Case, text: bytes) -> bytes:
        assert case.solution is not None
        path = within(self.root, case.solution, f"data/{case.path}: solution")
        _, digest = self.program(path)
        where = f"data/{case.path}: solution {case.solution}"

        def make() -> dict[str, bytes]:
            result = self.run(path, text, [], where)
            if not _succeeded(result):
                raise GeneratorsError(f"{where} failed: {_why(result)}")
            return {"ans": result.output}

        return self.cached(_digest("solve", digest, text), make)["ans"]

    def files_of(self, case: Case) -> dict[str, bytes]:
        """Every file of `case`: ext -> content."""
        files: dict[str, bytes] = {}
        if case.copy is not None:
            base = within(self.root / GENERATORS_YAML.parent, case.copy, f"data/{case.path}: copy")
            for ext in ("in", "ans", "out", "yaml"):
                source = base.parent / f"{base.name}.{ext}"
                if source.is_file():
                    files[ext] = source.read_bytes()
            if "in" not in files:
                raise GeneratorsError(f"data/{case.path}: copy: no file {base}.in")
        if case.command is not None:
            files.update(self.generate(case))
        files.update({ext: text.encode() for ext, text in case.files})
        if "in" in files and "ans" not in files and not case.invalid_input:
            if self.interactive:
                files["ans"] = b""  # an interactive case's answer is the interactor's
            elif case.solution is not None:
                files["ans"] = self.answer(case, files["in"])
        return files


def _publish(folder: Path, files: dict[str, bytes]) -> None:
    """`files` as `folder`, whole or not at all: written beside it, then renamed into
    place (Ray workers making the same case at once: the first one's stays)."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    draft = Path(tempfile.mkdtemp(prefix=f".{folder.name}.", dir=folder.parent))
    for name, data in files.items():
        (draft / name).write_bytes(data)
    try:
        draft.rename(folder)
    except OSError:  # kept by another process first: the same bytes
        shutil.rmtree(draft, ignore_errors=True)


def _reseeded(case: Case, retry: int) -> list[str]:
    """The command of a retry: the seed plus the retry's number, as the format retries."""
    again = Case(case.path, case.key, case.command, (case.seed + retry) % 2**31)
    return again.argv()


def _succeeded(result: ExecutionResult) -> bool:
    return not (result.judge_error or result.exit_code != 0 or result.signal)


def _why(result: ExecutionResult) -> str:
    if result.judge_error:
        return f"judge error: {result.judge_error}"
    if result.cpu_exceeded or result.wall_exceeded:
        return "out of time"
    if result.memory_exceeded:
        return "out of memory"
    said = result.stderr_head.decode(errors="replace").strip().splitlines()
    how = f"killed by signal {result.signal}" if result.signal else f"exit code {result.exit_code}"
    return how + (f": {said[-1][:200]}" if said else "")


def _write(path: Path, data: bytes, done: Generated, root: Path, keep: bool) -> None:
    """`data` into `path` where it differs (`keep`: only where there is no file yet)."""
    if path.is_file() and (keep or path.read_bytes() == data):
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    done.written.append(path.relative_to(root).as_posix())


@dataclass(frozen=True)
class Chunk:
    """Cases one Ray task (or this process) makes: all it needs, by value."""

    root: str
    generators: dict[str, list[str]]
    interactive: bool
    fork: bool
    cases: list[Case]
    constants: dict[str, str] = field(default_factory=dict)  # problem.yaml's


def make_chunk(chunk: Chunk) -> tuple[list[tuple[str, dict[str, bytes]]], int, str | None]:
    """The files of each case of `chunk` (data/-relative path, ext -> content), the
    programs run, and the one line that stopped it (the cases made before it are kept)."""
    plan = Plan(cases=chunk.cases, generators=chunk.generators)
    done = Generated()
    servers = execute.Servers(fork=chunk.fork)
    gen = _Generator(Path(chunk.root), plan, servers, done, chunk.interactive, chunk.constants)
    made: list[tuple[str, dict[str, bytes]]] = []
    try:
        for case in chunk.cases:
            made.append((case.path, gen.files_of(case)))
    except GeneratorsError as exc:
        return made, done.ran, str(exc)
    finally:
        servers.close()
    return made, done.ran, None


def executor(address: str | None, cases: int) -> str | None:
    """Where to generate: the address asked for (or RAY_ADDRESS's), else in this process
    for at most SERIAL_CASES cases (a Ray start costs more than they take), else the
    embedded Ray."""
    if address is not None or os.environ.get("RAY_ADDRESS"):
        return address
    return SERIAL if cases <= SERIAL_CASES else None


def generate_package(
    root: Path, *, fork: bool = True, address: str | None = None, keep: bool = False
) -> Generated:
    """The package at `root`'s data/ made from its generators.yaml, its cases fanned out
    in chunks over `address` (executor); raises GeneratorsError, one line, when a case
    cannot be made (every case made by then is written). `keep`: files already in data/
    are left as they are (verify adds what is missing, never rewrites an author's file)."""
    root = Path(root).resolve()
    package = read_package(root)
    interactive = package.interactive or package.passes > 1  # the answer is no output
    plan = read_plan(root, default_solution(root), package.constants)
    done = Generated(cases=len(plan.cases), notes=list(plan.notes))
    cases = plan.cases
    chunks = [
        Chunk(
            str(root),
            plan.generators,
            interactive,
            fork,
            cases[i : i + CHUNK_CASES],
            package.constants,
        )
        for i in range(0, len(cases), CHUNK_CASES)
    ]
    data, errors = root / "data", []
    with Cluster(executor(address, len(cases))) as cluster:
        for _, (made, ran, error) in cluster.map_unordered(make_chunk, chunks):
            done.ran += ran
            errors += [error] if error is not None else []
            for path, files in made:
                for ext, content in files.items():
                    _write(data / f"{path}.{ext}", content, done, root, keep)
    if errors:
        raise GeneratorsError(min(errors))  # the same line whatever the chunks' order
    for folder, (name, content) in plan.groups.items():
        text = "" if content is None else yaml.safe_dump(content, sort_keys=False)
        _write(data / folder / name, text.encode(), done, root, keep)
    done.written.sort()
    return done


def missing_files(root: Path) -> list[str]:
    """The `.in` files of the plan not in data/ yet (what `verify` generates first)."""
    plan = read_plan(root, None)
    return [c.path for c in plan.cases if not (Path(root) / "data" / f"{c.path}.in").is_file()]
