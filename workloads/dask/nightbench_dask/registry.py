"""Finding the suite's workloads and what a workload gets to run with.

A workload is one module in the ``nightbench_dask.workloads`` package. Its file name
is the workload's name; it defines ``DESCRIPTION`` (one line), ``TAGS`` (a tuple of
strings) and ``run(ctx: WorkloadContext) -> dict`` (the returned dict is free-form
info about the data, recorded with the run). Its version is a hash of its source, so
that changing a workload starts a new history instead of looking like a regression.
"""

from __future__ import annotations

import hashlib
import importlib
import pkgutil
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from distributed import Client

from .sizing import DataSizing

WORKLOADS_PACKAGE = "nightbench_dask.workloads"

#: Same data on every run and repeat, so that runs compare.
SEED = 20221201


@dataclass(frozen=True)
class WorkloadContext:
    """What a workload's ``run`` gets: the client, the sizes, the seed."""

    name: str
    client: Client
    sizing: DataSizing
    seed: int = SEED

    def log(self, message: str) -> None:
        """Progress for humans, on stderr (stdout is reserved for the protocol)."""
        print(f"[dask/{self.name}] {message}", file=sys.stderr, flush=True)


@dataclass(frozen=True)
class Workload:
    name: str
    description: str
    tags: tuple[str, ...]
    version: str
    run: Callable[[WorkloadContext], dict[str, Any]]
    #: Why the target's version cannot run this workload at all (an import it lacks).
    unsupported: str | None = None

    def listing(self) -> dict[str, Any]:
        """This workload's entry in ``list`` output, without the metrics."""
        return {
            "name": self.name,
            "description": self.description,
            "version": self.version,
            "tags": list(self.tags),
            **({"unsupported": self.unsupported} if self.unsupported else {}),
        }


def load_workloads() -> dict[str, Workload]:
    """All workloads of the suite by name, in name order."""
    package = importlib.import_module(WORKLOADS_PACKAGE)
    found = {}
    for module_info in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
        if module_info.name.startswith("_"):
            continue
        source = Path(package.__path__[0]) / f"{module_info.name}.py"
        try:
            module = importlib.import_module(f"{WORKLOADS_PACKAGE}.{module_info.name}")
        except ImportError as error:
            # A past version of the target lacks what the workload imports: the workload
            # is listed as unsupported (not a failure), so the runner skips it.
            found[module_info.name] = unsupported_workload(module_info.name, source, error)
            continue
        found[module_info.name] = Workload(
            name=module_info.name,
            description=module.DESCRIPTION,
            tags=tuple(module.TAGS),
            version=source_hash(Path(module.__file__)),
            run=module.run,
        )
    return found


def unsupported_workload(name: str, source: Path, error: ImportError) -> Workload:
    """A workload whose module cannot be imported with this version of the target."""
    reason = f"{type(error).__name__}: {error}"

    def cannot_run(ctx: WorkloadContext) -> dict[str, Any]:
        raise RuntimeError(f"{name} cannot run with this version of the target: {reason}")

    return Workload(name=name, description="", tags=(), version=source_hash(source), run=cannot_run, unsupported=reason)


def source_hash(path: Path) -> str:
    """Short, stable hash of a workload's source file."""
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]
