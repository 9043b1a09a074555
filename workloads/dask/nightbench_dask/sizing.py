"""How much data a workload generates on a given cluster.

Every size derives from the cluster's total worker memory, times a per-workload
fraction, times NIGHTBENCH_SCALE. A cluster twice as big therefore gets twice the data
(the suite measures how Dask scales, not how fast a fixed problem gets), and tests shrink
everything with one number.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .environment import SuiteEnvironment

GIB = 2**30

#: Dask's sweet spot for a chunk or partition: big enough that per-task overhead is
#: small, small enough that several fit in a worker's memory at once.
TARGET_CHUNK_BYTES = 64 * 2**20

#: Even tiny data is split into this many pieces per thread, so that every thread
#: works and data still moves between workers (which is what the suite measures).
MIN_CHUNKS_PER_THREAD = 4

#: Nothing is sized below this; a workload on 0 bytes measures nothing.
MIN_DATA_BYTES = 2**20


@dataclass(frozen=True)
class DataSizing:
    """Sizes for one run: the cluster's memory and threads, and the scale factor."""

    total_memory: int
    total_threads: int
    scale: float

    @classmethod
    def for_cluster(
        cls, env: SuiteEnvironment, workers: Mapping[str, Mapping[str, Any]]
    ) -> DataSizing:
        """Size from the runner's numbers, falling back on what the scheduler reports.

        ``workers`` maps worker addresses to their ``memory_limit`` and ``nthreads``
        (see ``cluster.worker_identities``); it fills in whatever the environment
        leaves out, e.g. when a person runs a workload by hand.
        """
        total_memory = env.total_memory
        if total_memory is None and env.memory_per_worker and env.workers:
            total_memory = env.memory_per_worker * env.workers
        if total_memory is None:
            total_memory = sum(w["memory_limit"] for w in workers.values())
        if env.workers and env.threads_per_worker:
            total_threads = env.workers * env.threads_per_worker
        else:
            total_threads = sum(w["nthreads"] for w in workers.values())
        return cls(
            total_memory=int(total_memory),
            total_threads=max(int(total_threads), 1),
            scale=env.scale,
        )

    def data_bytes(self, fraction: float) -> int:
        """Bytes of data for a workload that uses ``fraction`` of the cluster's memory."""
        return max(int(self.total_memory * fraction * self.scale), MIN_DATA_BYTES)

    def item_count(self, per_gib: float, minimum: int = 10) -> int:
        """How many items (tasks, futures) for a workload with ``per_gib`` per GiB.

        Task-count workloads scale with the cluster too; memory is the one measure of
        cluster size that every workload shares.
        """
        return max(round(per_gib * self.total_memory / GIB * self.scale), minimum)

    def chunk_count(self, nbytes: int) -> int:
        """Into how many chunks (or partitions) to split ``nbytes`` of data."""
        by_size = math.ceil(nbytes / TARGET_CHUNK_BYTES)
        return max(by_size, MIN_CHUNKS_PER_THREAD * self.total_threads)

    def square_side(self, nbytes: int, itemsize: int = 8) -> int:
        """Side of a square array of ``itemsize``-byte elements holding ``nbytes``."""
        return max(math.isqrt(nbytes // itemsize), 1)

    def square_chunk_side(self, side: int, itemsize: int = 8) -> int:
        """Side of the square blocks that split a ``side`` x ``side`` array into
        about ``chunk_count`` blocks."""
        blocks_per_side = math.ceil(math.sqrt(self.chunk_count(side * side * itemsize)))
        return math.ceil(side / blocks_per_side)


def split_evenly(total: int, parts: int) -> list[int]:
    """``total`` items in ``parts`` nearly equal pieces (the first ones one bigger)."""
    base, extra = divmod(total, parts)
    return [base + 1 if i < extra else base for i in range(parts)]

