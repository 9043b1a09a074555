"""The suite's command line: ``list``, ``ready``, ``reset`` and ``run NAME``.

The runner calls these as suite.json says; workloads/README.md describes the protocol.
stdout carries only ``list``'s JSON; everything for humans goes to stderr.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from time import monotonic

import cloudpickle
import dask
import distributed
from dask.utils import format_bytes

from . import cluster, instrumentation
from .environment import ConfigurationError, SuiteEnvironment
from .instrumentation import RunRecorder
from .metrics import metric_list, write_metrics_file
from .registry import Workload, WorkloadContext, load_workloads
from .sizing import DataSizing

SUITE_NAME = "dask"
PACKAGE_DIR = Path(__file__).resolve().parent

#: Exit code for a workload name the suite does not know.
EXIT_UNKNOWN_WORKLOAD = 2


def main(argv: Sequence[str]) -> int:
    args = _parser().parse_args(argv)
    # The scheduler never has the suite's code: whatever runs there (the observer
    # plugin, identity queries) travels by value.
    for module in (cluster, instrumentation):
        cloudpickle.register_pickle_by_value(module)
    if args.command == "list":
        return list_workloads()
    if args.command == "run":
        return run_workload(args.workload)
    try:
        if args.command == "ready":
            ready(args.timeout)
        else:
            reset(args.timeout)
    except Exception as error:  # the protocol wants one line, not a traceback
        first_line = (str(error).strip().splitlines() or [""])[0]
        print(f"{args.command}: {type(error).__name__}: {first_line}", file=sys.stderr)
        return 1
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="harness.py", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("list", help="print the suite's workloads as JSON")
    for name, purpose in (
        ("ready", "wait until NIGHTBENCH_WORKERS workers are registered, then warm them up"),
        ("reset", "restart all workers, wait for them and warm them up"),
    ):
        command = commands.add_parser(name, help=purpose)
        command.add_argument(
            "--timeout", type=float, help="seconds to wait (default: NIGHTBENCH_TIME_LIMIT)"
        )
    run = commands.add_parser("run", help="run one workload, write NIGHTBENCH_METRICS_FILE")
    run.add_argument("workload")
    return parser


def list_workloads() -> int:
    listing = {
        "suite": SUITE_NAME,
        "workloads": [
            {**workload.listing(), "metrics": metric_list()}
            for workload in load_workloads().values()
        ],
    }
    print(json.dumps(listing))
    return 0


def ready(timeout: float | None) -> None:
    env = SuiteEnvironment.from_environ()
    wait = env.wait_seconds(timeout)
    started = monotonic()
    with cluster.connect(env.scheduler_address, wait) as client:
        remaining = max(wait - (monotonic() - started), 0.0)
        workers = cluster.wait_for_workers(client, env.workers or 1, remaining)
        cluster.prepare_for_repeat(client, workers)


def reset(timeout: float | None) -> None:
    env = SuiteEnvironment.from_environ()
    wait = env.wait_seconds(timeout)
    with cluster.connect(env.scheduler_address, wait) as client:
        instrumentation.remove_leftover_observer(client)
        expected = env.workers or len(cluster.worker_identities(client))
        cluster.restart_workers(client, expected, wait)


def run_workload(name: str) -> int:
    workloads = load_workloads()
    workload = workloads.get(name)
    if workload is None:
        print(
            f"run: unknown workload {name!r}; known workloads: {', '.join(workloads)}",
            file=sys.stderr,
        )
        return EXIT_UNKNOWN_WORKLOAD
    env = SuiteEnvironment.from_environ()
    if env.metrics_file is None:
        raise ConfigurationError("NIGHTBENCH_METRICS_FILE is not set")
    with cluster.connect(env.scheduler_address, env.wait_seconds(None)) as client:
        scratch = env.workdir or Path(tempfile.mkdtemp(prefix="nightbench-dask-"))
        cluster.ship_suite_code(client, PACKAGE_DIR, scratch)
        workers = cluster.worker_identities(client)
        sizing = DataSizing.for_cluster(env, workers)
        context = WorkloadContext(name=name, client=client, sizing=sizing)
        context.log(
            f"starting on {len(workers)} workers, {format_bytes(sizing.total_memory)}"
            f" total memory, scale {sizing.scale:g}"
        )
        with RunRecorder(client, expected_workers=env.workers or len(workers)) as recorder:
            data = workload.run(context)
        measurements = recorder.measurements
        context.log(f"done in {measurements.info['workload_seconds']:.1f} s")
    write_metrics_file(
        env.metrics_file,
        measurements.metrics,
        measurements.disturbances,
        {**_run_info(workload, env, sizing), "data": data, **measurements.info},
        measurements.absent,
    )
    return 0


def _run_info(workload: Workload, env: SuiteEnvironment, sizing: DataSizing) -> dict:
    return {
        "workload": workload.name,
        "version": workload.version,
        "repeat": env.repeat,
        "scale": sizing.scale,
        "total_memory": sizing.total_memory,
        "total_threads": sizing.total_threads,
        "dask": dask.__version__,
        "distributed": distributed.__version__,
        "python": sys.version.split()[0],
    }
