"""The NIGHTBENCH_* environment variables the runner hands to every suite command."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

#: How long ``ready`` and ``reset`` wait when neither --timeout nor
#: NIGHTBENCH_TIME_LIMIT says otherwise.
DEFAULT_WAIT_SECONDS = 120.0


class ConfigurationError(Exception):
    """The environment does not describe a usable run (a one-line message)."""


@dataclass(frozen=True)
class SuiteEnvironment:
    """What the runner told this process about the cluster and the run.

    Only the scheduler address is mandatory, so that a person can run a workload by
    hand against any cluster; the cluster's shape is then read from the scheduler
    (see ``sizing.DataSizing.for_cluster``).
    """

    scheduler_address: str
    workers: int | None
    threads_per_worker: int | None
    memory_per_worker: int | None
    total_memory: int | None
    scale: float
    time_limit: float | None
    metrics_file: Path | None
    workdir: Path | None
    repeat: int

    @classmethod
    def from_environ(cls, environ: Mapping[str, str] = os.environ) -> SuiteEnvironment:
        address = environ.get("NIGHTBENCH_SCHEDULER_ADDRESS", "").strip()
        if not address:
            raise ConfigurationError("NIGHTBENCH_SCHEDULER_ADDRESS is not set")
        scale = _number(environ, "NIGHTBENCH_SCALE", float)
        scale = 1.0 if scale is None else scale
        if scale <= 0:
            raise ConfigurationError(f"NIGHTBENCH_SCALE must be positive, got {scale}")
        metrics_file = environ.get("NIGHTBENCH_METRICS_FILE")
        workdir = environ.get("NIGHTBENCH_WORKDIR")
        return cls(
            scheduler_address=address,
            workers=_number(environ, "NIGHTBENCH_WORKERS", int),
            threads_per_worker=_number(environ, "NIGHTBENCH_THREADS_PER_WORKER", int),
            memory_per_worker=_number(environ, "NIGHTBENCH_MEMORY_PER_WORKER", int),
            total_memory=_number(environ, "NIGHTBENCH_TOTAL_MEMORY", int),
            scale=scale,
            time_limit=_number(environ, "NIGHTBENCH_TIME_LIMIT", float),
            metrics_file=Path(metrics_file) if metrics_file else None,
            workdir=Path(workdir) if workdir else None,
            repeat=_number(environ, "NIGHTBENCH_REPEAT", int) or 1,
        )

    def wait_seconds(self, override: float | None) -> float:
        """How long to wait for the cluster: --timeout, else the run's time limit."""
        return override or self.time_limit or DEFAULT_WAIT_SECONDS


def _number(environ: Mapping[str, str], name: str, kind: type) -> int | float | None:
    """Parse an optional numeric variable; integers may be written as 2147483648.0."""
    text = environ.get(name, "").strip()
    if not text:
        return None
    try:
        value = float(text)
    except ValueError:
        raise ConfigurationError(f"{name} must be a number, got {text!r}") from None
    return int(value) if kind is int else value
