"""Reductions over a large random array: the bread and butter of dask.array.

One graph computes a full sum, column means (axis 0) and row standard deviations
(axis 1), so chunks are generated once and reduced three ways through tree
reductions that move partial results between workers.
"""

import dask
import numpy as np

from nightbench_dask.data import random_square_array

MEMORY_FRACTION = 0.5
DESCRIPTION = f"sum, mean(axis=0) and std(axis=1) of a random float64 array of {MEMORY_FRACTION:.0%} of cluster memory"
TAGS = ("array", "reduction")


def run(ctx):
    nbytes = ctx.sizing.data_bytes(MEMORY_FRACTION)
    x = random_square_array(ctx.sizing, nbytes, ctx.seed)
    ctx.log(f"array {x.shape} in chunks {x.chunksize}, {x.nbytes / 2**30:.2f} GiB")
    total, column_means, row_stds = dask.compute(x.sum(), x.mean(axis=0), x.std(axis=1))
    # Uniform [0, 1): mean 1/2, standard deviation 1/sqrt(12).
    if not np.isclose(total / x.size, 0.5, atol=0.01):
        raise AssertionError(f"mean of the array is {total / x.size}, expected 0.5")
    if not np.allclose(row_stds.mean(), 12**-0.5, atol=0.01):
        raise AssertionError(f"mean row std is {row_stds.mean()}, expected {12**-0.5}")
    return {
        "shape": list(x.shape),
        "chunks": list(x.chunksize),
        "bytes": x.nbytes,
        "column_means_range": [float(column_means.min()), float(column_means.max())],
    }
