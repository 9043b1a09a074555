"""Product of two random square matrices: compute-heavy, all-to-all block traffic.

Each output block contracts a row of blocks of A with a column of blocks of B, so
every block travels to several workers. The work grows as side**3, i.e. as
data**1.5, which is why the matrices use a small fraction of the memory.
"""

import numpy as np

from nightbench_dask.data import random_square_array

MEMORY_FRACTION_PER_MATRIX = 0.04
DESCRIPTION = f"sum of A @ B for two random float64 square matrices of {MEMORY_FRACTION_PER_MATRIX:.0%} of cluster memory each"
TAGS = ("array", "linalg")


def run(ctx):
    nbytes = ctx.sizing.data_bytes(MEMORY_FRACTION_PER_MATRIX)
    a = random_square_array(ctx.sizing, nbytes, ctx.seed)
    b = random_square_array(ctx.sizing, nbytes, ctx.seed + 1)
    side = a.shape[0]
    ctx.log(f"two {a.shape} matrices in chunks {a.chunksize}")
    total = (a @ b).sum().compute()
    # Each of the side**3 products a_ij * b_jk has expectation 1/4.
    expected = side**3 / 4
    if not np.isclose(total, expected, rtol=0.01):
        raise AssertionError(f"sum of A @ B is {total}, expected about {expected}")
    return {
        "shape": [side, side],
        "chunks": list(a.chunksize),
        "bytes_per_matrix": a.nbytes,
        "flops": 2 * side**3,
    }
