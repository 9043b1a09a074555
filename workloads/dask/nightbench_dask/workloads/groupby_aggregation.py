"""Groupby-aggregations of a large frame, at low and at high cardinality.

Low cardinality (1,000 stations) is a tree reduction with tiny partial results;
high cardinality (about 50 rows per sensor) has partial results as big as the input
and uses split_out, hashing groups into several output partitions.
"""

import dask
import numpy as np
import pandas as pd

from nightbench_dask.data import generated_frame

MEMORY_FRACTION = 0.2
STATIONS = 1_000
ROWS_PER_SENSOR = 50
DESCRIPTION = f"groupby-agg of a random frame of {MEMORY_FRACTION:.0%} of cluster memory: {STATIONS} stations (mean/std/sum) and rows/{ROWS_PER_SENSOR} sensors (sum, split_out)"
TAGS = ("dataframe", "groupby")


def make_readings(rng, nrows, total_rows):
    sensors = max(total_rows // ROWS_PER_SENSOR, 1)
    return pd.DataFrame(
        {
            "station": rng.integers(0, STATIONS, nrows),
            "sensor": rng.integers(0, sensors, nrows),
            "temperature": rng.normal(15.0, 10.0, nrows),
            "rainfall": rng.exponential(2.0, nrows),
            "value": rng.random(nrows),
        }
    )


def run(ctx):
    nbytes = ctx.sizing.data_bytes(MEMORY_FRACTION)
    generated = generated_frame(make_readings, nbytes, ctx.sizing, ctx.seed)
    readings = generated.frame
    ctx.log(f"{generated.rows} rows in {readings.npartitions} partitions")
    by_station = readings.groupby("station").agg(
        {"temperature": ["mean", "std"], "rainfall": "sum"}
    )
    by_sensor = readings.groupby("sensor").value.sum(
        split_out=max(readings.npartitions // 4, 1)
    )
    stations, sensor_total, sensor_groups, value_total = dask.compute(
        by_station, by_sensor.sum(), by_sensor.size, readings.value.sum()
    )
    if len(stations) != min(STATIONS, generated.rows):
        raise AssertionError(f"{len(stations)} station groups, expected {STATIONS}")
    if not np.isclose(sensor_total, value_total):
        raise AssertionError(f"sensor sums add up to {sensor_total}, not {value_total}")
    return {**generated.describe(), "station_groups": len(stations), "sensor_groups": int(sensor_groups)}
