"""Talking to the runner's cluster: connecting, waiting for workers, restarting them."""

from __future__ import annotations

import importlib
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from time import monotonic, sleep
from typing import Any

import dask
from dask.utils import parse_bytes
from distributed import Client
from distributed.diagnostics.plugin import UploadFile
from distributed.spill import SpillBuffer

SUITE_CODE_PLUGIN = "nightbench-suite-code"

#: Worker states that count as "up" when waiting; a paused worker is alive and will
#: resume on its own, a closing one is on its way out.
_UP = frozenset({"running", "paused"})

_POLL_SECONDS = 0.2


class ClusterNotReady(Exception):
    """The cluster did not reach the expected shape in time (a one-line message)."""


def connect(address: str, timeout: float) -> Client:
    """A client of the runner's scheduler; raises OSError after ``timeout`` seconds."""
    return Client(address, timeout=timeout, set_as_default=True)


def ship_suite_code(client: Client, package: Path, scratch: Path) -> None:
    """Make the suite's package importable on every worker, now and after restarts.

    Tasks refer to workload functions by module name, and the workers need not have
    the suite on their path (they may even run on other hosts). The package is
    zipped and registered as an UploadFile worker plugin under a fixed name, so each
    run replaces the previous archive and workers that restart get it again.
    """
    archive = scratch / "nightbench_dask_suite.zip"
    scratch.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(archive, "w", compression=zipfile.ZIP_DEFLATED) as bundle:
        for source in sorted(package.rglob("*.py")):
            bundle.write(source, source.relative_to(package.parent))
    client.register_worker_plugin(UploadFile(str(archive)), name=SUITE_CODE_PLUGIN)


def worker_identities(client: Client) -> dict[str, dict[str, Any]]:
    """Each worker's address mapped to what tells one worker process from another.

    ``id`` (Worker.id, a fresh uuid per process) and ``pid`` change when a worker
    restarts even if it gets its old address back, which is how the harness notices
    restarts. Asked of the scheduler directly because ``Client.scheduler_info`` is a
    cache refreshed only every few seconds.
    """
    return client.run_on_scheduler(_identities_on_scheduler)


def _identities_on_scheduler(dask_scheduler) -> dict[str, dict[str, Any]]:
    return {
        address: {
            "id": ws.server_id,
            "pid": ws.pid,
            "name": str(ws.name),
            "status": ws.status.name,
            "nthreads": ws.nthreads,
            "memory_limit": ws.memory_limit,
        }
        for address, ws in dask_scheduler.workers.items()
    }


def wait_for_workers(
    client: Client,
    count: int,
    timeout: float,
    exclude_ids: frozenset[str] = frozenset(),
) -> dict[str, dict[str, Any]]:
    """Wait until ``count`` workers are up, ignoring processes in ``exclude_ids``.

    Returns the identities of the workers that are up; raises ClusterNotReady.
    """
    deadline = monotonic() + timeout
    while True:
        up = {
            address: worker
            for address, worker in worker_identities(client).items()
            if worker["status"] in _UP and worker["id"] not in exclude_ids
        }
        if len(up) >= count:
            return up
        if monotonic() >= deadline:
            fresh = "fresh " if exclude_ids else ""
            raise ClusterNotReady(
                f"{len(up)} of {count} {fresh}workers up at "
                f"{client.scheduler.address} after {timeout:g} s"
            )
        sleep(_POLL_SECONDS)


#: Imported by every fresh worker, and by the scheduler, before a repeat starts.
WARM_MODULES = ("numpy", "pandas", "dask.array", "dask.dataframe")


def restart_workers(client: Client, count: int, timeout: float) -> dict[str, dict[str, Any]]:
    """Restart every worker through its nanny, wait for ``count`` new processes and
    bring the cluster to the state every repeat starts from (``prepare_for_repeat``).

    Waits on its own rather than with ``Client.restart(wait_for_workers=True)``:
    that one waits only for as many workers as were there before (too few if one
    had died) and may count an old worker the scheduler has not yet removed.
    """
    started = monotonic()
    old_ids = frozenset(w["id"] for w in worker_identities(client).values())
    client.restart(timeout=timeout, wait_for_workers=False)
    remaining = max(timeout - (monotonic() - started), _POLL_SECONDS)
    workers = wait_for_workers(client, count, remaining, exclude_ids=old_ids)
    prepare_for_repeat(client, workers)
    return workers


def prepare_for_repeat(client: Client, workers: dict[str, dict[str, Any]]) -> None:
    """Make a cluster that just started (``ready``) and one whose workers were just
    restarted (``reset``) alike, so that the first repeat runs on what later ones do.

    * Every worker imports the libraries the workloads use. Without this, a fresh
      worker's first tasks spend a second or more of CPU importing pandas and dask
      while they "deserialize": after ``ready`` that landed inside repeat 1, after
      ``reset`` outside the repeat.
    * The scheduler imports them too: it unpacks array and dataframe graph layers,
      and a fresh scheduler paid that import inside repeat 1 only.
    * The scheduler forgets the task durations and the bandwidth it learned from
      earlier repeats, so that every repeat is scheduled from the same knowledge as
      the first (unknown durations, the configured bandwidth), not from the previous
      repeat's averages.
    """
    client.run(_import_modules, WARM_MODULES, workers=list(workers))
    client.run_on_scheduler(_prepare_scheduler, WARM_MODULES)


def _import_modules(names: tuple[str, ...]) -> None:
    for name in names:
        importlib.import_module(name)


def _prepare_scheduler(names: tuple[str, ...], dask_scheduler) -> None:
    _import_modules(names)
    # Only between runs: a prefix of a live task is still in use.
    if not dask_scheduler.tasks:
        dask_scheduler.task_prefixes.clear()
        dask_scheduler.unknown_durations.clear()
    dask_scheduler.bandwidth = parse_bytes(dask.config.get("distributed.scheduler.bandwidth"))
    dask_scheduler.bandwidth_workers.clear()
    dask_scheduler.bandwidth_types.clear()


@contextmanager
def scaled_spill_target(client: Client, factor: float) -> Iterator[None]:
    """Scale each worker's spill target (managed bytes kept in RAM) by ``factor``.

    A spill workload must hold more data than the workers keep in memory at every
    NIGHTBENCH_SCALE; when the data is scaled down, the threshold is scaled with it.
    Restored afterwards (``reset`` restarts the workers anyway).
    """
    if factor >= 1:
        yield
        return
    client.run(_set_spill_target, factor)
    try:
        yield
    finally:
        client.run(_set_spill_target, 1.0)


def _set_spill_target(factor: float, dask_worker) -> None:
    """Set the worker's SpillBuffer target to ``factor`` times its configured one."""
    buffer = dask_worker.data
    manager = dask_worker.memory_manager
    if not isinstance(buffer, SpillBuffer) or not manager.memory_target_fraction:
        raise RuntimeError(
            f"worker {dask_worker.address} does not spill by target "
            "(distributed.worker.memory.target is off)"
        )
    target = int(manager.memory_limit * manager.memory_target_fraction * factor)
    # zict.Buffer checks its own n for new keys; its LRU evicts on its own n.
    buffer.n = target
    buffer.fast.n = target
