"""A scripted Sandbox for unit tests of code that runs submissions: no process is
started; each call is recorded and answered by `respond(call) -> ExecutionResult`."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pipeline.limits import Limits
from pipeline.outcome import ExecutionResult
from pipeline.sandbox.base import FileSpec, RunRequest, Server, ServerRequest, close_fds
from pipeline.sandbox.errors import ForkServerUnavailable


@dataclass
class FakeCall:
    argv: list[str]
    limits: Limits
    stdin: bytes
    files: dict[str, FileSpec]
    output_file: str | None


def _echo(call: FakeCall) -> ExecutionResult:
    return ExecutionResult(exit_code=0, output=call.stdin, cpu_ms=1.0, wall_ms=1.0)


@dataclass
class FakeSandbox:
    respond: Callable[[FakeCall], ExecutionResult] = _echo
    calls: list[FakeCall] = field(default_factory=list)
    name: str = "fake"
    concealed: list[str] = field(default_factory=list)

    def conceal(self, paths: Iterable[Path | str]) -> None:
        self.concealed.extend(str(p) for p in paths)

    def run(self, argv: Sequence[str], request: RunRequest) -> ExecutionResult:
        close_fds(request.stdio)
        call = FakeCall(
            list(argv), request.limits, request.stdin, dict(request.files or {}),
            request.output_file,
        )  # fmt: skip
        self.calls.append(call)
        return self.respond(call)

    def start_server(self, request: ServerRequest) -> Server:
        raise ForkServerUnavailable("fake sandbox")
