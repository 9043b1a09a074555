"""Inner join of two large frames on a random key: both sides hash-shuffled.

Neither frame is partitioned by the key, so both are shuffled (task-based) on it
before the partition-wise merge; the key space is sized so that a row of the left
frame matches one row of the right frame on average.
"""

import dask
import numpy as np
import pandas as pd

from nightbench_dask.data import generated_frame

MEMORY_FRACTION_PER_SIDE = 0.05
DESCRIPTION = f"inner merge (shuffle='tasks') of two random frames of {MEMORY_FRACTION_PER_SIDE:.0%} of cluster memory each on a random integer key"
TAGS = ("dataframe", "join", "shuffle")


def make_orders(rng, nrows, total_rows):
    return pd.DataFrame(
        {
            "customer": rng.integers(0, total_rows, nrows),
            "amount": rng.exponential(50.0, nrows),
            "quantity": rng.integers(1, 10, nrows),
        }
    )


def make_visits(rng, nrows, total_rows):
    return pd.DataFrame(
        {
            "customer": rng.integers(0, total_rows, nrows),
            "duration": rng.exponential(300.0, nrows),
            "score": rng.random(nrows),
        }
    )


def run(ctx):
    nbytes = ctx.sizing.data_bytes(MEMORY_FRACTION_PER_SIDE)
    orders = generated_frame(make_orders, nbytes, ctx.sizing, ctx.seed)
    visits = generated_frame(make_visits, nbytes, ctx.sizing, ctx.seed + 1)
    # Each side draws keys from [0, its row count): a pair of rows matches with
    # probability 1 / (the larger key space).
    customers = max(orders.rows, visits.rows)
    ctx.log(f"{orders.rows} x {visits.rows} rows, {customers} keys")
    joined = orders.frame.merge(visits.frame, on="customer", how="inner", shuffle="tasks")
    rows, score_total = dask.compute(joined.shape[0], joined.score.sum())
    expected = orders.rows * visits.rows / customers
    if abs(rows - expected) > 0.05 * expected + 5 * np.sqrt(expected):
        raise AssertionError(f"join produced {rows} rows, expected about {expected:.0f}")
    return {
        "left": orders.describe(),
        "right": visits.describe(),
        "keys": int(customers),
        "output_rows": int(rows),
        "output_partitions": joined.npartitions,
        "score_total": float(score_total),
    }
