"""A climate-science pipeline: daily climatology and anomalies of a gridded field.

A model writes daily temperature fields (chunked in time, full space). To compute a
climatology per day of the year, the data is rechunked to full time series per
spatial tile, reshaped to (year, day, y, x), averaged over years, subtracted, and
the anomalies' standard deviation is mapped per grid cell.
"""

import math

import dask.array as da
import numpy as np

from nightbench_dask.data import random_array

MEMORY_FRACTION = 0.2
YEARS = 4
DESCRIPTION = f"daily climatology and anomaly std of a random {YEARS}-year (time, y, x) field of {MEMORY_FRACTION:.0%} of cluster memory"
TAGS = ("array", "pipeline", "rechunk")
DAYS_PER_YEAR = 365
NOISE_AMPLITUDE = 4.0  # kelvin; uniform noise on top of the seasonal cycle


def run(ctx):
    nbytes = ctx.sizing.data_bytes(MEMORY_FRACTION)
    days = YEARS * DAYS_PER_YEAR
    side = max(math.isqrt(nbytes // 8 // days), 2)
    chunks = ctx.sizing.chunk_count(days * side * side * 8)
    days_per_chunk = math.ceil(days / chunks)
    tile = math.ceil(side / math.ceil(math.sqrt(chunks)))

    noise = random_array((days, side, side), (days_per_chunk, side, side), ctx.seed)
    day_of_year = da.arange(days, chunks=days_per_chunk) % DAYS_PER_YEAR
    seasonal = 15.0 + 10.0 * da.sin(2 * np.pi * day_of_year / DAYS_PER_YEAR)
    temperature = seasonal[:, None, None] + NOISE_AMPLITUDE * noise
    ctx.log(f"field {temperature.shape} in chunks {temperature.chunksize} -> tiles of {tile}")

    series = temperature.rechunk((days, tile, tile))
    by_year = series.reshape((YEARS, DAYS_PER_YEAR, side, side))
    climatology = by_year.mean(axis=0)
    anomaly_std = (by_year - climatology).std(axis=(0, 1)).compute()

    # Removing the mean of YEARS samples leaves (YEARS - 1) / YEARS of the variance.
    expected = NOISE_AMPLITUDE / math.sqrt(12) * math.sqrt((YEARS - 1) / YEARS)
    if not np.isclose(anomaly_std.mean(), expected, rtol=0.05):
        raise AssertionError(f"mean anomaly std {anomaly_std.mean()}, expected {expected}")
    return {
        "shape": list(temperature.shape),
        "chunks_written": list(temperature.chunksize),
        "chunks_per_tile": list(series.chunksize),
        "bytes": temperature.nbytes,
    }
