"""Fan work out over Ray: the only module of gridjudge that imports ray
(import-linter's `ray` contract), so Ray's API and its version's quirks stay in one place
(docs/decisions.md#d1).

    with Cluster(address=None) as cluster:
        for chunk, result in cluster.map_unordered(fn, chunks, max_in_flight=8):
            ...

Addresses:
    None            RAY_ADDRESS if set, else an embedded local cluster (ray.init() with
                    no address; num_cpus defaults to os.cpu_count()).
    "local"         always an embedded local cluster, whatever RAY_ADDRESS says.
    "local-serial"  no Ray at all: the same `fn` is called in this process, in order.
                    For debugging and unit tests; the code path is otherwise identical.
    anything else   joins an existing cluster (`ray start --head` prints its address,
                    e.g. "10.0.0.5:6379", or "auto" on a node of that cluster).

A Ray already started in this process (a test fixture, a notebook) is used, left running.

Joining a real cluster: every node needs the same gridjudge installed (same Python
version, `pip install gridjudge` or the same editable checkout at the same path): the
workers import `pipeline` and `solvers` from their own environment, and `fn` is shipped
by reference (module + name), not by value. Only the chunks and results travel. Pass
`runtime_env={"py_modules": [...]}` to Cluster to ship a checkout instead. The driver's
GRIDJUDGE_* environment variables (GRIDJUDGE_SANDBOX, GRIDJUDGE_CACHE...) are passed to
the workers through the job's runtime_env, so every node runs the same way. `ray start
--head` turns token authentication on by default: set RAY_AUTH_MODE (e.g. `disabled`,
or `token` with RAY_AUTH_TOKEN) identically on every node and on the machine running
`gridjudge`, or joining fails with an authentication error.

Failures: each chunk is a Ray task submitted with `max_retries`, so Ray re-runs it when
its worker process or node dies. If Ray gives up (retries exhausted, node lost while the
result was in flight), the chunk is resubmitted from here, up to `max_retries` more
times, with `current_attempt()` one higher inside the task. Each chunk yields exactly one
result (never counted twice); `fn`'s own exception is not retried: raised as ChunkFailed.
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from types import TracebackType
from typing import Any, Generic, TypeVar

from pipeline.distribute.ending import (
    joined_ray_ends_with_process,
    note_interrupted_ray,
    note_joined_ray_left,
)
from pipeline.distribute.private_session import private_token, ray_temp_dir
from pipeline.errors import GridjudgeError

T = TypeVar("T")
R = TypeVar("R")

SERIAL = "local-serial"
ENV_PREFIX = "GRIDJUDGE_"
LOCAL = "local"

# imports what chunks need at worker start-up, by name: workers import it themselves
WORKER_SETUP_HOOK = "pipeline.distribute.worker_setup.setup"

_attempt = 1
_node = ""
_node_id = ""


_WAITS_ON_NOTHING = "the chunks wait on a result with no chunk in flight"


class DistributeError(GridjudgeError):
    """The cluster cannot be reached or started; one line for the user."""


class ChunkFailed(GridjudgeError):
    """`fn` raised on a chunk (a bug, not a lost worker): not retried."""


def current_attempt() -> int:
    """Inside `fn`: 1 on the first submission of this chunk, 2 on the first resubmission..."""
    return _attempt


def current_node_id() -> str:
    """Inside `fn`: the Ray id of the node running it (see Cluster.node_id)."""
    return _node_id


def current_node() -> str:
    """Inside `fn`: a short name of the node running it (Ray node id prefix, or the host)."""
    if _node:
        return _node
    return socket.gethostname()


@dataclass
class _Call(Generic[T]):
    chunk: T
    attempt: int


def _run_chunk(fn: Callable[[Any], Any], chunk: Any, attempt: int) -> Any:
    """What a Ray task (or the serial loop) executes: `fn(chunk)` with the attempt known."""
    global _attempt, _node, _node_id
    _attempt = attempt
    try:
        _node_id = _this_node_id()
        _node = f"{socket.gethostname()}/{_node_id[:8]}" if _node_id else ""
    except Exception:  # pragma: no cover - never fail a chunk over a name
        _node, _node_id = "", ""
    return fn(chunk)


def _this_node_id() -> str:
    """The Ray id of the node this process runs on; "" when Ray is not running here."""
    ray = sys.modules.get("ray")  # serial mode never imports ray
    if ray is not None and ray.is_initialized():
        return str(ray.get_runtime_context().get_node_id())
    return ""


def worker_runtime_env(runtime_env: dict[str, Any] | None, env: dict[str, str]) -> dict[str, Any]:
    """The job's runtime_env: the driver's GRIDJUDGE_* settings (sandbox backend, build
    cache...) and `env` reach every worker, on every node, as environment variables; each
    worker process warms itself up as it starts (WORKER_SETUP_HOOK)."""
    merged = dict(runtime_env or {})
    merged.setdefault("worker_process_setup_hook", WORKER_SETUP_HOOK)
    env_vars = {k: v for k, v in os.environ.items() if k.startswith(ENV_PREFIX)}
    env_vars.update(env)
    env_vars.update(merged.get("env_vars") or {})
    if env_vars:
        merged["env_vars"] = env_vars
    return merged


def _check_reachable(address: str, timeout_s: float = 5.0) -> None:
    """A HOST:PORT that does not answer fails in seconds with one line (ray.init would
    retry for minutes)."""
    host, sep, port = address.rpartition(":")
    if not sep or not port.isdigit() or "/" in address:
        return  # "auto", "ray://...": left to Ray
    try:
        with socket.create_connection((host, int(port)), timeout=timeout_s):
            pass
    except OSError as exc:
        raise DistributeError(f"cannot reach a Ray cluster at {address}: {exc}") from None


class Cluster:
    """An embedded local Ray, a joined cluster, or the serial in-process executor."""

    def __init__(
        self,
        address: str | None = None,
        *,
        num_cpus: int | None = None,
        runtime_env: dict[str, Any] | None = None,
        env: dict[str, str] | None = None,
    ) -> None:
        if address is None:
            address = os.environ.get("RAY_ADDRESS") or None
        self.address = address
        self.serial = address == SERIAL
        self.num_cpus = num_cpus
        self.runtime_env = runtime_env
        self.env = env or {}
        self._owns_ray = False
        self._interrupted = False
        self._remote: Any = None

    # -- lifecycle ---------------------------------------------------------------------
    def __enter__(self) -> Cluster:
        if self.serial:
            return self
        import ray

        if self.address not in (None, LOCAL):
            _check_reachable(self.address)  # also when this process already runs Ray
        if not ray.is_initialized():
            # The embedded cluster turns Ray's token auth on by itself and
            # says so on every start: keep that, drop the notice.
            logging.getLogger("ray._private.authentication.authentication_token_setup").setLevel(
                logging.ERROR
            )
            kwargs: dict[str, Any] = {
                "include_dashboard": False,
                "logging_level": logging.WARNING,
                "configure_logging": True,
                # Workers' stdout/stderr stay in Ray's session logs: forwarded, Ray's
                # own messages there (absl's "RAW: Lock blocking" at worker teardown)
                # landed in grade's output. A chunk reports through its result.
                "log_to_driver": False,
            }
            runtime_env = worker_runtime_env(self.runtime_env, self.env)
            if runtime_env:
                kwargs["runtime_env"] = runtime_env
            if self.address in (None, LOCAL):
                kwargs["num_cpus"] = self.num_cpus or os.cpu_count() or 1
                # an explicit "local" must not be redirected by RAY_ADDRESS
                kwargs["address"] = "local"
                # its files and token its user's alone (private_session.py)
                kwargs["_temp_dir"] = str(ray_temp_dir())
                private_token()
            else:
                kwargs["address"] = self.address
            try:
                ray.init(**kwargs)
            except Exception as exc:  # Ray raises a bare Exception when its start times out
                with contextlib.suppress(Exception):
                    ray.shutdown()  # whatever of it did start
                where = self.address or "an embedded local cluster"
                msg = " ".join(str(exc).split())[:200]
                raise DistributeError(f"cannot start or join Ray at {where}: {msg}") from None
            self._owns_ray = True
        self._remote = ray.remote(_run_chunk)
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if isinstance(exc, KeyboardInterrupt):
            # Ctrl-C or SIGTERM: the process is ending. Neither chunks in flight are
            # cancelled nor Ray shut down: either, with tasks in flight, can trip a check
            # in Ray's core worker (a crash dump and exit 1, the caller's state unwritten).
            # Ray's processes end with this one (fate-sharing); see ending.py.
            self._interrupted = True
            if self._owns_ray:
                note_interrupted_ray()
                self._owns_ray = False
            return
        if self._owns_ray and joined_ray_ends_with_process() and self.address not in (None, LOCAL):
            # a command joined a cluster and is done: its process ends next, without
            # disconnecting from Ray first (ending.py)
            note_joined_ray_left()
            self._owns_ray = False
            return
        if self._owns_ray:
            import ray

            with contextlib.suppress(Exception):
                ray.shutdown()
            self._owns_ray = False

    # -- facts -------------------------------------------------------------------------
    def total_cpus(self) -> int:
        """CPUs of the whole cluster (1 in serial mode)."""
        if self.serial:
            return 1
        import ray

        return max(1, int(ray.cluster_resources().get("CPU", 1)))

    def node_id(self) -> str:
        """The Ray id of this (the driver's) node ("" without Ray). A chunk whose
        current_node_id() equals it runs on this machine and sees its files."""
        return _this_node_id()

    def gcs_address(self) -> str:
        """The address other processes pass as --address / RAY_ADDRESS to join this cluster."""
        if self.serial:
            return SERIAL
        import ray

        return str(ray.get_runtime_context().gcs_address)

    def describe(self) -> str:
        if self.serial:
            return "serial (in-process)"
        where = "embedded local Ray" if self._owns_ray and self.address in (None, LOCAL) else "Ray"
        if self.address not in (None, LOCAL):
            where = f"Ray cluster at {self.address}"
        return f"{where}, {self.total_cpus()} CPUs"

    # -- work --------------------------------------------------------------------------
    def map_unordered(
        self,
        fn: Callable[[T], R],
        chunks: Iterable[T | None],
        *,
        max_in_flight: int | None = None,
        max_retries: int = 3,
        num_cpus_per_task: float = 1,
    ) -> Iterator[tuple[T, R]]:
        """Run `fn(chunk)` for every chunk; yield (chunk, result) as each completes.

        `chunks` is consumed lazily: at most `max_in_flight` (default 2 x cluster CPUs)
        chunks are submitted at a time, so a huge corpus is never all in memory. `fn` must
        be importable (a module-level function) on every node. A None from `chunks` says
        "nothing until a result is in" (its next chunk depends on one): it is asked again
        after the next result; a None with nothing in flight is a DistributeError.
        """
        if self.serial:
            for chunk in chunks:
                if chunk is None:  # every result is in already: it would wait forever
                    raise DistributeError(_WAITS_ON_NOTHING)
                yield chunk, self._call_serial(fn, chunk)
            return
        if self._remote is None:
            raise DistributeError("Cluster.map_unordered outside `with Cluster(...)`")
        yield from self._map_ray(fn, chunks, max_in_flight, max_retries, num_cpus_per_task)

    def _call_serial(self, fn: Callable[[T], R], chunk: T) -> R:
        try:
            result: R = _run_chunk(fn, chunk, 1)
        except Exception as exc:
            raise ChunkFailed(f"a chunk failed: {type(exc).__name__}: {exc}") from exc
        return result

    def _map_ray(
        self,
        fn: Callable[[T], R],
        chunks: Iterable[T | None],
        max_in_flight: int | None,
        max_retries: int,
        num_cpus_per_task: float,
    ) -> Iterator[tuple[T, R]]:
        import ray

        limit = max_in_flight or 2 * self.total_cpus()
        remote = self._remote.options(
            max_retries=max_retries, retry_exceptions=False, num_cpus=num_cpus_per_task
        )
        fn_ref = ray.put(fn)
        in_flight: dict[Any, _Call[T]] = {}
        source = iter(chunks)
        exhausted = False

        def submit(call: _Call[T]) -> None:
            in_flight[remote.remote(fn_ref, call.chunk, call.attempt)] = call

        interrupted = False
        try:
            while True:
                while not exhausted and len(in_flight) < limit:
                    try:
                        chunk = next(source)
                    except StopIteration:
                        exhausted = True
                        break
                    if chunk is None:
                        if not in_flight:
                            raise DistributeError(_WAITS_ON_NOTHING)
                        break  # asked again after the next result
                    submit(_Call(chunk, 1))
                if not in_flight:
                    return
                ready, _ = ray.wait(list(in_flight), num_returns=1)
                for ref in ready:
                    call = in_flight.pop(ref)
                    done, result = _fetch(ref, call, max_retries)
                    if done:
                        yield call.chunk, result
                    else:
                        submit(_Call(call.chunk, call.attempt + 1))
        except KeyboardInterrupt:
            interrupted = True
            raise
        finally:
            # not after an interrupt (caught here, or at a yield: then this runs once the
            # caller left `with Cluster`, which noted it): see __exit__
            for ref in [] if interrupted or self._interrupted else in_flight:
                with contextlib.suppress(Exception):
                    ray.cancel(ref, force=True)


def _fetch(ref: Any, call: _Call[Any], max_retries: int) -> tuple[bool, Any]:
    """(True, result) of a finished chunk, or (False, None) for a chunk whose worker or node
    was lost and that may be resubmitted. Raises DistributeError when the chunk was lost
    more than `max_retries` times, ChunkFailed when `fn` itself raised."""
    import ray
    from ray import exceptions as rex

    lost_errors = (
        rex.WorkerCrashedError,
        rex.NodeDiedError,
        rex.ObjectLostError,
        rex.OwnerDiedError,
        rex.TaskCancelledError,
        rex.LocalRayletDiedError,
    )
    try:
        return True, ray.get(ref)
    except lost_errors as exc:
        if call.attempt > max_retries:
            msg = " ".join(str(exc).split())[:200]
            raise DistributeError(
                f"a chunk was lost {call.attempt} times; giving up: {msg}"
            ) from None
        return False, None
    except rex.RayTaskError as exc:
        cause = exc.cause if exc.cause is not None else exc
        raise ChunkFailed(f"a chunk failed: {type(cause).__name__}: {cause}") from cause
