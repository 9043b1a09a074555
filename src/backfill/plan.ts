/**
 * Which nights a backfill records, in which order, and which it skips: pure, so that the rules
 * (range, sample, shard, resume) are tested without a cluster or a history.
 *
 * @module
 */
import { NightbenchError } from '../errors.js';
import { daysBetween, isCalendarNight, shiftNight } from '../night.js';

export interface BackfillPlan {
  /** Every night of the selection (this shard's share), oldest first: what detection replays. */
  nights: string[];
  /** The nights to record now, oldest first. */
  toRecord: string[];
  /** Nights already recorded completely, left as they are (unless --redo). */
  skipped: string[];
}


/** `value` as a night (YYYY-MM-DD, a real date), or a usage error naming `what`. */
export function parseNight(value: string, what: string): string {
  if (!isCalendarNight(value)) {
    throw new NightbenchError('usage', `${what} must be a date such as 2026-12-01, got "${value}"`);
  }
  return value;
}

/** Every `every`-th night from `from` to `to`, both included (`to` itself only when the step lands on it). */
export function nightsOfRange(from: string, to: string, every: number): string[] {
  parseNight(from, '--from');
  parseNight(to, '--to');
  const span = daysBetween(from, to);
  if (!Number.isInteger(every) || every < 1) throw new NightbenchError('usage', `--every must be a whole number of nights, 1 or more; got ${every}`);
  if (span < 0) throw new NightbenchError('usage', `--to ${to} is before --from ${from}`);
  const nights: string[] = [];
  for (let day = 0; day <= span; day += every) nights.push(shiftNight(from, day));
  return nights;
}

/**
 * The nights of a `--nights` file: one date a line; blank lines and `#` comments ignored. Sorted,
 * each once, since nights are recorded oldest first whatever order the file lists them in.
 */
export function parseNightsFile(text: string, file: string): string[] {
  const nights = text
    .split('\n')
    .map((line, index) => ({ line: line.replace(/#.*/, '').trim(), number: index + 1 }))
    .filter(({ line }) => line !== '')
    .map(({ line, number }) => parseNight(line, `${file} line ${number}`));
  if (nights.length === 0) throw new NightbenchError('usage', `${file} lists no night`);
  return [...new Set(nights)].sort();
}

/** Shard `index` of `count`: every count-th night, so each shard spans the whole range (a time limit cuts all shards alike). */
export function shardNights(nights: readonly string[], shard: { index: number; count: number }): string[] {
  return nights.filter((_, position) => position % shard.count === shard.index - 1);
}

/** `all`: the nights asked for, oldest first (a range, {@link nightsOfRange}, or a list, {@link parseNightsFile}). */
export function planBackfill(all: readonly string[], options: { recorded: ReadonlySet<string>; redo: boolean; shard?: { index: number; count: number } }): BackfillPlan {
  const nights = options.shard ? shardNights(all, options.shard) : [...all];
  const skipped = options.redo ? [] : nights.filter((night) => options.recorded.has(night));
  const done = new Set(skipped);
  return { nights, toRecord: nights.filter((night) => !done.has(night)), skipped };
}

/**
 * Seconds left, from the nights recorded so far by this start (a first night's duration stands
 * for all); undefined before any night has finished.
 */
export function estimateSecondsLeft(finishedSeconds: readonly number[], nightsLeft: number): number | undefined {
  if (finishedSeconds.length === 0) return undefined;
  const mean = finishedSeconds.reduce((sum, seconds) => sum + seconds, 0) / finishedSeconds.length;
  return mean * nightsLeft;
}
