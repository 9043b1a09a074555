"""The Dask suite's workloads: one module per workload (see nightbench_dask.registry)."""
