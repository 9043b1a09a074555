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
 *
 * With --real, the same check on real series instead (the project's rule: a claim about detection
 * holds on real data too): REALISE's Firefox series (/work/shared/data/realise, one value a night),
 * which wander, drift, are bimodal and correlated night to night. Each series is run night after
 * night once, unplanted; at plant nights t (every `--every` nights from `--from` on) away from a
 * labelled change point (+/-10 rows) and from any episode (none active, none opened in the 10 nights
 * before), the night before is read for its 3-night promise, and a step of exactly that size is
 * planted from t on (in the worse direction) and run from t, the episodes as they stood: caught as a
 * synthetic step is. The unplanted series' own openings on the same nights, by the same rule, are
 * the base rate a catch is read against.
 *   npx tsx bench/sensitivity-calibration.ts --real [--realise DIR] [--every 5] [--from 40] [--json]
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { median } from 'simple-statistics';
import { defaultDetectionPolicy as policy, type DetectionPolicy } from '../src/detect/policy.js';
import { detectableWithin, detectionPower, minimumDetectable } from '../src/detect/sensitivity.js';
import type { SeriesVerdict } from '../src/detect/judge.js';
import type { Episode, EpisodeChange } from '../src/detect/episodes.js';
import type { ResultRow } from '../src/history/types.js';
import { lagOneCorrelation } from '../src/stats/noise.js';
import { nightAt, runNights, seriesRows, valueRows, type SeriesSpec } from '../test/detect/helpers.js';
import { readRealiseSeries, type RealiseSeries } from './realise-data.js';

const { values: flags } = parseArgs({
  options: {
    series: { type: 'string', default: '2000' },
    seed: { type: 'string', default: '1' },
    json: { type: 'boolean', default: false },
    repeats: { type: 'string', multiple: true, default: [] },
    real: { type: 'boolean', default: false },
    realise: { type: 'string', default: path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../shared/data/realise') },
    every: { type: 'string', default: '5' },
    from: { type: 'string', default: '40' },
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

/** How far from the step a caught episode's first bad night may be (nights, either way). */
const firstBadSlack = 2;

/**
 * Whether `changes` open a regression whose first bad night is within {@link firstBadSlack} of the
 * night of index `step`: what counts as catching a step planted there (and, on an unplanted real
 * series, as an opening that would have been credited to one).
 */
function opensAt(changes: readonly EpisodeChange[], step: number): boolean {
  const from = nightAt(Math.max(0, step - firstBadSlack));
  const to = nightAt(step + firstBadSlack);
  return changes.some((c) => c.action === 'open' && c.episode.kind === 'regression' && c.episode.firstBad.night >= from && c.episode.firstBad.night <= to);
}

/**
 * Runs detection over `rows` (stepped from the night of index `step`) on that night and the
 * `nights - 1` after it, `start` the episodes as they stood the night before, and says whether the
 * step was caught ({@link opensAt}); with the first and last nights' verdicts.
 */
function runStep(rows: readonly ResultRow[], step: number, nights: number, start: Episode[] = [], at: DetectionPolicy = policy): { caught: boolean; first: SeriesVerdict; last: SeriesVerdict } {
  const run = runNights(rows, at, step, step + nights - 1, start);
  return { caught: opensAt(run.changes.flat(), step), first: run.verdicts[0]![0]!, last: run.verdicts.at(-1)![0]! };
}

/** Whether detection catches a step of `factor` planted after `stepNight` nights of a synthetic series, within `nights` nights. */
function plant(spec: SeriesSpec, factor: number, nights: number): { caught: boolean; first: SeriesVerdict; last: SeriesVerdict } {
  return runStep(seriesRows({ ...spec, nights: stepNight + nights, steps: [{ from: stepNight, factor }] }), stepNight, nights);
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

function synthetic(): void {
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
}

// ---------------------------------------------------------------- real series (--real)

/** Plant nights this close to a labelled change point (rows, either way) are skipped: the series is not at one level there. */
const labelSlack = 10;
/** Plant nights with an episode opened this few nights before are skipped, as are those with one active: the series is not at a judged level. */
const episodeSlack = 10;
/** Nights before a plant whose lag-1 correlation and kurtosis are reported with it (the lookback's). */
const shapeNights = policy.lookbackDays;

/** Excess kurtosis of `xs` (0 for a normal sample; outlier nights raise it). */
function excessKurtosis(xs: readonly number[]): number {
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const moment = (k: number) => xs.reduce((a, x) => a + (x - mean) ** k, 0) / xs.length;
  return moment(2) > 0 ? moment(4) / moment(2) ** 2 - 3 : 0;
}

/** What the plants into one real series (or all, pooled) found. */
export interface RealTally {
  series: string;
  name: string;
  /** Plant nights considered, and those skipped: near a labelled change point, near an episode, no promise yet (too few nights at its level). */
  considered: number;
  skipped: { label: number; episode: number; noPromise: number };
  /** Steps planted at the 3-night promise, and of those the promises the threshold, not the noise, limits. */
  planted: number;
  thresholdLimited: number;
  /** Steps caught within their 3 nights. */
  caught: number;
  /** Plant nights on which the unplanted series opens a regression by the same rule (the base rate). */
  unplantedOpens: number;
  /** Steps caught among the plants whose unplanted series opened nothing (a catch not owed to an opening that happens anyway). */
  caughtWhereQuiet: number;
  /**
   * Each step planted: its size (relative), the lag-1 correlation and excess kurtosis of the
   * series' log values over the {@link shapeNights} nights before it, whether it was caught (else why not).
   */
  plants: { night: number; size: number; correlation: number; kurtosis: number; caught: boolean; thresholdLimited: boolean; missed?: string }[];
  /** Why the missed steps were missed, on their third night (the persistence path's failed condition). */
  misses: Record<string, number>;
}

/**
 * Runs one real series unplanted night after night, and at every plant night that qualifies
 * plants a step of its 3-night promise and runs detection from that night, the episodes as the
 * unplanted run left them the night before.
 */
function runReal(series: RealiseSeries, every: number, from: number): RealTally {
  // The values are lower-is-better in every series of the set; a higher-is-better one is judged so and stepped down.
  const at: DetectionPolicy = series.lowerIsBetter ? policy : { ...policy, directions: { ...policy.directions, wall_time: 'higher' } };
  const worse = (size: number) => (series.lowerIsBetter ? 1 + size : 1 / (1 + size));
  const { values } = series;
  const nights = at.persistNights;
  const rows = valueRows(values.map((v) => [v]));
  const tally: RealTally = {
    series: series.signature, name: series.name, considered: 0, skipped: { label: 0, episode: 0, noPromise: 0 },
    planted: 0, thresholdLimited: 0, caught: 0, unplantedOpens: 0, caughtWhereQuiet: 0, plants: [], misses: {},
  };
  let episodes: Episode[] = [];
  /** Nights (indices) on which the unplanted run opened an episode. */
  const opened: number[] = [];
  let next = 0;
  for (let t = from; t + nights <= values.length; t += every) {
    // The unplanted series, judged up to the night before the plant.
    const run = runNights(rows, at, next, t - 1, episodes);
    run.changes.forEach((changes, k) => {
      if (changes.some((c) => c.action === 'open')) opened.push(next + k);
    });
    episodes = run.episodes;
    next = t;
    const before = run.verdicts.at(-1)![0]!;
    tally.considered++;
    if (series.truth.some((label) => Math.abs(label - t) <= labelSlack)) {
      tally.skipped.label++;
      continue;
    }
    if (episodes.some((e) => e.state === 'open' || e.state === 'still-regressed') || opened.some((night) => night >= t - episodeSlack)) {
      tally.skipped.episode++;
      continue;
    }
    const detectable = before.detectable;
    if (detectable === undefined) {
      tally.skipped.noPromise++;
      continue;
    }
    const promised = detectableWithin(detectable, nights)!;
    const planted = valueRows(values.slice(0, t + nights).map((v, i) => [i >= t ? v * worse(promised) : v]));
    const step = runStep(planted, t, nights, episodes, at);
    const unplanted = runStep(rows, t, nights, episodes, at).caught;
    const thresholdLimited = minimumDetectable(detectable.basis, at, nights) <= detectable.basis.threshold;
    tally.planted++;
    if (thresholdLimited) tally.thresholdLimited++;
    const before30 = values.slice(Math.max(0, t - shapeNights), t).map(Math.log);
    tally.plants.push({
      night: t, size: promised, correlation: lagOneCorrelation(before30), kurtosis: excessKurtosis(before30), caught: step.caught, thresholdLimited,
      ...(step.caught ? {} : { missed: persistMiss(step.last) }),
    });
    if (step.caught) tally.caught++;
    if (unplanted) tally.unplantedOpens++;
    if (step.caught && !unplanted) tally.caughtWhereQuiet++;
    if (!step.caught) tally.misses[persistMiss(step.last)] = (tally.misses[persistMiss(step.last)] ?? 0) + 1;
  }
  return tally;
}

function pooled(tallies: readonly RealTally[]): RealTally {
  const sum = (f: (t: RealTally) => number) => tallies.reduce((total, t) => total + f(t), 0);
  const misses: Record<string, number> = {};
  for (const t of tallies) for (const [why, n] of Object.entries(t.misses)) misses[why] = (misses[why] ?? 0) + n;
  return {
    series: 'pooled', name: `${tallies.length} series`, considered: sum((t) => t.considered),
    skipped: { label: sum((t) => t.skipped.label), episode: sum((t) => t.skipped.episode), noPromise: sum((t) => t.skipped.noPromise) },
    planted: sum((t) => t.planted), thresholdLimited: sum((t) => t.thresholdLimited), caught: sum((t) => t.caught), unplantedOpens: sum((t) => t.unplantedOpens),
    caughtWhereQuiet: sum((t) => t.caughtWhereQuiet), plants: tallies.flatMap((t) => t.plants), misses,
  };
}

function real(): void {
  const every = Number(flags.every);
  const from = Number(flags.from);
  const dir = flags.realise;
  const tallies = readRealiseSeries(dir).map((series) => runReal(series, every, from));
  const all = [...tallies, pooled(tallies)];
  if (flags.json) {
    console.log(JSON.stringify({ every, from, nights: policy.persistNights, labelSlack, episodeSlack, firstBadSlack, detectionPower, series: all }, null, 2));
    return;
  }
  /** A share with its binomial standard error (plants taken as independent), in points. */
  const share = (k: number, n: number) => (n === 0 ? '-' : `${((100 * k) / n).toFixed(0)}% +/- ${(100 * Math.sqrt((k / n) * (1 - k / n) / n)).toFixed(0)}`);
  console.log(
    `REALISE, ${tallies.length} series, one value a night: a step of the 3-night promise planted every ${every} nights from night ${from} ` +
      `(none within ${labelSlack} rows of a labelled change point, ${episodeSlack} nights of an episode); caught: a regression opened on its ${policy.persistNights} nights, ` +
      `its first bad night within ${firstBadSlack} of the step; promised: ${100 * detectionPower}%`,
  );
  console.log('| series | test | plant nights (skipped: label, episode, no promise) | plants (threshold-limited) | median promise | caught | unplanted opens | caught where unplanted quiet | misses |');
  console.log('|---|---|--:|--:|--:|--:|--:|--:|---|');
  for (const t of all) {
    const misses = Object.entries(t.misses).map(([why, n]) => `${why} ${n}`).join(', ');
    const quiet = t.planted - t.unplantedOpens;
    console.log(
      `| ${t.series} | ${t.name} | ${t.considered} (${t.skipped.label}, ${t.skipped.episode}, ${t.skipped.noPromise}) | ${t.planted} (${t.thresholdLimited}) | ` +
        `${t.planted === 0 ? '-' : `+${(100 * median(t.plants.map((p) => p.size))).toFixed(1)}%`} | ${share(t.caught, t.planted)} | ${share(t.unplantedOpens, t.planted)} | ${share(t.caughtWhereQuiet, quiet)} | ${misses} |`,
    );
  }
  // The path widens its standard error for the correlation it measures, which the promise reads
  // from the series' own nights (`correlationAllowance` in src/detect/sensitivity.ts); outlier
  // nights in the baseline keep a step's nights from ranking apart (`shiftRanksApart`).
  const plants = all.at(-1)!.plants;
  const breakdown = (title: string, of: (p: RealTally['plants'][number]) => number, bands: number[]) => {
    const bounds = [Number.NEGATIVE_INFINITY, ...bands, Number.POSITIVE_INFINITY];
    console.log(`\n| ${title} | plants | caught |`);
    console.log('|---|--:|--:|');
    for (let i = 0; i + 1 < bounds.length; i++) {
      const band = plants.filter((p) => of(p) >= bounds[i]! && of(p) < bounds[i + 1]!);
      const name = i === 0 ? `below ${bounds[1]}` : i === bounds.length - 2 ? `${bounds[i]} or more` : `${bounds[i]} to ${bounds[i + 1]}`;
      console.log(`| ${name} | ${band.length} | ${share(band.filter((p) => p.caught).length, band.length)} |`);
    }
  };
  console.log(`\nPooled, by the shape of the series' log values over the ${shapeNights} nights before the step:`);
  breakdown('lag-1 correlation', (p) => p.correlation, [0.1, 0.2, 0.3]);
  breakdown('excess kurtosis', (p) => p.kurtosis, [1, 3]);
  const calm = plants.filter((p) => p.correlation < 0.2 && p.kurtosis < 3);
  const rest = plants.filter((p) => !(p.correlation < 0.2 && p.kurtosis < 3));
  console.log('\n| nights before the step | plants | caught |\n|---|--:|--:|');
  console.log(`| correlation below 0.2 and kurtosis below 3 | ${calm.length} | ${share(calm.filter((p) => p.caught).length, calm.length)} |`);
  console.log(`| either above | ${rest.length} | ${share(rest.filter((p) => p.caught).length, rest.length)} |`);
}

if (flags.real) real();
else synthetic();
