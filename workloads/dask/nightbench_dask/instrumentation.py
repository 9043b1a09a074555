"""Measuring a workload run from inside Dask.

For the duration of a run, two kinds of observers are installed:

* on the scheduler, a ``RunObserver`` plugin counts tasks that finish and sums the
  ``startstops`` the workers report with each finished task (compute, transfer,
  disk-read, disk-write, deserialize, ...), and notes workers joining or leaving;
* on each worker, a ``WorkerProbe`` samples managed and unmanaged memory every
  ``sample_interval`` seconds and remembers where the worker's cumulative transfer
  log and spill counters stood, so that only the run's own traffic is counted.

Both are removed when the run ends, so nothing they count belongs to another run.
``RunRecorder`` orchestrates this around a workload; ``summarize`` turns what the
observers saw into the metrics, the disturbances and the run's info.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import takewhile
from pathlib import Path
from time import perf_counter, time
from typing import Any

import distributed
from dask.utils import key_split
from distributed import Client
from distributed.diagnostics.plugin import SchedulerPlugin
from distributed.spill import SpillBuffer
from tornado.ioloop import PeriodicCallback

from .cluster import worker_identities

OBSERVER_NAME = "nightbench-run-observer"
PROBE_NAME = "nightbench-probe"

#: How often each worker samples its memory; fine enough to catch short peaks,
#: coarse enough to cost nothing measurable.
SAMPLE_INTERVAL_SECONDS = 0.2

#: How many task prefixes the info's transfer breakdown lists.
TOP_PREFIXES = 10


class RunObserver(SchedulerPlugin):
    """Scheduler plugin: finished tasks, their startstops, and worker churn."""

    name = OBSERVER_NAME

    def __init__(self) -> None:
        self.tasks = 0
        self.seconds_by_action: dict[str, float] = {}
        self.worker_events: list[tuple[str, str]] = []

    def transition(self, key, start, finish, *args, startstops=None, **kwargs) -> None:
        # processing -> memory is the one transition that carries a task's
        # startstops (in the worker's task-finished message).
        if start != "processing" or finish != "memory":
            return
        self.tasks += 1
        for startstop in startstops or ():
            action = startstop["action"]
            seconds = startstop["stop"] - startstop["start"]
            self.seconds_by_action[action] = self.seconds_by_action.get(action, 0.0) + seconds

    def add_worker(self, scheduler, worker: str, **kwargs) -> None:
        self.worker_events.append(("joined", worker))

    def remove_worker(self, scheduler, worker: str, **kwargs) -> None:
        self.worker_events.append(("left", worker))

    def report(self) -> dict[str, Any]:
        return {
            "tasks": self.tasks,
            "seconds_by_action": dict(self.seconds_by_action),
            "worker_events": list(self.worker_events),
        }


def _install_observer(dask_scheduler) -> None:
    # A run that crashed may have left its observer behind; never count twice.
    dask_scheduler.plugins.pop(OBSERVER_NAME, None)
    dask_scheduler.add_plugin(RunObserver(), name=OBSERVER_NAME)


def _remove_observer(dask_scheduler) -> dict[str, Any] | None:
    observer = dask_scheduler.plugins.pop(OBSERVER_NAME, None)
    return observer.report() if observer is not None else None


def remove_leftover_observer(client: Client) -> None:
    """Remove the observer of a run that crashed before it could clean up."""
    client.run_on_scheduler(_remove_observer)


class WorkerProbe:
    """Lives on one worker during a run: memory samples and counter baselines.

    Memory is read like the scheduler's MemoryState does: managed = bytes of the
    keys held in RAM (sizeof), unmanaged = process RSS - managed. Sampling on the
    worker itself, rather than polling the scheduler, is not limited by the
    heartbeat interval (0.5 s to several seconds, depending on cluster size).
    """

    def __init__(self, worker, interval: float) -> None:
        self.worker = worker
        log = worker.transfer_incoming_log
        # The log is a bounded deque of dicts appended in order; remembering its last
        # entry (by identity) marks where this run's transfers begin.
        self.last_transfer_before = log[-1] if log else None
        self.spill_before = _spill_counters(worker)
        self.samples: list[tuple[float, int, int]] = []
        self.sample()
        self.callback = PeriodicCallback(self.sample, interval * 1000)
        self.callback.start()

    def sample(self) -> None:
        worker = self.worker
        spilled_in_memory = (
            worker.data.spilled_total.memory if isinstance(worker.data, SpillBuffer) else 0
        )
        managed = max(worker.state.nbytes - spilled_in_memory, 0)
        process = worker.monitor.get_process_memory()
        # scheduler_delay makes the timestamps comparable across workers' clocks.
        self.samples.append((time() + worker.scheduler_delay, managed, max(process - managed, 0)))

    def finish(self) -> dict[str, Any]:
        self.callback.stop()
        self.sample()
        log = self.worker.transfer_incoming_log
        transfers = list(
            takewhile(lambda entry: entry is not self.last_transfer_before, reversed(log))
        )
        spill_after = _spill_counters(self.worker)
        by_prefix: dict[str, int] = {}
        for entry in transfers:
            for key, nbytes in entry["keys"].items():
                prefix = key_split(key)
                by_prefix[prefix] = by_prefix.get(prefix, 0) + (nbytes or 0)
        return {
            "id": self.worker.id,
            "samples": self.samples,
            "transfer_bytes": sum(entry["total"] for entry in transfers),
            "transfer_bytes_by_prefix": by_prefix,
            "transfer_count": len(transfers),
            # If the log wrapped around, older transfers of this run are lost.
            "transfer_log_wrapped": self.last_transfer_before is not None
            and len(transfers) == len(log),
            "spill": None
            if spill_after is None or self.spill_before is None
            else {
                name: value - self.spill_before.get(name, 0)
                for name, value in spill_after.items()
            },
        }


def spill_counters_missing() -> str | None:
    """Why this distributed cannot report spilled bytes, or None when it can.

    ``SpillBuffer.get_metrics`` exists since distributed 2022.12.1 (2022-12-15): a
    backfill of older nights measures everything else and says so once per run.
    """
    if hasattr(SpillBuffer, "get_metrics"):
        return None
    # A checkout on PYTHONPATH reports the installed package's __version__: name its folder.
    where = Path(distributed.__file__).parent
    return f"distributed {distributed.__version__} in {where} has no SpillBuffer.get_metrics"


def _spill_counters(worker) -> dict[str, float] | None:
    """The SpillBuffer's cumulative counters (bytes/counts/seconds since start); None
    when this version of distributed cannot report them."""
    if not isinstance(worker.data, SpillBuffer):
        return {}
    if spill_counters_missing() is not None:
        return None
    return {k: v for k, v in worker.data.get_metrics().items() if k.endswith("_total")}


def _start_probe(interval: float, dask_worker) -> None:
    leftover = dask_worker.extensions.pop(PROBE_NAME, None)
    if leftover is not None:
        leftover.callback.stop()
    dask_worker.extensions[PROBE_NAME] = WorkerProbe(dask_worker, interval)


def _finish_probe(dask_worker) -> dict[str, Any] | None:
    probe = dask_worker.extensions.pop(PROBE_NAME, None)
    return probe.finish() if probe is not None else None


@dataclass
class RunMeasurements:
    """What a run reports: metric values, disturbances, free-form info."""

    metrics: dict[str, float]
    disturbances: list[str]
    info: dict[str, Any] = field(default_factory=dict)
    #: Metrics this version of the target cannot report, with why: absent, never 0.
    absent: dict[str, str] = field(default_factory=dict)


class RunRecorder:
    """Context manager that observes the cluster while a workload runs.

    On a clean exit, ``measurements`` holds the run's metrics. If the workload
    raises, the observers are still removed (best effort) and the error propagates.
    """

    def __init__(self, client: Client, expected_workers: int) -> None:
        self.client = client
        self.expected_workers = expected_workers
        self.measurements: RunMeasurements | None = None

    def __enter__(self) -> RunRecorder:
        self.started_with = worker_identities(self.client)
        self.client.run_on_scheduler(_install_observer)
        self.client.run(_start_probe, SAMPLE_INTERVAL_SECONDS)
        self.started = perf_counter()
        return self

    def __exit__(self, exc_type, exc, traceback) -> bool:
        elapsed = perf_counter() - self.started
        if exc_type is not None:
            try:
                self.client.run(_finish_probe, on_error="ignore")
                self.client.run_on_scheduler(_remove_observer)
            except Exception:  # the workload's own error is the one worth reporting
                pass
            return False
        probes = self.client.run(_finish_probe, on_error="return")
        observed = self.client.run_on_scheduler(_remove_observer)
        ended_with = worker_identities(self.client)
        self.measurements = summarize(
            observed=observed,
            probes=probes,
            started_with=self.started_with,
            ended_with=ended_with,
            expected_workers=self.expected_workers,
        )
        self.measurements.info["workload_seconds"] = round(elapsed, 3)
        return False


def summarize(
    observed: Mapping[str, Any] | None,
    probes: Mapping[str, Any],
    started_with: Mapping[str, Mapping[str, Any]],
    ended_with: Mapping[str, Mapping[str, Any]],
    expected_workers: int,
) -> RunMeasurements:
    """Metrics, disturbances and info from what the observers reported.

    * transfer_bytes: sum of ``total`` of the entries each worker appended to its
      ``transfer_incoming_log`` during the run (worker-to-worker fetches only);
    * spilled_bytes: growth of each SpillBuffer's ``disk_write_bytes_total``;
    * managed/unmanaged_memory_peak: ``cluster_peak`` of the workers' samples;
    * tasks and the *_seconds: the scheduler observer's counts and startstops sums.
    """
    disturbances = find_disturbances(
        started_with,
        ended_with,
        observed["worker_events"] if observed else (),
        expected_workers,
    )
    reports = {a: p for a, p in probes.items() if isinstance(p, dict)}
    missing = sorted(set(started_with) - set(reports))
    if observed is None:
        disturbances.append("the scheduler lost the run observer (scheduler restarted?)")
        observed = {"tasks": 0, "seconds_by_action": {}}
    seconds = observed["seconds_by_action"]
    spill_known = all(report["spill"] is not None for report in reports.values())
    spill = _sum_counters(report["spill"] for report in reports.values() if report["spill"] is not None)
    metrics = {
        "transfer_bytes": sum(r["transfer_bytes"] for r in reports.values()),
        "spilled_bytes": spill.get("disk_write_bytes_total", 0),
        "managed_memory_peak": cluster_peak(
            [(t, managed) for t, managed, _ in r["samples"]] for r in reports.values()
        ),
        "unmanaged_memory_peak": cluster_peak(
            [(t, unmanaged) for t, _, unmanaged in r["samples"]] for r in reports.values()
        ),
        "tasks": observed["tasks"],
        "compute_seconds": seconds.get("compute", 0.0),
        "transfer_seconds": seconds.get("transfer", 0.0),
        "disk_seconds": seconds.get("disk-read", 0.0) + seconds.get("disk-write", 0.0),
        "serialization_seconds": seconds.get("serialize", 0.0)
        + seconds.get("deserialize", 0.0),
    }
    absent = {}
    if not spill_known:
        absent["spilled_bytes"] = spill_counters_missing() or "a worker could not read its spill counters"
        del metrics["spilled_bytes"]
    metrics = {k: round(v, 6) if isinstance(v, float) else v for k, v in metrics.items()}
    info = {
        "startstops_seconds": {k: round(v, 6) for k, v in sorted(seconds.items())},
        "spill_counters": spill,
        "transfer_count": sum(r["transfer_count"] for r in reports.values()),
        # Which task prefixes the transferred bytes belong to, biggest first.
        "transfer_bytes_by_prefix": dict(
            sorted(
                _sum_counters(r["transfer_bytes_by_prefix"] for r in reports.values()).items(),
                key=lambda item: -item[1],
            )[:TOP_PREFIXES]
        ),
        "memory_samples": sum(len(r["samples"]) for r in reports.values()),
        "workers": sorted(ended_with),
    }
    if missing:
        info["workers_without_measurements"] = missing
    if any(r["transfer_log_wrapped"] for r in reports.values()):
        info["transfer_log_wrapped"] = True
    return RunMeasurements(metrics=metrics, disturbances=disturbances, info=info, absent=absent)


def cluster_peak(series_by_worker: Iterable[Sequence[tuple[float, int]]]) -> int:
    """Peak over time of the sum, across workers, of each one's latest reading.

    Sweeps all (time, value) readings in time order, so workers need not sample in
    lockstep; a worker counts from its first reading on.
    """
    readings = sorted(
        (t, worker, value)
        for worker, series in enumerate(series_by_worker)
        for t, value in series
    )
    latest: dict[int, int] = {}
    total = peak = 0
    for _, worker, value in readings:
        total += value - latest.get(worker, 0)
        latest[worker] = value
        peak = max(peak, total)
    return peak


def find_disturbances(
    started_with: Mapping[str, Mapping[str, Any]],
    ended_with: Mapping[str, Mapping[str, Any]],
    worker_events: Iterable[tuple[str, str]],
    expected_workers: int,
) -> list[str]:
    """One message per worker change between the run's start and end.

    Compares the worker processes at both ends (a restart shows as a new id/pid even
    at the same address), then adds joins and departures the scheduler saw in between
    for workers the comparison does not already explain (e.g. one that dropped out and
    reconnected).
    """
    messages: list[str] = []
    if len(started_with) < expected_workers:
        messages.append(
            f"only {len(started_with)} of {expected_workers} workers were up when the run started"
        )
    explained: set[str] = set()

    def label(address: str) -> str:
        known = started_with.get(address) or ended_with.get(address)
        return f"worker {address} ({known['name']})" if known else f"worker {address}"

    for address, before in started_with.items():
        after = ended_with.get(address)
        if after is None:
            message = f"{label(address)} left during the run"
        elif (after["id"], after["pid"]) != (before["id"], before["pid"]):
            message = (
                f"{label(address)} restarted during the run "
                f"(pid {before['pid']} -> {after['pid']})"
            )
        else:
            continue
        messages.append(message)
        explained.add(address)
    for address in ended_with.keys() - started_with.keys():
        messages.append(f"{label(address)} joined during the run")
        explained.add(address)
    for event, address in worker_events:
        message = f"{label(address)} {event} during the run"
        if address not in explained and message not in messages:
            messages.append(message)
    return messages


def _sum_counters(counters: Iterable[Mapping[str, float]]) -> dict[str, float]:
    total: dict[str, float] = {}
    for counter in counters:
        for name, value in counter.items():
            total[name] = total.get(name, 0) + value
    return {k: round(v, 6) if isinstance(v, float) else v for k, v in sorted(total.items())}
