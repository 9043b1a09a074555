"""End-to-end test of the suite's protocol on a real local cluster (about a minute).

Starts a scheduler and two 1 GiB workers from suite.json's command lines, then
checks list, ready, reset and run the way the runner uses them, at scale 0.05.

Run with: /usr/bin/python3 -m unittest discover -s workloads/dask/tests
"""

import json
import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from suite_cluster import SUITE, SuiteCluster, harness  # noqa: E402


def run_command(workload: str) -> list[str]:
    return [part.replace("{workload}", workload) for part in SUITE["run"]]


class ProtocolTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.cluster = SuiteCluster(workers=2, threads=1, memory_limit=2**30)
        cls.cluster.start()
        cls.env = cls.cluster.environment(scale=0.05, time_limit=120)
        ready = harness(SUITE["ready"], cls.env)
        if ready.returncode:
            cls.cluster.stop()
            raise RuntimeError(f"ready failed: {ready.stderr}")

    @classmethod
    def tearDownClass(cls):
        cls.cluster.stop()

    def run_workload(self, name: str) -> dict:
        reset = harness(SUITE["reset"], self.env)
        self.assertEqual(reset.returncode, 0, reset.stderr)
        run = harness(run_command(name), self.env)
        self.assertEqual(run.returncode, 0, run.stderr[-3000:])
        self.assertEqual(run.stdout, "")
        return json.loads(Path(self.env["NIGHTBENCH_METRICS_FILE"]).read_text())

    def test_list(self):
        listing = harness(SUITE["list"], {})
        self.assertEqual(listing.returncode, 0, listing.stderr)
        document = json.loads(listing.stdout)
        self.assertEqual(document["suite"], "dask")
        names = {w["name"] for w in document["workloads"]}
        self.assertGreaterEqual(len(names), 10)
        for workload in document["workloads"]:
            self.assertEqual(set(workload), {"name", "description", "version", "tags", "metrics"})
            for metric in workload["metrics"]:
                self.assertEqual(set(metric), {"name", "unit", "direction"})

    def test_run_reports_metrics_from_dask(self):
        result = self.run_workload("join")
        metrics = {name: entry["value"] for name, entry in result["metrics"].items()}
        self.assertGreater(metrics["transfer_bytes"], 0)
        self.assertGreater(metrics["tasks"], 0)
        self.assertGreater(metrics["compute_seconds"], 0)
        self.assertGreater(metrics["managed_memory_peak"], 0)
        self.assertGreater(metrics["unmanaged_memory_peak"], 0)
        self.assertEqual(result["disturbances"], [])
        self.assertEqual(result["metrics"]["transfer_bytes"]["unit"], "bytes")

    def test_spill_workload_spills_at_small_scale(self):
        result = self.run_workload("spill")
        self.assertGreater(result["metrics"]["spilled_bytes"]["value"], 0)
        self.assertGreater(result["metrics"]["disk_seconds"]["value"], 0)

    def test_unknown_workload_exits_2_naming_the_known_ones(self):
        run = harness(run_command("no_such_workload"), self.env)
        self.assertEqual(run.returncode, 2)
        self.assertIn("array_reduction", run.stderr)
        self.assertEqual(len(run.stderr.strip().splitlines()), 1)

    def test_ready_fails_in_one_line_when_workers_are_missing(self):
        ready = harness(SUITE["ready"] + ["--timeout", "2"], {**self.env, "NIGHTBENCH_WORKERS": "3"})
        self.assertNotEqual(ready.returncode, 0)
        self.assertIn("2 of 3 workers", ready.stderr)
        self.assertEqual(len(ready.stderr.strip().splitlines()), 1)


if __name__ == "__main__":
    unittest.main()
