"""Moves N bytes from worker-1 to worker-2 through the cluster and prints how long it took.

Run in the client's namespace; only an int comes back to the client, so the bytes cross exactly
the two workers' links.
"""

import json
import os
import sys
import time

import numpy as np
from distributed import Client, wait


def make(n):
    # Random bytes: Dask compresses what it sends, and a constant array would shrink to nothing.
    return np.frombuffer(os.urandom(n), dtype="u1")


def total(a):
    return int(a.sum())


n = int(sys.argv[1])
with Client(os.environ["NIGHTBENCH_SCHEDULER_ADDRESS"], timeout=30) as client:
    client.wait_for_workers(2, timeout=30)
    by_name = {w["name"]: address for address, w in client.scheduler_info()["workers"].items()}
    source = client.submit(make, n, workers=[by_name["worker-1"]], pure=False)
    wait(source)
    started = time.perf_counter()
    moved = client.submit(total, source, workers=[by_name["worker-2"]], allow_other_workers=False, pure=False)
    assert moved.result() > 0
    print(json.dumps({"seconds": time.perf_counter() - started}))
