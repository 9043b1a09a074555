"""Shared machinery of nightbench's Dask suite.

Everything that is the same for every workload lives here: reading the runner's
environment (``environment``), sizing data to the cluster (``sizing``), generating
seeded random data (``data``), talking to the cluster (``cluster``), measuring a run
from inside Dask (``instrumentation``), the metrics file (``metrics``), finding the
workloads (``registry``) and the command line the runner calls (``cli``). The
workloads themselves are the modules of ``nightbench_dask.workloads``.
"""
