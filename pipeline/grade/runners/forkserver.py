"""One fresh process per case, forked from a fork server instead of spawned.

The server (program.sandbox.forkserver) is started on the first case and kept for the
runner's life; a case that kills it costs that case (RE) and the next case starts a new
one. A program or sandbox that cannot be served (a statically linked binary, a threaded
runtime, a sandbox without namespaces) is spawned, and its rows say why in `runner`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pipeline.grade.runners.spawn import SpawnRunner
from pipeline.limits import Limits
from pipeline.program.execution import ExecutionResult
from pipeline.program.sandbox.forkserver import ForkServer, ForkServerUnavailable

RUNNER = "fork-server"
# new servers tried for one case whose server failed before the case ran
RESTARTS = 1


@dataclass
class ForkServerRunner(SpawnRunner):
    _server: ForkServer | None = field(default=None, repr=False)
    _unavailable: str | None = None
    started: int = 0  # servers started so far

    def _serving(self, limits: Limits) -> ForkServer | None:
        if self._unavailable is not None:
            return None
        if self._server is not None and self._server.alive:
            return self._server
        try:
            self._server = self.submission.start_fork_server(limits)
            self.started += 1
        except ForkServerUnavailable as exc:
            self._unavailable = f"spawn ({exc})"
            return None
        except Exception as exc:  # the judge's failure: spawning gives JE where it fails too
            self._unavailable = f"spawn (no fork server: {type(exc).__name__}: {exc})"
            return None
        return self._server

    def execute(self, text: str, limits: Limits | None = None) -> ExecutionResult:
        limits = limits or self.limits
        for _ in range(1 + RESTARTS):
            server = self._serving(self.limits)
            if server is None:
                break
            io = self.submission.io
            files = {io.input_file: text.encode()} if io.input_file else None
            result = server.run(text.encode(), limits, files, io.output_file)
            if not (result.judge_error and not server.alive):
                result.extra["runner"] = RUNNER
                return result
        result = super().execute(text, limits)
        result.extra["runner"] = self._unavailable or "spawn (the fork server failed)"
        return result

    def close(self) -> None:
        if self._server is not None:
            self._server.close()
            self._server = None
