/**
 * The bisect itself, over states 0 (last good) .. N (first bad), with measuring behind a port so
 * the same search runs on a real cluster, in tests and on a simulated runner. Pure apart from the
 * port: every decision is made here, from the values it returns.
 *
 * @module
 */
import { bootstrapRatioOfMedians, createRandom, mannWhitneyU, type RatioInterval } from '../stats/index.js';
import { decideStep, defaultDecisionPolicy, estimateLevels, judgeReproduction, requiredRepeats, type DecisionPolicy, type Levels, type StepVerdict } from './decide.js';
import { formatP, formatRatioInterval } from '../format/index.js';

/** One repeat at one state: its value, or why there is none (a failure, a time-out). */
export interface Observation {
  value?: number;
  error?: string;
}

/** What the search asks for: one repeat of the target at state `index`. */
export interface MeasurePort {
  measure(state: number): Promise<Observation>;
  /** Progress for a person (stderr). */
  progress?(line: string): void;
}

/** `metric`: a slowdown (values); `pass-fail`: a workload that started failing. */
export type BisectMode = 'metric' | 'pass-fail';

export interface BisectStep {
  /** `reproduce`: an end measured to see whether good and bad still differ; `step`: a candidate. */
  kind: 'reproduce' | 'step';
  state: number;
  values: number[];
  failures: number;
  verdict: StepVerdict | 'reproduced' | 'not-reproduced';
  /** 0 at the good level, 1 at the bad one (metric mode). */
  position?: number;
}

/** An interleaved A/B of two states: `before` the baseline, `after` the candidate. */
export interface Comparison {
  before: number;
  after: number;
  beforeValues: number[];
  afterValues: number[];
  beforeFailures: number;
  afterFailures: number;
  /** median(after) / median(before), metric mode only. */
  ratio?: RatioInterval;
  /** Two-sided Mann-Whitney p of after against before, metric mode only. */
  p?: number;
  /** The change held: significant with an interval excluding 1 (metric), or after fails where before passes. */
  confirmed: boolean;
}

export type Outcome =
  | { kind: 'culprit'; state: number }
  | { kind: 'spread'; from: number; to: number }
  | { kind: 'not-reproduced' }
  | { kind: 'ambiguous'; from: number; to: number };

export interface BisectResult {
  mode: BisectMode;
  outcome: Outcome;
  steps: BisectStep[];
  levels?: Levels;
  /** The culprit (or the spread's ends) against the state before: how sure the answer is. */
  confirmation?: Comparison;
  /** Repeats measured in all, references and confirmation included. */
  repeats: number;
}

export interface BisectOptions {
  mode: BisectMode;
  /** Number of the first bad state: states run 0..last. */
  last: number;
  policy?: DecisionPolicy;
  /** The series' noise of one repeat, relative (a floor under what the bisect measures). */
  priorNoise?: number;
  /** Seed of the confirmation's bootstrap. */
  seed?: number;
}

/** Finds the state that made the difference between state 0 and state `last`. */
export async function bisect(port: MeasurePort, options: BisectOptions): Promise<BisectResult> {
  const search = new Search(port, options);
  return search.run();
}

/** Last good against first bad as one interleaved A/B (a rerun of the night, no search). */
export async function rerun(port: MeasurePort, options: BisectOptions): Promise<BisectResult> {
  const search = new Search(port, options);
  const comparison = await search.compare(0, options.last);
  const outcome: Outcome = comparison.confirmed ? { kind: 'culprit', state: options.last } : { kind: 'not-reproduced' };
  return { mode: options.mode, outcome, steps: [], confirmation: comparison, repeats: search.repeats };
}

class Search {
  readonly policy: DecisionPolicy;
  repeats = 0;
  private readonly values = new Map<number, number[]>();
  private readonly failures = new Map<number, number>();
  private readonly steps: BisectStep[] = [];
  private readonly verdicts = new Map<number, StepVerdict>();
  private levels?: Levels;

  constructor(
    private readonly port: MeasurePort,
    private readonly options: BisectOptions,
  ) {
    this.policy = options.policy ?? defaultDecisionPolicy;
  }

  async run(): Promise<BisectResult> {
    const { last, mode } = this.options;
    const reproduced = mode === 'metric' ? await this.reproduceMetric() : await this.reproducePassFail();
    if (!reproduced) return this.result({ kind: 'not-reproduced' });
    let lo = 0;
    let hi = last;
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      const verdict = await this.classify(mid);
      if (verdict === 'good') lo = mid;
      else if (verdict === 'bad') hi = mid;
      else if (verdict === 'partial') {
        // Part of the change is in by `mid`: find where it starts and where it is whole.
        const from = await this.boundary(lo, mid, (v) => v !== 'good');
        const to = await this.boundary(mid, hi, (v) => v === 'bad');
        if (from === undefined || to === undefined) return this.result({ kind: 'ambiguous', from: lo + 1, to: hi });
        return this.finish({ kind: 'spread', from, to });
      } else return this.result({ kind: 'ambiguous', from: lo + 1, to: hi });
    }
    return this.finish({ kind: 'culprit', state: hi });
  }

  /** The first state in (lo, hi] where `isPast` holds, given it holds at hi and not at lo. */
  private async boundary(lo: number, hi: number, isPast: (v: StepVerdict) => boolean): Promise<number | undefined> {
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      const verdict = await this.classify(mid);
      if (verdict === 'undecided') return undefined;
      if (isPast(verdict)) hi = mid;
      else lo = mid;
    }
    return hi;
  }

  private async finish(outcome: Extract<Outcome, { kind: 'culprit' | 'spread' }>): Promise<BisectResult> {
    const [before, after] = outcome.kind === 'culprit' ? [outcome.state - 1, outcome.state] : [outcome.from - 1, outcome.to];
    const confirmation = await this.compare(before, after);
    return this.result(outcome, confirmation);
  }

  private result(outcome: Outcome, confirmation?: Comparison): BisectResult {
    return { mode: this.options.mode, outcome, steps: this.steps, levels: this.levels, confirmation, repeats: this.repeats };
  }

  private async reproduceMetric(): Promise<boolean> {
    const { last, priorNoise } = this.options;
    let verdict: ReturnType<typeof judgeReproduction> = 'more';
    for (let round = 0; verdict === 'more'; round++) {
      for (const state of round % 2 === 0 ? [0, last] : [last, 0]) await this.sample(state);
      verdict = judgeReproduction(this.valuesOf(0), this.valuesOf(last), this.policy, priorNoise);
      // Ends that keep failing cannot reproduce a slowdown: stop at the cap of attempts.
      if (verdict === 'more' && round + 1 >= this.policy.maxRepeats) verdict = 'not-reproduced';
    }
    if (this.valuesOf(0).length > 0 && this.valuesOf(last).length > 0) this.levels = estimateLevels(this.valuesOf(0), this.valuesOf(last), priorNoise);
    const reproduced = verdict === 'reproduced';
    for (const state of [0, last]) this.record('reproduce', state, reproduced ? 'reproduced' : 'not-reproduced');
    this.port.progress?.(`good ${format(this.levels?.good)} vs bad ${format(this.levels?.bad)}: ${reproduced ? 'reproduced' : 'not reproduced'} after ${this.repeats} repeats`);
    return reproduced;
  }

  private async reproducePassFail(): Promise<boolean> {
    const { last } = this.options;
    await this.sample(0);
    await this.sample(last);
    const reproduced = (this.failures.get(0) ?? 0) === 0 && (this.failures.get(last) ?? 0) > 0;
    for (const state of [0, last]) this.record('reproduce', state, reproduced ? 'reproduced' : 'not-reproduced');
    this.port.progress?.(`last good ${this.failures.get(0) ? 'fails' : 'passes'}, first bad ${this.failures.get(last) ? 'fails' : 'passes'}: ${reproduced ? 'reproduced' : 'not reproduced'}`);
    return reproduced;
  }

  /** Good, bad, partial or undecided: measured (interleaved with the ends) until decided or capped. */
  private async classify(state: number): Promise<StepVerdict> {
    const known = this.verdicts.get(state);
    if (known) return known;
    let verdict: StepVerdict;
    if (this.options.mode === 'pass-fail') {
      await this.sample(state);
      verdict = (this.failures.get(state) ?? 0) > 0 ? 'bad' : 'good';
    } else {
      verdict = await this.classifyMetric(state);
    }
    this.verdicts.set(state, verdict);
    this.record('step', state, verdict);
    this.port.progress?.(`state ${state}/${this.options.last}: ${verdict} after ${this.valuesOf(state).length} repeats (${this.repeats} in all)`);
    return verdict;
  }

  private async classifyMetric(state: number): Promise<StepVerdict> {
    const { last, priorNoise } = this.options;
    for (let round = 0; ; round++) {
      // Each candidate repeat sits next to a fresh repeat of one end, so drift moves both alike.
      const reference = round % 2 === 0 ? 0 : last;
      for (const s of round % 2 === 0 ? [state, reference] : [reference, state]) await this.sample(s);
      this.levels = estimateLevels(this.valuesOf(0), this.valuesOf(last), priorNoise);
      const values = this.valuesOf(state);
      const decision = decideStep(values, this.levels, this.policy);
      if (decision.verdict !== 'more') return decision.verdict;
      if (round + 1 >= this.policy.maxRepeats) return 'undecided';
    }
  }

  /** `before` against `after`, interleaved (ABBA), with a ratio interval and a p-value. */
  async compare(before: number, after: number): Promise<Comparison> {
    const beforeValues: number[] = [];
    const afterValues: number[] = [];
    const failures = { before: 0, after: 0 };
    const rounds = this.options.mode === 'pass-fail' ? 1 : Math.max(this.policy.confirmRepeats, this.levels ? requiredRepeats(this.levels, this.policy) : 0);
    for (let round = 0; round < rounds; round++) {
      for (const side of round % 2 === 0 ? (['before', 'after'] as const) : (['after', 'before'] as const)) {
        const observation = await this.observe(side === 'before' ? before : after);
        if (observation.value === undefined) failures[side]++;
        else (side === 'before' ? beforeValues : afterValues).push(observation.value);
      }
    }
    const base = { before, after, beforeValues, afterValues, beforeFailures: failures.before, afterFailures: failures.after };
    if (this.options.mode === 'pass-fail') return { ...base, confirmed: failures.before === 0 && failures.after > 0 };
    if (beforeValues.length === 0 || afterValues.length === 0 || beforeValues.some((v) => !(v > 0))) return { ...base, confirmed: false };
    const ratio = bootstrapRatioOfMedians(beforeValues, afterValues, { random: createRandom(this.options.seed ?? 1) });
    const { p } = mannWhitneyU(afterValues, beforeValues);
    const comparison = { ...base, ratio, p, confirmed: p < 0.05 && (ratio.low > 1 || ratio.high < 1) };
    this.port.progress?.(`confirmation ${before} -> ${after}: ${formatRatioInterval(ratio)}, p ${formatP(p)}`);
    return comparison;
  }

  private async sample(state: number): Promise<void> {
    const observation = await this.observe(state);
    if (observation.value === undefined) this.failures.set(state, (this.failures.get(state) ?? 0) + 1);
    else this.values.set(state, [...this.valuesOf(state), observation.value]);
  }

  private async observe(state: number): Promise<Observation> {
    this.repeats++;
    return this.port.measure(state);
  }

  private valuesOf(state: number): number[] {
    return this.values.get(state) ?? [];
  }

  private record(kind: BisectStep['kind'], state: number, verdict: BisectStep['verdict']): void {
    const values = this.valuesOf(state);
    const position = this.levels && values.length > 0 && this.levels.bad !== this.levels.good ? (mean(values) - this.levels.good) / (this.levels.bad - this.levels.good) : undefined;
    this.steps.push({ kind, state, values, failures: this.failures.get(state) ?? 0, verdict, ...(position === undefined ? {} : { position }) });
  }
}

function mean(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0) / values.length;
}

function format(value: number | undefined): string {
  return value === undefined ? '-' : value.toPrecision(4);
}
