"""The futures API: map, react to results as they complete, gather.

Blocks are made with client.map; as each one completes, the client submits a
summary task on it (a client-scheduler round trip per future, as in dynamic
workloads), then gathers all summaries. Blocks are released as soon as they are
summarized.
"""

import numpy as np
from distributed import as_completed

BLOCKS_PER_GIB = 1_000
MEMORY_FRACTION = 0.05
DESCRIPTION = f"{BLOCKS_PER_GIB} blocks per GiB of cluster memory (together {MEMORY_FRACTION:.0%} of it): client.map them, submit a summary per block as it completes, gather"
TAGS = ("futures", "scheduler")


def make_block(index, seed, length):
    return np.random.default_rng([seed, index]).random(length)


def summarize(block):
    return float(block.sum()), block.size


def run(ctx):
    count = ctx.sizing.item_count(BLOCKS_PER_GIB)
    length = max(ctx.sizing.data_bytes(MEMORY_FRACTION) // 8 // count, 1)
    ctx.log(f"{count} blocks of {length} float64")
    blocks = ctx.client.map(make_block, range(count), seed=ctx.seed, length=length)
    completed = as_completed(blocks)
    del blocks  # as_completed holds each block until it is handed out
    summaries = [ctx.client.submit(summarize, block) for block in completed]
    results = ctx.client.gather(summaries)
    total = sum(value for value, _ in results)
    size = sum(n for _, n in results)
    if size != count * length or not np.isclose(total / size, 0.5, atol=0.01):
        raise AssertionError(f"{size} values with mean {total / size}, expected 0.5")
    return {"futures": 2 * count, "block_length": int(length), "block_bytes": int(length) * 8}
