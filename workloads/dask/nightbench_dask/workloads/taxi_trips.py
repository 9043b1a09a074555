"""A dataframe pipeline over generated taxi-like trips: clean, derive, aggregate.

Trips resemble a year of city cab records (timestamps, distances, fares, tips,
categorical payment types, pickup zones, a few percent of invalid rows). The
pipeline drops invalid trips, derives hour, tip fraction and speed, then
aggregates tip fraction and fares by hour and payment type, and finds the ten
slowest zones.
"""

import dask
import numpy as np
import pandas as pd

from nightbench_dask.data import generated_frame

MEMORY_FRACTION = 0.15
DESCRIPTION = f"filter, derive and aggregate (by hour x payment, slowest zones) random taxi-like trips of {MEMORY_FRACTION:.0%} of cluster memory"
TAGS = ("dataframe", "pipeline", "groupby")
ZONES = 265
PAYMENT_TYPES = ["card", "cash", "no charge", "dispute"]
PAYMENT_SHARES = [0.70, 0.27, 0.02, 0.01]
YEAR_START = np.datetime64("2022-01-01T00:00:00", "s")
SECONDS_PER_YEAR = 365 * 86_400


def make_trips(rng, nrows, _total_rows):
    distance = rng.exponential(3.0, nrows)
    distance[rng.random(nrows) < 0.01] = 0.0  # meter glitches
    fare = 3.0 + 2.5 * distance + rng.normal(0.0, 1.0, nrows)
    payment = rng.choice(len(PAYMENT_TYPES), nrows, p=PAYMENT_SHARES)
    tip = np.where(payment == 0, fare * rng.uniform(0.0, 0.3, nrows), 0.0)
    return pd.DataFrame(
        {
            "pickup_datetime": YEAR_START
            + rng.integers(0, SECONDS_PER_YEAR, nrows).astype("timedelta64[s]"),
            "duration_seconds": distance * 180.0 + rng.exponential(300.0, nrows),
            "passenger_count": rng.choice(7, nrows, p=[0.02, 0.6, 0.2, 0.08, 0.05, 0.03, 0.02]).astype("int8"),
            "trip_distance": distance,
            "fare_amount": fare,
            "tip_amount": tip,
            "payment_type": pd.Categorical.from_codes(payment, PAYMENT_TYPES),
            "pickup_zone": rng.integers(1, ZONES + 1, nrows).astype("int16"),
        }
    )


def run(ctx):
    nbytes = ctx.sizing.data_bytes(MEMORY_FRACTION)
    generated = generated_frame(make_trips, nbytes, ctx.sizing, ctx.seed)
    trips = generated.frame
    ctx.log(f"{generated.rows} trips in {trips.npartitions} partitions")
    valid = trips[
        (trips.trip_distance > 0) & (trips.fare_amount > 0) & (trips.passenger_count > 0)
    ]
    valid = valid.assign(
        hour=valid.pickup_datetime.dt.hour,
        tip_fraction=valid.tip_amount / valid.fare_amount,
        speed_mph=valid.trip_distance / (valid.duration_seconds / 3600.0),
    )
    by_hour = valid.groupby(["hour", "payment_type"], observed=True).agg(
        {"tip_fraction": "mean", "fare_amount": ["mean", "count"]}
    )
    slowest_zones = valid.groupby("pickup_zone").speed_mph.mean().nsmallest(10)
    hourly, slowest, valid_rows = dask.compute(by_hour, slowest_zones, valid.shape[0])
    card_tip = hourly.xs("card", level="payment_type")[("tip_fraction", "mean")].mean()
    if not 0.1 < card_tip < 0.2 or not 0.9 < valid_rows / generated.rows < 0.99:
        raise AssertionError(f"card tip fraction {card_tip}, valid share {valid_rows / generated.rows}")
    return {
        **generated.describe(),
        "valid_rows": int(valid_rows),
        "hour_payment_groups": len(hourly),
        "slowest_zone": int(slowest.index[0]),
    }
