"""Unit tests of the suite's pure helpers (no cluster needed).

Run with: /usr/bin/python3 -m unittest discover -s workloads/dask/tests
"""

import math
import sys
import unittest
from contextlib import contextmanager
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from nightbench_dask.environment import ConfigurationError, SuiteEnvironment  # noqa: E402
import distributed  # noqa: E402
from distributed.spill import SpillBuffer  # noqa: E402
from nightbench_dask.instrumentation import cluster_peak, find_disturbances, summarize  # noqa: E402
from nightbench_dask.registry import load_workloads  # noqa: E402


@contextmanager
def without_attribute(owner, name):
    """A past version of the target: ``owner.name`` removed for the block."""
    saved = getattr(owner, name)
    delattr(owner, name)
    try:
        yield
    finally:
        setattr(owner, name, saved)
from nightbench_dask.sizing import (  # noqa: E402
    GIB,
    MIN_CHUNKS_PER_THREAD,
    TARGET_CHUNK_BYTES,
    DataSizing,
    split_evenly,
)

ENV = {
    "NIGHTBENCH_SCHEDULER_ADDRESS": "tcp://127.0.0.1:8786",
    "NIGHTBENCH_WORKERS": "2",
    "NIGHTBENCH_THREADS_PER_WORKER": "1",
    "NIGHTBENCH_MEMORY_PER_WORKER": str(2 * GIB),
    "NIGHTBENCH_TOTAL_MEMORY": str(4 * GIB),
    "NIGHTBENCH_SCALE": "0.5",
}


class EnvironmentTest(unittest.TestCase):
    def test_reads_runner_variables(self):
        env = SuiteEnvironment.from_environ(ENV)
        self.assertEqual(env.workers, 2)
        self.assertEqual(env.total_memory, 4 * GIB)
        self.assertEqual(env.scale, 0.5)
        self.assertEqual(env.repeat, 1)

    def test_scale_defaults_to_one(self):
        env = SuiteEnvironment.from_environ({"NIGHTBENCH_SCHEDULER_ADDRESS": "tcp://x:1"})
        self.assertEqual(env.scale, 1.0)
        self.assertIsNone(env.total_memory)

    def test_rejects_missing_address_and_bad_numbers(self):
        with self.assertRaises(ConfigurationError):
            SuiteEnvironment.from_environ({})
        with self.assertRaises(ConfigurationError):
            SuiteEnvironment.from_environ({**ENV, "NIGHTBENCH_SCALE": "big"})

    def test_wait_seconds_prefers_timeout_then_time_limit(self):
        env = SuiteEnvironment.from_environ({**ENV, "NIGHTBENCH_TIME_LIMIT": "90"})
        self.assertEqual(env.wait_seconds(5), 5)
        self.assertEqual(env.wait_seconds(None), 90)


class SizingTest(unittest.TestCase):
    def setUp(self):
        self.sizing = DataSizing.for_cluster(SuiteEnvironment.from_environ(ENV), {})

    def test_data_scales_with_memory_fraction_and_scale(self):
        self.assertEqual(self.sizing.data_bytes(0.25), GIB // 2)
        bigger = DataSizing(total_memory=8 * GIB, total_threads=2, scale=0.5)
        self.assertEqual(bigger.data_bytes(0.25), 2 * self.sizing.data_bytes(0.25))

    def test_cluster_fills_in_what_the_environment_lacks(self):
        env = SuiteEnvironment.from_environ({"NIGHTBENCH_SCHEDULER_ADDRESS": "tcp://x:1"})
        workers = {
            "tcp://a:1": {"memory_limit": GIB, "nthreads": 2},
            "tcp://b:1": {"memory_limit": GIB, "nthreads": 2},
        }
        sizing = DataSizing.for_cluster(env, workers)
        self.assertEqual((sizing.total_memory, sizing.total_threads), (2 * GIB, 4))

    def test_chunk_count_keeps_every_thread_busy_on_tiny_data(self):
        self.assertEqual(self.sizing.chunk_count(1000), MIN_CHUNKS_PER_THREAD * 2)
        self.assertEqual(self.sizing.chunk_count(100 * TARGET_CHUNK_BYTES), 100)

    def test_square_array_helpers(self):
        side = self.sizing.square_side(8 * 1000 * 1000)
        self.assertEqual(side, 1000)
        block = self.sizing.square_chunk_side(side)
        blocks = math.ceil(side / block) ** 2
        self.assertGreaterEqual(blocks, self.sizing.chunk_count(side * side * 8))

    def test_item_count_scales_per_gib(self):
        self.assertEqual(self.sizing.item_count(1000), 2000)  # 4 GiB at scale 0.5
        self.assertEqual(DataSizing(GIB, 1, 0.001).item_count(1000, minimum=10), 10)

    def test_split_evenly(self):
        self.assertEqual(split_evenly(10, 3), [4, 3, 3])
        self.assertEqual(sum(split_evenly(1_000_003, 7)), 1_000_003)


class ClusterPeakTest(unittest.TestCase):
    def test_sums_latest_readings_across_workers(self):
        a = [(0.0, 10), (1.0, 50), (2.0, 10)]
        b = [(0.5, 20), (1.5, 30)]
        # At t=1.5: a=50, b=30.
        self.assertEqual(cluster_peak([a, b]), 80)

    def test_no_samples(self):
        self.assertEqual(cluster_peak([]), 0)


WORKER = {"id": "Worker-1", "pid": 100, "name": "worker-0"}


class DisturbanceTest(unittest.TestCase):
    def test_quiet_run(self):
        workers = {"tcp://a:1": WORKER}
        self.assertEqual(find_disturbances(workers, workers, [], 1), [])

    def test_left_joined_restarted_and_transient(self):
        before = {"tcp://a:1": WORKER, "tcp://b:1": {**WORKER, "id": "Worker-2", "name": "worker-1"}}
        after = {
            "tcp://a:1": {**WORKER, "id": "Worker-3", "pid": 101},
            "tcp://c:1": {**WORKER, "id": "Worker-4", "name": "worker-2"},
        }
        events = [("left", "tcp://a:1"), ("joined", "tcp://a:1"), ("left", "tcp://d:1")]
        messages = find_disturbances(before, after, events, 2)
        self.assertEqual(
            messages,
            [
                "worker tcp://a:1 (worker-0) restarted during the run (pid 100 -> 101)",
                "worker tcp://b:1 (worker-1) left during the run",
                "worker tcp://c:1 (worker-2) joined during the run",
                "worker tcp://d:1 left during the run",
            ],
        )

    def test_too_few_workers_at_start(self):
        workers = {"tcp://a:1": WORKER}
        self.assertIn("only 1 of 2 workers", find_disturbances(workers, workers, [], 2)[0])


class SummarizeTest(unittest.TestCase):
    def test_metrics_from_observer_and_probes(self):
        workers = {"tcp://a:1": WORKER}
        observed = {
            "tasks": 3,
            "seconds_by_action": {"compute": 1.5, "transfer": 0.25, "disk-read": 0.1,
                                  "disk-write": 0.2, "deserialize": 0.05},
            "worker_events": [],
        }
        probes = {
            "tcp://a:1": {
                "id": "Worker-1",
                "samples": [(0.0, 100, 1000), (1.0, 300, 900)],
                "transfer_bytes": 4096,
                "transfer_bytes_by_prefix": {"getitem": 4000, "sum": 96},
                "transfer_count": 2,
                "transfer_log_wrapped": False,
                "spill": {"disk_write_bytes_total": 512, "disk_write_count_total": 1},
            }
        }
        result = summarize(observed, probes, workers, workers, 1)
        self.assertEqual(result.disturbances, [])
        self.assertEqual(result.metrics["transfer_bytes"], 4096)
        self.assertEqual(result.metrics["spilled_bytes"], 512)
        self.assertEqual(result.metrics["managed_memory_peak"], 300)
        self.assertEqual(result.metrics["unmanaged_memory_peak"], 1000)
        self.assertEqual(result.metrics["tasks"], 3)
        self.assertAlmostEqual(result.metrics["disk_seconds"], 0.3)
        self.assertAlmostEqual(result.metrics["serialization_seconds"], 0.05)
        self.assertEqual(list(result.info["transfer_bytes_by_prefix"]), ["getitem", "sum"])
        self.assertEqual(result.absent, {})

    def test_spilled_bytes_absent_when_distributed_cannot_report_them(self):
        workers = {"tcp://a:1": WORKER}
        observed = {"tasks": 1, "seconds_by_action": {"compute": 1.0}, "worker_events": []}
        probe = {"id": "Worker-1", "samples": [(0.0, 1, 2)], "transfer_bytes": 0,
                 "transfer_bytes_by_prefix": {}, "transfer_count": 0,
                 "transfer_log_wrapped": False, "spill": None}
        with without_attribute(SpillBuffer, "get_metrics"):
            result = summarize(observed, {"tcp://a:1": probe}, workers, workers, 1)
        self.assertNotIn("spilled_bytes", result.metrics)
        self.assertEqual(result.metrics["tasks"], 1)
        self.assertEqual(
            result.absent,
            {"spilled_bytes": f"distributed {distributed.__version__} in {Path(distributed.__file__).parent} has no SpillBuffer.get_metrics"},
        )


class RegistryTest(unittest.TestCase):
    def test_every_workload_is_complete(self):
        workloads = load_workloads()
        self.assertGreaterEqual(len(workloads), 10)
        for workload in workloads.values():
            self.assertTrue(workload.description and workload.tags, workload.name)
            self.assertEqual(len(workload.version), 16)
            self.assertIsNone(workload.unsupported, workload.name)

    def test_a_workload_whose_import_is_missing_is_listed_unsupported(self):
        with mock.patch.dict(sys.modules), without_attribute(distributed, "as_completed"):
            sys.modules.pop("nightbench_dask.workloads.futures", None)
            workloads = load_workloads()
        futures = workloads["futures"]
        self.assertIn("as_completed", futures.unsupported)
        self.assertEqual(futures.listing()["unsupported"], futures.unsupported)
        self.assertEqual(len(futures.version), 16)
        self.assertIsNone(workloads["shuffle"].unsupported)
        with self.assertRaisesRegex(RuntimeError, "cannot run with this version"):
            futures.run(None)


if __name__ == "__main__":
    unittest.main()


class CanaryTest(unittest.TestCase):
    def test_does_the_same_work_every_time_without_dask(self):
        from nightbench_dask.workloads import canary

        first = canary.cpu_and_memory_loop(7)
        second = canary.cpu_and_memory_loop(7)
        self.assertEqual(first[:2], second[:2])
        self.assertGreater(first[2], 0)
        # Its work is fixed: no sizing, no scale, no Dask call inside the loop.
        self.assertNotIn("dask", canary.cpu_and_memory_loop.__code__.co_names)
        self.assertIn("canary", load_workloads())
