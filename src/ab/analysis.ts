import type { MetricDirection } from '../direction.js';
import { benjaminiHochberg, bootstrapRatioOfMedians, createRandom, mannWhitneyU, smallestTwoSidedP, summarize, type RatioInterval, type Summary } from '../stats/index.js';
import type { AnalysisOptions } from '../config/ab-section.js';
import type { AbGroup } from './schedule.js';
import { abDirection, judge, noiseBand, type AbDirection, type NoiseBand, type Verdict } from './verdict.js';
import { formatP } from '../format/index.js';
import type { RepeatStatus } from '../history/types.js';

/** One measured value of one repeat, labelled with its group. */
export interface AbObservation {
  group: string;
  suite: string;
  workload: string;
  metric: string;
  unit: string;
  value: number;
}

/** A workload none of whose repeats ran cleanly in one group: a failure, not a slowdown, and nothing to compare. */
export interface AbFailure {
  group: string;
  suite: string;
  workload: string;
  /** The group's repeats of the workload by status; none is ok. */
  repeats: Partial<Record<Exclude<RepeatStatus, 'ok'>, number>>;
  /** The last line of the last recorded error, if any. */
  error?: string;
}

export interface AbAnalysisInput {
  groups: readonly AbGroup[];
  observations: readonly AbObservation[];
  /** Workloads that failed in a group; their missing values need no note of their own. */
  failures?: readonly AbFailure[];
  /** Direction of each metric, keyed by {@link testKey}; a metric not listed has none. */
  directions: Readonly<Record<string, MetricDirection>>;
  options: AnalysisOptions;
}

/** One comparison of one workload x metric between a group and the baseline. */
export interface AbTest {
  key: string;
  /** Label of the compared group (B, C, ... or A' for the null hypothesis); the baseline is A. */
  group: string;
  suite: string;
  workload: string;
  metric: string;
  unit: string;
  direction: AbDirection;
  baseline: Summary;
  candidate: Summary;
  /** Every clean repeat's value of each side, in the order they ran: the drill-down into the runs. */
  values: { baseline: number[]; candidate: number[] };
  /** median(candidate) / median(baseline) with its bootstrap interval; undefined when a baseline value is <= 0. */
  ratio?: RatioInterval;
  p: number;
  exact: boolean;
  /** Benjamini-Hochberg adjusted, within the test's family (all candidate tests, or all A/A tests). */
  pAdjusted: number;
  /** The A/A band of the same workload x metric, when the null hypothesis ran. */
  band?: NoiseBand;
  verdict: Verdict;
  reason: string;
}

export interface AbAnalysis {
  /** Each candidate against the baseline. */
  tests: AbTest[];
  /** A' against A: the noise of each test. A verdict other than "no clear change" here is a warning. */
  nullTests: AbTest[];
  /** Workloads that never ran cleanly in a group, told apart from the tests: they were not compared. */
  failures: AbFailure[];
  /** Caveats a reader must see: unreachable significance, noisy A/A pairs, missing values. */
  notes: string[];
}

/** The identity of a test across groups. */
export function testKey(suite: string, workload: string, metric: string): string {
  return `${suite}/${workload}/${metric}`;
}

/**
 * Per workload x metric: n, median, mean, standard deviation of each side; the ratio of medians
 * B/A with a seeded bootstrap interval; a two-sided Mann-Whitney p-value (exact for small n);
 * Benjamini-Hochberg across all candidate tests (and, separately, across all A/A tests); and a
 * verdict that needs both significance and a change beyond that test's A/A band. Pure.
 */
export function analyzeAb(input: AbAnalysisInput): AbAnalysis {
  const baseline = input.groups.find((g) => g.role === 'baseline');
  const failures = [...(input.failures ?? [])];
  if (!baseline) return { tests: [], nullTests: [], failures, notes: ['no baseline group'] };
  const values = groupValues(input.observations);
  const notes: string[] = [];
  const compare = (role: AbGroup['role']) =>
    adjust(
      input.groups.filter((g) => g.role === role).flatMap((group) => compareGroups(values, baseline.label, group.label, input, notes)),
    );
  const nullTests = compare('null').map((t) => withVerdict(t, input.options.fdr, undefined));
  const bands = new Map(nullTests.flatMap((t) => (t.ratio ? [[t.key, noiseBand(t.ratio)] as const] : [])));
  const tests = compare('candidate').map((t) => withVerdict(t, input.options.fdr, bands.get(t.key)));
  for (const t of nullTests) if (t.verdict !== 'no clear change') notes.push(`A/A differs on ${t.workload} ${t.metric} (adjusted p ${formatP(t.pAdjusted)}): the machine drifted or this test is noisier than its repeats show`);
  if (nullTests.length === 0 && tests.length > 0) notes.push('no null hypothesis (A/A) ran: verdicts rest on significance alone, without a noise band');
  const unbanded = tests.filter((t) => !t.ratio && t.verdict !== 'no clear change');
  if (unbanded.length > 0 && nullTests.length > 0) notes.push(`without a ratio (a baseline value of zero), so without an A/A band, significance alone decided: ${unbanded.map((t) => `${t.workload} ${t.metric}`).join(', ')}`);
  notes.push(...unreachableSignificance(tests, input.options.fdr));
  return { tests, nullTests, failures, notes };
}

/** Significant changes first, then by size of the effect (|log ratio|), largest first. */
export function byEffect(a: AbTest, b: AbTest): number {
  const changed = (t: AbTest) => (t.verdict === 'no clear change' ? 1 : 0);
  const size = (t: AbTest) => (t.ratio ? Math.abs(Math.log(t.ratio.ratio)) : -1);
  return changed(a) - changed(b) || size(b) - size(a) || a.key.localeCompare(b.key);
}

type Values = Map<string, { suite: string; workload: string; metric: string; unit: string; byGroup: Map<string, number[]> }>;

function groupValues(observations: readonly AbObservation[]): Values {
  const values: Values = new Map();
  for (const o of observations) {
    const key = testKey(o.suite, o.workload, o.metric);
    let entry = values.get(key);
    if (!entry) values.set(key, (entry = { suite: o.suite, workload: o.workload, metric: o.metric, unit: o.unit, byGroup: new Map() }));
    const list = entry.byGroup.get(o.group) ?? [];
    list.push(o.value);
    entry.byGroup.set(o.group, list);
  }
  return values;
}

type RawTest = Omit<AbTest, 'pAdjusted' | 'band' | 'verdict' | 'reason'>;

function compareGroups(values: Values, baselineLabel: string, label: string, input: AbAnalysisInput, notes: string[]): RawTest[] {
  const tests: RawTest[] = [];
  // Metrics without values on a side, by workload and side: one note per workload when it has none at all.
  const missing = new Map<string, { suite: string; workload: string; side: string; metrics: string[] }>();
  for (const [key, entry] of [...values].sort(([a], [b]) => a.localeCompare(b))) {
    const a = entry.byGroup.get(baselineLabel) ?? [];
    const b = entry.byGroup.get(label) ?? [];
    if (a.length === 0 || b.length === 0) {
      const side = a.length === 0 ? baselineLabel : label;
      const where = `${entry.suite}\u0000${entry.workload}\u0000${side}`;
      const gap = missing.get(where) ?? { suite: entry.suite, workload: entry.workload, side, metrics: [] };
      missing.set(where, { ...gap, metrics: [...gap.metrics, entry.metric] });
      continue;
    }
    // Both sides need spread to rank; one value a side says nothing about noise.
    const rank = a.length >= 2 && b.length >= 2 ? mannWhitneyU(b, a, { alternative: 'two-sided' }) : { p: 1, exact: false };
    const random = createRandom(mixSeed(input.options.seed, `${label}|${key}`));
    const ratio = a.every((v) => v > 0) ? bootstrapRatioOfMedians(a, b, { random, resamples: input.options.resamples, confidence: input.options.confidence }) : undefined;
    tests.push({
      key,
      group: label,
      suite: entry.suite,
      workload: entry.workload,
      metric: entry.metric,
      unit: entry.unit,
      direction: abDirection(input.directions[key]),
      baseline: summarize(a),
      candidate: summarize(b),
      values: { baseline: a, candidate: b },
      ratio,
      p: rank.p,
      exact: rank.exact,
    });
  }
  for (const { suite, workload, side, metrics } of missing.values()) {
    // A failed workload is told as a failure; its missing values are no news.
    if (input.failures?.some((f) => f.suite === suite && f.workload === workload && f.group === side)) continue;
    const measured = [...values.values()].filter((e) => e.suite === suite && e.workload === workload).length;
    if (metrics.length === measured) notes.push(`${workload}: no values for ${side}; not compared`);
    else for (const metric of metrics) notes.push(`${workload} ${metric}: no values for ${side}; not compared`);
  }
  return tests;
}

function adjust(tests: RawTest[]): (RawTest & { pAdjusted: number })[] {
  if (tests.length === 0) return [];
  const { adjusted } = benjaminiHochberg(tests.map((t) => t.p));
  return tests.map((t, i) => ({ ...t, pAdjusted: adjusted[i]! }));
}

function withVerdict(test: RawTest & { pAdjusted: number }, fdr: number, band: NoiseBand | undefined): AbTest {
  return { ...test, band, ...judge({ ratio: test.ratio?.ratio, difference: test.candidate.median - test.baseline.median, pAdjusted: test.pAdjusted, fdr, band, direction: test.direction }) };
}

function unreachableSignificance(tests: AbTest[], fdr: number): string[] {
  if (tests.length === 0) return [];
  const floor = Math.min(...tests.map((t) => smallestTwoSidedP(t.baseline.n, t.candidate.n)));
  if (floor * tests.length <= fdr) return [];
  const n = Math.min(...tests.map((t) => Math.min(t.baseline.n, t.candidate.n)));
  return [
    `with ${n} values a side the smallest possible p is ${formatP(floor)}: among ${tests.length} tests a lone difference cannot pass the FDR control at ${fdr}; use more repeats`,
  ];
}

/** A per-test seed from the A/B's seed, so that a test's interval does not depend on which others ran. */
function mixSeed(seed: number, label: string): number {
  let hash = (seed ^ 0x811c9dc5) >>> 0;
  for (let i = 0; i < label.length; i++) hash = Math.imul(hash ^ label.charCodeAt(i), 0x01000193) >>> 0;
  return hash;
}
