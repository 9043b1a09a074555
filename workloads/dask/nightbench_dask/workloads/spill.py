"""Persisting more data than the workers may keep in memory, then reducing it.

The array is 1.5 times the cluster's total memory limit, so workers must spill
chunks to disk as they persist and read them back for the sum. When the data is
scaled down (NIGHTBENCH_SCALE < 1) the workers' spill target is scaled down with it,
so that the workload spills at every scale.
"""

import numpy as np
from distributed import wait

from nightbench_dask.cluster import scaled_spill_target
from nightbench_dask.data import random_square_array

MEMORY_FRACTION = 1.5
DESCRIPTION = f"persist a random float64 array of {MEMORY_FRACTION:g}x the cluster's memory limit (spills to disk) and sum it"
TAGS = ("array", "spill", "memory")


def run(ctx):
    nbytes = ctx.sizing.data_bytes(MEMORY_FRACTION)
    x = random_square_array(ctx.sizing, nbytes, ctx.seed)
    ctx.log(f"array {x.shape} in chunks {x.chunksize}, {x.nbytes / 2**30:.2f} GiB")
    with scaled_spill_target(ctx.client, ctx.sizing.scale):
        persisted = x.persist()
        wait(persisted)
        total = persisted.sum().compute()
        del persisted
    if not np.isclose(total / x.size, 0.5, atol=0.01):
        raise AssertionError(f"mean of the array is {total / x.size}, expected 0.5")
    return {
        "shape": list(x.shape),
        "chunks": list(x.chunksize),
        "bytes": x.nbytes,
        "bytes_over_memory_limit": round(x.nbytes / ctx.sizing.total_memory, 3),
        "spill_target_factor": min(ctx.sizing.scale, 1.0),
    }
