"""Seeded random data, generated on the workers.

Nothing is downloaded and nothing big passes through the client: each chunk or
partition is a task that makes its piece from its own seed, so the same size and seed
give the same data on every run, and repeats stay comparable.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import dask.array as da
import dask.dataframe as dd
import numpy as np
import pandas as pd

from .sizing import DataSizing, split_evenly

#: Builds one pandas partition: ``make(rng, nrows, total_rows)``. ``total_rows`` (of
#: the whole frame) lets a maker size key spaces to the frame, e.g. ~50 rows per key.
PartitionMaker = Callable[[np.random.Generator, int, int], pd.DataFrame]

#: Rows generated on the client to estimate the bytes per row of a frame.
_SAMPLE_ROWS = 10_000


def random_array(
    shape: tuple[int, ...], chunks: tuple[int, ...], seed: int
) -> da.Array:
    """Uniform [0, 1) float64 array; each chunk gets its own seed from ``seed``."""
    return da.random.RandomState(seed).random_sample(shape, chunks=chunks)


def random_square_array(sizing: DataSizing, nbytes: int, seed: int) -> da.Array:
    """A square uniform float64 array of about ``nbytes`` in square blocks."""
    side = sizing.square_side(nbytes)
    block = sizing.square_chunk_side(side)
    return random_array((side, side), (block, block), seed)


@dataclass(frozen=True)
class GeneratedFrame:
    """A generated dask DataFrame and the facts a workload reports about it."""

    frame: dd.DataFrame
    rows: int
    row_bytes: float

    def describe(self) -> dict[str, float]:
        return {
            "rows": self.rows,
            "partitions": self.frame.npartitions,
            "bytes": round(self.rows * self.row_bytes),
        }


def generated_frame(
    make_partition: PartitionMaker, nbytes: int, sizing: DataSizing, seed: int
) -> GeneratedFrame:
    """A dask DataFrame of about ``nbytes`` in memory, partitioned for the cluster.

    Rows get a global integer index with known divisions, as a frame read from
    storage would have, so that index-aware operations behave realistically.
    """
    sample = make_partition(np.random.default_rng(seed), _SAMPLE_ROWS, _SAMPLE_ROWS)
    row_bytes = sample.memory_usage(deep=True, index=True).sum() / _SAMPLE_ROWS
    npartitions = sizing.chunk_count(nbytes)
    rows = max(int(nbytes / row_bytes), npartitions)
    sizes = split_evenly(rows, npartitions)
    offsets = np.concatenate([[0], np.cumsum(sizes)]).tolist()
    pieces = [(i, offsets[i], size) for i, size in enumerate(sizes)]
    frame = dd.from_map(
        _make_piece,
        pieces,
        make_partition=make_partition,
        total_rows=rows,
        seed=seed,
        meta=make_partition(np.random.default_rng(seed), 0, rows),
        divisions=offsets[:-1] + [offsets[-1] - 1],
        label="generate",
        # The meta comes from the same function as the data: checking it again on
        # every partition would only add time to what the suite measures.
        enforce_metadata=False,
    )
    return GeneratedFrame(frame=frame, rows=rows, row_bytes=row_bytes)


def _make_piece(
    piece: tuple[int, int, int], make_partition: PartitionMaker, total_rows: int, seed: int
) -> pd.DataFrame:
    """Partition ``index`` of a generated frame: its rows, its slice of the index."""
    index, offset, nrows = piece
    partition = make_partition(np.random.default_rng([seed, index]), nrows, total_rows)
    partition.index = pd.RangeIndex(offset, offset + nrows)
    return partition
