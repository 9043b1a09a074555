/**
 * How numbers read wherever nightbench shows them: issues, the terminal, job summaries, A/B
 * reports and the site (its client scripts import this too, so it stays pure and dependency-free).
 * The same value gets the same text everywhere: a regression of 1.52 GiB reads "1.52 GiB" in its
 * issue, in `nightbench detect` and in the job summary.
 *
 * @module
 */

const byteUnits = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];

/** Fractions of a second, largest first, for times under one second. */
const subsecondUnits = [
  { factor: 1e3, name: 'ms' },
  { factor: 1e6, name: 'µs' },
  { factor: 1e9, name: 'ns' },
];

/**
 * A value in its unit with three significant digits (enough to see a 10% change), whole numbers
 * from 1000 up; bytes scale to KiB, MiB, GiB, times under a second to ms, µs and ns (an asv
 * benchmark's 0.0000327 seconds reads "32.7 µs"), and a count (the `tasks` metric's unit) is a
 * bare number: "12.3 s", "1.52 GiB", "4210"; "seconds" reads "s". Times scale by `scaleOf` when given (a chart's axis
 * passes its largest tick, so all its ticks read in one unit: "200 ms", "400 ms", not "1 s").
 */
export function formatValue(value: number, unit: string | null | undefined, scaleOf = value): string {
  if (unit === 'bytes' || unit === 'B') {
    let scaled = value;
    let index = 0;
    while (Math.abs(scaled) >= 1024 && index < byteUnits.length - 1) {
      scaled /= 1024;
      index++;
    }
    return `${Number(scaled.toPrecision(3))} ${byteUnits[index]}`;
  }
  const threeDigits = (x: number) => Math.abs(Number(x.toPrecision(3)));
  if ((unit === 's' || unit === 'seconds') && scaleOf !== 0 && threeDigits(scaleOf) < 1) {
    const scale = subsecondUnits.find(({ factor }) => threeDigits(scaleOf * factor) >= 1) ?? subsecondUnits.at(-1)!;
    return formatValue(value * scale.factor, scale.name);
  }
  const digits = Math.abs(value) >= 1000 ? value.toFixed(0) : Number(value.toPrecision(3)).toString();
  // "seconds" (the Dask suite's unit of its timings) reads "s", as wall_time's does: one column of
  // an A/B table read "117 ms", "1.95 s" and "3.01 seconds".
  const shown = unit === 'seconds' ? 's' : unit;
  return shown && shown !== 'count' ? `${digits} ${shown}` : digits;
}

/** A relative change as a signed percentage with one decimal: "+14.8%", "-4.0%". */
export function formatChange(change: number): string {
  return `${change >= 0 ? '+' : ''}${(change * 100).toFixed(1)}%`;
}

/** A confidence level as a percentage: 0.95 -> "95%", 0.975 -> "97.5%". */
export const formatLevel = (confidence: number) => `${Number((confidence * 100).toPrecision(3))}%`;

/** An interval (or band) of ratios as the changes it spans: "-4.7% … +4.9%". */
export const formatChangeRange = (low: number, high: number) => `${formatChange(low - 1)} … ${formatChange(high - 1)}`;

/** A p-value with two significant digits, in scientific notation below 0.0001: "0.031", "2.4e-6". */
export function formatP(p: number): string {
  return p < 0.0001 ? p.toExponential(1) : Number(p.toPrecision(2)).toString();
}

/** A ratio (of medians, or an end of an interval or band of them), three decimals: "1.310". */
export const formatRatio = (ratio: number) => ratio.toFixed(3);

/**
 * A ratio of medians with its 95% interval, as bisects and confirmations print it: "x1.310 (95%
 * interval 1.200..1.400)"; in a column whose heading names the interval, `named` false leaves the
 * words out: "x1.310 (1.200..1.400)".
 */
export function formatRatioInterval(interval: { ratio: number; low: number; high: number }, named = true): string {
  return `x${formatRatio(interval.ratio)} (${named ? '95% interval ' : ''}${formatRatio(interval.low)}..${formatRatio(interval.high)})`;
}

/** A commit's short name: seven characters, as git and GitHub print it. */
export const shortSha = (sha: string) => sha.slice(0, 7);

/** A duration in seconds, in the unit that reads best: "42 s", "12.5 min", "3.2 h". */
export function formatSeconds(seconds: number): string {
  if (seconds < 60) return `${Math.round(seconds)} s`;
  if (seconds < 3600) return `${(seconds / 60).toFixed(1)} min`;
  return `${(seconds / 3600).toFixed(1)} h`;
}

/** A duration in hours, in the unit that reads best: "45 min", "5.0 h", "3.2 days". */
export function formatHours(hours: number): string {
  if (hours < 1) return `${Math.round(hours * 60)} min`;
  if (hours < 48) return `${hours.toFixed(1)} h`;
  return `${(hours / 24).toFixed(1)} days`;
}

/** A fraction as a percentage with up to two decimals and no trailing zeros: "10%", "12.5%". */
export function formatPercent(fraction: number): string {
  return `${Number((fraction * 100).toFixed(2))}%`;
}

/** A share as a whole percentage: "83%". */
export const formatShare = (share: number) => `${Math.round(share * 100)}%`;

/** Cliff's delta, an effect size in [-1, 1], signed with two decimals: "+0.84", "-1.00", "0.00". */
export const formatCliffsDelta = (delta: number) => `${delta > 0 ? '+' : ''}${delta.toFixed(2)}`;

/** An A/A noise band of ratios, three decimals: "0.970-1.030". */
export const formatBand = (band: { low: number; high: number }) => `${formatRatio(band.low)}-${formatRatio(band.high)}`;

/** A ratio of medians with its interval, compact for tables: "1.310 [1.200-1.400]". */
export const formatRatioRange = (interval: { ratio: number; low: number; high: number }) => `${formatRatio(interval.ratio)} [${formatBand(interval)}]`;

/** Seconds as minutes with one decimal, the figure "cluster minutes" and shard columns give: "4.0". */
export const formatMinutes = (seconds: number) => (seconds / 60).toFixed(1);

/** A cost in US dollars, cents shown: "$1.25". */
export const formatUsd = (dollars: number) => `$${dollars.toFixed(2)}`;

/** A size in MiB with one decimal, for warnings about files growing: "12.5 MiB". */
export const formatMiB = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

/** A fraction as a percentage with one decimal, unsigned: "12.5%", "10.0%" (noise, rates). */
export const formatPercentOneDecimal = (fraction: number) => `${(fraction * 100).toFixed(1)}%`;

/** How many times a yardstick (the noise, an A/A band) a change is, one decimal: "2.3". */
export const formatMultiple = (multiple: number) => multiple.toFixed(1);

/** A count and its noun, the noun plural but for one: "1 shard", "0 shards", "3 processes" (the plural is the noun and an s unless given). */
export const formatCount = (count: number, noun: string, plural = `${noun}s`) => `${count} ${count === 1 ? noun : plural}`;

/** One argument for sh, always quoted. */
export const shellQuote = (arg: string) => `'${arg.replaceAll("'", `'\\''`)}'`;

/** One argument for sh as a reader would type it: bare when nothing in it is special to the shell. */
export const shellArg = (arg: string) => (/^[\w.\/:=@%+,-]+$/.test(arg) ? arg : shellQuote(arg));

/** The cluster shape and environment a series ran on, as every page and summary labels it: "local:2x1:2GiB · default". */
export function formatVariant(c: { clusterShape: string; environmentName: string; instanceType?: string }): string {
  return `${c.instanceType ? `${c.clusterShape} (${c.instanceType})` : c.clusterShape} · ${c.environmentName}`;
}
