"""The `none` backend: a plain subprocess in its own session and scratch dir, with the
wall limit, output cap and CPU/file-size limits applied after the spawn. No isolation
(no uid change, no namespaces); peak RSS from wait4 is unreliable here when the judge
is a big process (DESIGN §5). For trusted commands and debugging only."""

from __future__ import annotations

import contextlib
import resource
import subprocess
import time
from collections.abc import Mapping, Sequence

from pipeline.execution import ExecutionResult, Limits
from pipeline.sandbox.base import (
    FileSpec,
    Workspace,
    collect_output,
    decode_status,
    missing_program,
    private_open,
    wait_with_deadline,
)


class PlainSandbox:
    name = "none"

    def run(
        self,
        argv: Sequence[str],
        *,
        limits: Limits,
        stdin: bytes = b"",
        files: Mapping[str, FileSpec] | None = None,
        output_file: str | None = None,
    ) -> ExecutionResult:
        result = ExecutionResult()
        try:
            ws = Workspace.create(stdin, files)
        except OSError as exc:
            result.judge_error = f"sandbox setup failed: {exc}"
            return result
        try:
            missing = missing_program(argv, ws.box)
            if missing:
                result.judge_error = missing
                return result
            start = time.monotonic()
            with (
                open(ws.stdin, "rb") as fin,
                private_open(ws.stdout) as fout,
                private_open(ws.stderr) as ferr,
            ):
                try:
                    proc = subprocess.Popen(
                        list(argv),
                        cwd=ws.box,
                        stdin=fin,
                        stdout=fout,
                        stderr=ferr,
                        start_new_session=True,
                    )
                except OSError as exc:
                    result.judge_error = f"cannot start {argv[0]!r}: {exc}"
                    return result
            cpu = int(limits.time_s) + 1
            cap = limits.output_kb * 1024 + 1
            with contextlib.suppress(OSError):
                resource.prlimit(proc.pid, resource.RLIMIT_CPU, (cpu, cpu + 1))
                resource.prlimit(proc.pid, resource.RLIMIT_FSIZE, (cap, cap))
            status, usage, hit = wait_with_deadline(proc.pid, limits.wall_limit_s)
            proc.returncode = 0  # reaped by wait4 above
            result.wall_ms = (time.monotonic() - start) * 1000
            decode_status(result, status)
            if usage is not None:
                result.cpu_ms = (usage.ru_utime + usage.ru_stime) * 1000
                result.peak_rss_kb = int(usage.ru_maxrss)
            result.wall_exceeded = hit
            result.cpu_exceeded = result.cpu_ms > limits.time_s * 1000
            result.memory_exceeded = result.peak_rss_kb > limits.memory_mb * 1024
            collect_output(ws, result, limits, output_file)
            return result
        finally:
            ws.remove()
