"""The canary: a small fixed CPU and memory loop that does not use the target.

One task per worker runs a pure-Python loop (the interpreter's speed) and numpy passes
over a fixed 32 MiB array (memory bandwidth), the same work whatever the cluster's size
or the scale. Nothing in it calls Dask: its ``compute_seconds`` (the time inside its
tasks) changes only when the machine does. nightbench reads it as the machine's speed on
the night (src/detect/machine-night.ts) and never files an issue for it.
"""

import time

import numpy as np
from distributed import wait

#: Fixed, independent of cluster memory and scale: the same work every night.
PYTHON_ITERATIONS = 1_500_000
ARRAY_BYTES = 32 * 2**20
NUMPY_PASSES = 12
DESCRIPTION = f"a fixed pure-Python loop and {NUMPY_PASSES} numpy passes over {ARRAY_BYTES // 2**20} MiB on every worker (no Dask inside): the machine's speed"
TAGS = ("canary", "machine")


def cpu_and_memory_loop(seed):
    """The canary's work; returns a checksum (so nothing is optimised away) and its own seconds."""
    started = time.perf_counter()
    total = 0
    for i in range(PYTHON_ITERATIONS):
        total = (total + i * i) % 1_000_003
    values = np.random.default_rng(seed).random(ARRAY_BYTES // 8)
    for _ in range(NUMPY_PASSES):
        values = np.sqrt(values * values + 1.0) - 0.5
    return total, float(values.sum()), time.perf_counter() - started


def run(ctx):
    workers = sorted(ctx.client.scheduler_info()["workers"])
    futures = [
        ctx.client.submit(cpu_and_memory_loop, ctx.seed, workers=[address], pure=False, key=f"canary-{i}")
        for i, address in enumerate(workers)
    ]
    wait(futures)
    results = ctx.client.gather(futures)
    checksums = {(checksum, round(array_sum, 3)) for checksum, array_sum, _ in results}
    if len(checksums) != 1:
        raise AssertionError(f"the canary computed different results on different workers: {checksums}")
    seconds = [elapsed for _, _, elapsed in results]
    ctx.log(f"{len(workers)} workers, {min(seconds):.2f}-{max(seconds):.2f} s each")
    return {"workers": len(workers), "seconds_per_worker": seconds}
