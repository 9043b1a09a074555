"""Start and stop a local cluster exactly as suite.json describes it, like the runner.

Used by the protocol test, and by hand to run the suite end to end:

    /usr/bin/python3 workloads/dask/tests/suite_cluster.py --memory 1GiB --scale 0.05 [NAME ...]

starts a scheduler and workers, runs ``ready``, then ``reset`` + ``run`` for each
workload (default: all), prints one JSON line of results per workload, and stops
every process it started (worker process groups included).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import psutil
from dask.utils import parse_bytes

SUITE_DIR = Path(__file__).resolve().parent.parent
SUITE = json.loads((SUITE_DIR / "suite.json").read_text())

#: A nanny asked to stop gives its worker a few seconds before killing it.
STOP_GRACE_SECONDS = 15


def substitute(command: list[str], values: dict[str, str]) -> list[str]:
    """suite.json's {placeholders} replaced, as the runner does."""
    return [part.format(**values) for part in command]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@dataclass
class SuiteCluster:
    """A scheduler and ``workers`` workers started from suite.json's command lines."""

    workers: int = 2
    threads: int = 1
    memory_limit: int = 2**30
    host: str = "127.0.0.1"
    workdir: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="nightbench-cluster-")))
    processes: list[subprocess.Popen] = field(default_factory=list)

    def start(self) -> None:
        port = free_port()
        values = {
            "python": SUITE["python"],
            "suite_dir": str(SUITE_DIR),
            "host": self.host,
            "port": str(port),
        }
        self.scheduler_address = SUITE["processes"]["scheduler"]["address"].format(**values)
        self._spawn("scheduler", substitute(SUITE["processes"]["scheduler"]["command"], values))
        for index in range(self.workers):
            worker_dir = self.workdir / f"worker-{index}"
            worker_dir.mkdir(parents=True, exist_ok=True)
            worker_values = {
                **values,
                "scheduler_address": self.scheduler_address,
                "threads": str(self.threads),
                "memory_limit": str(self.memory_limit),
                "workdir": str(worker_dir),
                "name": f"worker-{index}",
            }
            self._spawn(
                f"worker-{index}",
                substitute(SUITE["processes"]["worker"]["command"], worker_values),
            )

    def _spawn(self, name: str, command: list[str]) -> None:
        with open(self.workdir / f"{name}.log", "wb") as log:
            # Own process group, so that stopping it also reaches the nanny's worker.
            self.processes.append(
                subprocess.Popen(
                    command, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
                )
            )

    def environment(self, scale: float = 0.05, time_limit: float = 120) -> dict[str, str]:
        """The NIGHTBENCH_* variables the runner would pass to suite commands."""
        return {
            "NIGHTBENCH_SCHEDULER_ADDRESS": self.scheduler_address,
            "NIGHTBENCH_WORKERS": str(self.workers),
            "NIGHTBENCH_THREADS_PER_WORKER": str(self.threads),
            "NIGHTBENCH_MEMORY_PER_WORKER": str(self.memory_limit),
            "NIGHTBENCH_TOTAL_MEMORY": str(self.memory_limit * self.workers),
            "NIGHTBENCH_SCALE": str(scale),
            "NIGHTBENCH_TIME_LIMIT": str(time_limit),
            "NIGHTBENCH_WORKDIR": str(self.workdir / "scratch"),
            "NIGHTBENCH_METRICS_FILE": str(self.workdir / "metrics.json"),
            "NIGHTBENCH_REPEAT": "1",
        }

    def cpu_seconds(self) -> dict[int, float]:
        """CPU seconds used so far by each live process of the cluster (nannies'
        worker processes included), by pid."""
        used = {}
        for process in psutil.process_iter(["pid"]):
            try:
                if os.getpgid(process.pid) in {p.pid for p in self.processes}:
                    times = process.cpu_times()
                    used[process.pid] = times.user + times.system
            except (ProcessLookupError, psutil.Error):
                pass
        return used

    def stop(self) -> None:
        """Stop workers first (they would otherwise wait for a vanished scheduler),
        then the scheduler, then SIGKILL whatever is left in their process groups;
        then remove the work folder, logs included."""
        scheduler, *workers = self.processes
        for group in (workers, [scheduler]):
            for process in group:
                _signal_group(process, signal.SIGTERM)
            deadline = time.monotonic() + STOP_GRACE_SECONDS
            for process in group:
                try:
                    process.wait(timeout=max(deadline - time.monotonic(), 0.1))
                except subprocess.TimeoutExpired:
                    pass
        for process in self.processes:
            _signal_group(process, signal.SIGKILL)
            process.wait()
        self.processes.clear()
        shutil.rmtree(self.workdir, ignore_errors=True)


def _children_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _signal_group(process: subprocess.Popen, signum: int) -> None:
    try:
        os.killpg(process.pid, signum)
    except ProcessLookupError:
        pass


def harness(command: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    """Run a suite command (list/ready/reset/run) as the runner would."""
    values = {"python": SUITE["python"], "suite_dir": str(SUITE_DIR)}
    return subprocess.run(
        substitute(command, values), env={**os.environ, **env}, capture_output=True, text=True
    )


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("workloads", nargs="*", help="default: all")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--memory", default="1GiB", help="memory limit per worker")
    parser.add_argument("--scale", type=float, default=0.05)
    args = parser.parse_args()
    names = args.workloads or [
        w["name"] for w in json.loads(harness(SUITE["list"], {}).stdout)["workloads"]
    ]
    cluster = SuiteCluster(
        workers=args.workers, threads=args.threads, memory_limit=parse_bytes(args.memory)
    )
    failures = 0
    # A plain SIGTERM (e.g. from `timeout`) must still stop the cluster below.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(128 + signal.SIGTERM))
    cluster.start()
    try:
        env = cluster.environment(scale=args.scale, time_limit=300)
        ready = harness(SUITE["ready"], env)
        if ready.returncode:
            print(f"ready failed: {ready.stderr.strip()}", file=sys.stderr)
            return 1
        for name in names:
            started = time.monotonic()
            reset = harness(SUITE["reset"], env)
            reset_seconds = time.monotonic() - started
            started = time.monotonic()
            cluster_cpu_before = cluster.cpu_seconds()
            harness_cpu_before = _children_cpu_seconds()
            run = harness([p.replace("{workload}", name) for p in SUITE["run"]], env)
            run_seconds = time.monotonic() - started
            # CPU time hardly depends on what else the machine runs; wall time does.
            cluster_cpu = cluster.cpu_seconds()
            cpu_seconds = _children_cpu_seconds() - harness_cpu_before + sum(
                used - cluster_cpu_before.get(pid, 0.0) for pid, used in cluster_cpu.items()
            )
            if reset.returncode or run.returncode:
                failures += 1
                print(f"{name}: FAILED (reset {reset.returncode}, run {run.returncode})")
                print((reset.stderr + run.stderr)[-3000:])
                continue
            result = json.loads(Path(env["NIGHTBENCH_METRICS_FILE"]).read_text())
            metrics = {k: v["value"] for k, v in result["metrics"].items()}
            print(json.dumps({
                "workload": name, "reset_seconds": round(reset_seconds, 2),
                "run_seconds": round(run_seconds, 2), "cpu_seconds": round(cpu_seconds, 2),
                "workload_seconds": result["info"]["workload_seconds"],
                "metrics": metrics, "disturbances": result["disturbances"],
                "data": result["info"]["data"],
            }), flush=True)
    finally:
        cluster.stop()
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
