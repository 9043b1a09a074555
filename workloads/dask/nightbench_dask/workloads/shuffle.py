"""Sorting a persisted frame by a random column: set_index with a task-based shuffle.

The frame is persisted first, as if just loaded, so the run measures computing the
divisions (approximate quantiles) and the all-to-all shuffle, not data generation
twice. Task-based because Dask's p2p shuffle needs pyarrow.
"""

import dask
import pandas as pd
from distributed import wait

from nightbench_dask.data import generated_frame

MEMORY_FRACTION = 0.1
DESCRIPTION = f"set_index on a random float column (shuffle='tasks') of a persisted frame of {MEMORY_FRACTION:.0%} of cluster memory"
TAGS = ("dataframe", "shuffle")


def make_records(rng, nrows, _total_rows):
    return pd.DataFrame(
        {
            "key": rng.random(nrows),
            "id": rng.integers(0, 2**62, nrows),
            "x": rng.normal(0.0, 1.0, nrows),
            "y": rng.random(nrows),
        }
    )


def is_sorted(partition):
    return partition.index.is_monotonic_increasing


def run(ctx):
    nbytes = ctx.sizing.data_bytes(MEMORY_FRACTION)
    generated = generated_frame(make_records, nbytes, ctx.sizing, ctx.seed)
    records = generated.frame.persist()
    wait(records)
    ctx.log(f"persisted {generated.rows} rows in {records.npartitions} partitions")
    by_key = records.set_index("key", shuffle="tasks")
    lengths, sorted_flags = dask.compute(
        by_key.map_partitions(len), by_key.map_partitions(is_sorted)
    )
    if lengths.sum() != generated.rows:
        raise AssertionError(f"{lengths.sum()} rows after the shuffle, expected {generated.rows}")
    if not (by_key.known_divisions and sorted_flags.all()):
        raise AssertionError("the shuffled frame is not sorted by its new index")
    return {
        **generated.describe(),
        "output_partitions": by_key.npartitions,
        "largest_output_partition_rows": int(lengths.max()),
    }
