"""Many tiny tasks: what the scheduler costs per task when tasks do nothing.

Thousands of delayed increments feed a tree of sums (fan-in 100), so the run time is
almost all scheduling, messaging and bookkeeping overhead. The increments are root
tasks, which Dask 2022.12 queues on the scheduler (worker-saturation 1.1: at most
ceil(1.1 x threads) in flight per worker), so round-trip latency counts too.
"""

import dask

TASKS_PER_GIB = 2_500
FAN_IN = 100
DESCRIPTION = f"{TASKS_PER_GIB} tiny delayed tasks per GiB of cluster memory, summed in a fan-in-{FAN_IN} tree"
TAGS = ("scheduler", "overhead", "delayed")


def increment(i):
    return i + 1


def run(ctx):
    count = ctx.sizing.item_count(TASKS_PER_GIB)
    level = [dask.delayed(increment, pure=True)(i) for i in range(count)]
    graph_tasks = len(level)
    while len(level) > 1:
        level = [
            dask.delayed(sum, pure=True)(level[i : i + FAN_IN])
            for i in range(0, len(level), FAN_IN)
        ]
        graph_tasks += len(level)
    ctx.log(f"{count} increments, {graph_tasks} tasks in all")
    (total,) = dask.compute(level[0])
    expected = count * (count + 1) // 2
    if total != expected:
        raise AssertionError(f"sum is {total}, expected {expected}")
    return {"increments": count, "graph_tasks": graph_tasks}
