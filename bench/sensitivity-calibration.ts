/**
 * Is the sensitivity a series shows true (issue 23 item 2)? For synthetic series of CV 3, 5 and
 * 10% (and one with night-to-night noise on top of its repeats') at 1, 3 and 5 repeats, each with
 * 30 nights before a step: judges the night before the step, reads the promised first-night and
 * 3-night figures from the verdict's `detectable` (src/detect/sensitivity.ts), plants a step of
 * exactly that size, and counts the share detection opens on the step's first night (the fast
 * path's promise) and within its first 3 nights. A figure promises {@link detectionPower} (80%).
 * Promises the threshold limits (what the noise alone allows, `minimumDetectable`, is at or below
 * it) are counted apart: detection reports nothing smaller than the threshold, so the promise is
 * what the threshold's own gate allows (the threshold itself, before that gate was counted).
 * Seeded: the figures do not depend on the machine or its load.
 *   npx tsx bench/sensitivity-calibration.ts [--series 2000] [--seed 1] [--json] [--repeats R]...
 * At 2000 series a cell the binomial error of an 80% share is about +/-0.9 points (one standard error;
 * +/-2.8 at 200), and the run takes under a minute on 2 cores.
 */
import { parseArgs } from 'node:util';
import { defaultDetectionPolicy as policy } from '../src/detect/policy.js';
import { detectableWithin, detectionPower, minimumDetectable } from '../src/detect/sensitivity.js';
import type { SeriesVerdict } from '../src/detect/judge.js';
import { runNights, seriesRows, type SeriesSpec } from '../test/detect/helpers.js';

const { values: flags } = parseArgs({
  options: {
    series: { type: 'string', default: '2000' },
    seed: { type: 'string', default: '1' },
    json: { type: 'boolean', default: false },
    repeats: { type: 'string', multiple: true, default: [] },
  },
});

/** Nights before the step (the step is planted on this night's index). */
const stepNight = 30;
const seriesCount = Number(flags.series);
const seedBase = Number(flags.seed) * 1_000_000;

interface Case {
  name: string;
  cv: number;
  nightCv?: number;
}
const cases: Case[] = [
  { name: 'CV 3%', cv: 0.03 },
  { name: 'CV 5%', cv: 0.05 },
  { name: 'CV 10%', cv: 0.1 },
  { name: 'CV 5% + 4% nightly', cv: 0.05, nightCv: 0.04 },
];
const repeatCounts = [1, 3, 5];
const onlyRepeats = new Set(flags.repeats.map(Number));

/** Planted steps of one kind in one cell: how many, how many caught, and the mean promise. */
export interface Tally {
  planted: number;
  caught: number;
  /** Mean planted size (relative). */
  meanSize: number;
}

export interface Cell {
  case: string;
  cv: number;
  nightCv: number;
  repeats: number;
  /** Series whose night before the step had no figure or opened an episode (left out). */
  excluded: number;
  /** The first-night promise where the noise limits it, planted: caught on the step's night. */
  firstNight: Tally;
  /** The first-night promise where the threshold limits it, planted: caught on the step's night. */
  firstNightFloor: Tally;
  /** The 3-night promise where the noise limits it, planted: caught within 3 nights. */
  within: Tally;
  /** The 3-night promise where the threshold limits it, planted: caught within 3 nights. */
  withinFloor: Tally;
  /** Why the noise-limited first-night plants were missed on their night (the fast path's failed conditions). */
  firstNightMisses: Record<string, number>;
  /** Why the noise-limited 3-night plants were missed, on their third night (the persistence path's failed condition). */
  withinMisses: Record<string, number>;
}

const tally = (): Tally & { sizes: number } => ({ planted: 0, caught: 0, meanSize: 0, sizes: 0 });

/** Whether detection opens a regression on nights `stepNight` .. `stepNight + nights - 1` of a series stepped by `factor`; with the first night's verdict. */
function plant(spec: SeriesSpec, factor: number, nights: number): { caught: boolean; first: SeriesVerdict; last: SeriesVerdict } {
  const rows = seriesRows({ ...spec, nights: stepNight + nights, steps: [{ from: stepNight, factor }] });
  const run = runNights(rows, policy, stepNight, stepNight + nights - 1);
  return { caught: run.changes.some((changes) => changes.some((c) => c.action === 'open')), first: run.verdicts[0]![0]!, last: run.verdicts.at(-1)![0]! };
}

/** The persistence path's failed condition on a step's last night: too few standard errors, its nights not ranking apart, or another gate (below the threshold, tonight back). */
function persistMiss(verdict: SeriesVerdict): string {
  if (verdict.shiftZ === undefined) return 'no shift';
  if (Math.abs(verdict.shiftZ) < policy.persistZ) return 'z below persistZ';
  if (verdict.reason.includes('do not rank apart')) return 'ranks';
  return 'threshold gate or tonight back';
}

function missReasons(verdict: SeriesVerdict): string[] {
  const reasons = ['below threshold', 'not significant', 'within', 'was at this level', 'young'].filter((r) => verdict.reason.includes(r));
  return reasons.length > 0 ? reasons : ['other'];
}

function runCell(c: Case, repeats: number, cellIndex: number): Cell {
  const cell = { firstNight: tally(), firstNightFloor: tally(), within: tally(), withinFloor: tally() };
  const firstNightMisses: Record<string, number> = {};
  const withinMisses: Record<string, number> = {};
  let excluded = 0;
  for (let s = 0; s < seriesCount; s++) {
    const spec: SeriesSpec = { seed: seedBase + cellIndex * 10_000 + s, nights: stepNight, repeats, cv: c.cv, ...(c.nightCv ? { nightCv: c.nightCv } : {}) };
    // The night before the step, judged alone: what the series promised when the step came.
    const before = runNights(seriesRows(spec), policy, stepNight - 1, stepNight - 1);
    const detectable = before.verdicts[0]![0]!.detectable;
    if (detectable === undefined || before.opened > 0) {
      excluded++;
      continue;
    }
    const { basis } = detectable;
    const threshold = basis.threshold;
    const count = (t: ReturnType<typeof tally>, size: number, caught: boolean) => {
      t.planted++;
      t.sizes += size;
      if (caught) t.caught++;
    };
    if (detectable.firstNight !== undefined) {
      const floor = minimumDetectable(basis, policy, 1) <= threshold;
      const { caught, first } = plant(spec, 1 + detectable.firstNight, 1);
      count(floor ? cell.firstNightFloor : cell.firstNight, detectable.firstNight, caught);
      if (!floor && !caught) for (const reason of missReasons(first)) firstNightMisses[reason] = (firstNightMisses[reason] ?? 0) + 1;
    }
    const promised = detectableWithin(detectable, detectable.nights)!;
    const within = plant(spec, 1 + promised, detectable.nights);
    const floor = minimumDetectable(basis, policy, detectable.nights) <= threshold;
    count(floor ? cell.withinFloor : cell.within, promised, within.caught);
    if (!floor && !within.caught) withinMisses[persistMiss(within.last)] = (withinMisses[persistMiss(within.last)] ?? 0) + 1;
  }
  const done = (t: ReturnType<typeof tally>): Tally => ({ planted: t.planted, caught: t.caught, meanSize: t.planted > 0 ? t.sizes / t.planted : Number.NaN });
  return {
    case: c.name, cv: c.cv, nightCv: c.nightCv ?? 0, repeats, excluded,
    firstNight: done(cell.firstNight), firstNightFloor: done(cell.firstNightFloor), within: done(cell.within), withinFloor: done(cell.withinFloor), firstNightMisses, withinMisses,
  };
}

const cells: Cell[] = [];
cases.forEach((c, i) =>
  repeatCounts.forEach((repeats, j) => {
    if (onlyRepeats.size === 0 || onlyRepeats.has(repeats)) cells.push(runCell(c, repeats, i * repeatCounts.length + j));
  }),
);

if (flags.json) {
  console.log(JSON.stringify({ series: seriesCount, seed: Number(flags.seed), stepNight, detectionPower, cells }, null, 2));
} else {
  const share = (t: Tally) => (t.planted === 0 ? '-' : `${((100 * t.caught) / t.planted).toFixed(0)}% of ${t.planted} (+${(100 * t.meanSize).toFixed(1)}%)`);
  console.log(`${seriesCount} series a cell, ${stepNight} nights before the step; share caught (of steps planted at the promise, their mean size); promised: ${100 * detectionPower}%`);
  console.log('| series | repeats | first night (noise-limited) | first night (threshold-limited) | within 3 nights (noise-limited) | within 3 (threshold-limited) | first-night misses | 3-night misses |');
  console.log('|---|--:|--:|--:|--:|--:|---|---|');
  for (const cell of cells) {
    const misses = (m: Record<string, number>) => Object.entries(m).map(([why, n]) => `${why} ${n}`).join(', ');
    console.log(`| ${cell.case} | ${cell.repeats} | ${share(cell.firstNight)} | ${share(cell.firstNightFloor)} | ${share(cell.within)} | ${share(cell.withinFloor)} | ${misses(cell.firstNightMisses)} | ${misses(cell.withinMisses)}${cell.excluded ? `; ${cell.excluded} excluded` : ''} |`);
  }
}
