"""The metrics every Dask workload reports, and the metrics file the runner reads."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class MetricSpec:
    """One metric exactly as ``list`` announces it to the runner."""

    name: str
    unit: str
    direction: str  # "lower" or "higher": which way is better


#: Measured from inside Dask (how, see instrumentation.summarize); the runner measures
#: wall/cpu time and process memory from outside, so those are not here.
METRICS: tuple[MetricSpec, ...] = (
    MetricSpec("transfer_bytes", "bytes", "lower"),
    MetricSpec("spilled_bytes", "bytes", "lower"),
    MetricSpec("managed_memory_peak", "bytes", "lower"),
    MetricSpec("unmanaged_memory_peak", "bytes", "lower"),
    MetricSpec("tasks", "count", "lower"),
    MetricSpec("compute_seconds", "seconds", "lower"),
    MetricSpec("transfer_seconds", "seconds", "lower"),
    MetricSpec("disk_seconds", "seconds", "lower"),
    MetricSpec("serialization_seconds", "seconds", "lower"),
)

UNITS = {spec.name: spec.unit for spec in METRICS}


def metric_list() -> list[dict[str, str]]:
    """The ``metrics`` entry of a workload in ``list`` output."""
    return [asdict(spec) for spec in METRICS]


def write_metrics_file(
    path: Path,
    metrics: Mapping[str, float],
    disturbances: Sequence[str],
    info: Mapping[str, Any],
    absent: Mapping[str, str] | None = None,
) -> None:
    """Write the run's results atomically, so the runner never reads half a file.

    ``absent`` names the metrics the target's version cannot report, with why.
    """
    document = {
        "metrics": {
            name: {"value": value, "unit": UNITS[name]} for name, value in metrics.items()
        },
        "absent": dict(absent or {}),
        "disturbances": list(disturbances),
        "info": info,
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    partial.write_text(json.dumps(document, indent=2, default=str) + "\n")
    os.replace(partial, path)
