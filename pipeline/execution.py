"""What running a program on one input means, shared by the sandbox (which produces it),
in-process solvers, and grading (which turns it into a verdict)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Limits:
    """Resource limits of one run. The stack limit equals the memory limit (as most
    judges set it); the wall limit defaults to a multiple of the CPU limit."""

    time_s: float = 1.0  # CPU time
    memory_mb: int = 256
    wall_s: float | None = None  # None: 2 x time_s + 1 s
    output_kb: int = 64 * 1024
    processes: int = 64

    @property
    def wall_limit_s(self) -> float:
        return self.wall_s if self.wall_s is not None else 2 * self.time_s + 1.0


@dataclass
class ExecutionResult:
    """One run of a program. `output` is the answer taken (the output file when the
    problem declares one and the program wrote it, else stdout), capped at the limit."""

    exit_code: int | None = None
    signal: int | None = None
    cpu_ms: float = 0.0
    wall_ms: float = 0.0
    peak_rss_kb: int = 0
    output: bytes = b""
    stderr_head: bytes = b""
    cpu_exceeded: bool = False
    wall_exceeded: bool = False
    memory_exceeded: bool = False
    output_exceeded: bool = False
    # Set when the judge itself failed (sandbox setup, missing launcher...): a JE, never
    # blamed on the program.
    judge_error: str | None = None
    extra: dict[str, str] = field(default_factory=dict)
