"""Rechunking from row chunks to column chunks: an all-to-all exchange of pieces.

Every output chunk takes a slice of every input chunk, so nearly all the data
crosses between workers; the column sums at the end keep the result small.
"""

import math

import numpy as np

from nightbench_dask.data import random_array

MEMORY_FRACTION = 0.25
DESCRIPTION = f"rechunk a random float64 array of {MEMORY_FRACTION:.0%} of cluster memory from row chunks to column chunks"
TAGS = ("array", "rechunk")


def run(ctx):
    nbytes = ctx.sizing.data_bytes(MEMORY_FRACTION)
    side = ctx.sizing.square_side(nbytes)
    band = math.ceil(side / ctx.sizing.chunk_count(nbytes))
    rows = random_array((side, side), (band, side), ctx.seed)
    columns = rows.rechunk((side, band))
    ctx.log(f"array {rows.shape}: chunks {rows.chunksize} -> {columns.chunksize}")
    column_sums = columns.sum(axis=0).compute()
    if not np.isclose(column_sums.mean() / side, 0.5, atol=0.01):
        raise AssertionError(f"mean column sum is {column_sums.mean()}, expected {side / 2}")
    return {
        "shape": [side, side],
        "chunks_before": list(rows.chunksize),
        "chunks_after": list(columns.chunksize),
        "bytes": rows.nbytes,
    }
