/**
 * What the compare page compares: the data file's shape, the two sets a reader picks (a night, a
 * date range, the nights of a commit, or the groups of an A/B test), the selection as it lives in
 * the address (so a link shares a comparison), and the rows' inputs for `compareTable`. Pure and
 * bundled for the browser.
 *
 * @module
 */
import type { MetricDirection } from '../../direction.js';
import type { NoiseBand } from '../../ab/verdict.js';
import type { RatioInterval } from '../../stats/index.js';
import { fromUnits, unitPower } from '../format.js';
import type { MachineNightNote } from '../types.js';
import { nightlyNoiseBand, type CompareInput } from './table.js';

/** One nightly series; its values are in the per-night files (`CompareNight`), in units of 10^exponent. */
export interface CompareSeries {
  suite: string;
  workload: string;
  metric: string;
  unit: string;
  variant: string;
  /** The workload page, from the site root. */
  href: string;
  direction: MetricDirection;
  /** Night-to-night relative spread of the nightly medians (the status' band when no A/A band applies). */
  noise?: number;
  exponent: number;
}

/**
 * One night's repeats of every series that has values that night, as flat arrays (not one array
 * per series: a night of 20,000 series parses in a third of the time, 14 ms against 40, and a
 * change of selection loads up to fourteen nights). `runs` holds triples (first series, series
 * in the run, repeats of each): series `first` to `first + n - 1` (indices into
 * `CompareData.series`) each take the next `repeats` of `values`. A night on which every series
 * ran its usual repeats is one triple, where a list of series and counts was a fifth of the file.
 */
export interface CompareNight {
  runs: number[];
  values: ArrayLike<number>;
}

/**
 * A night as its file holds it: `values` packed three characters a value ({@link packNightValues}).
 * A change of selection loads up to fourteen such files, and the page read a night of 20,000
 * series' numbers (60,000 values, 359 KB) through `JSON.parse`; packed, the file is half the
 * size and the page unpacks it in a loop (headless Chromium from file://, seven nights loaded
 * at once, alternated four times: 63-73 ms against 88-107).
 */
export interface StoredCompareNight {
  runs: number[];
  values: string;
}

const packAlphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const packCodes = Uint8Array.from(packAlphabet, (c) => c.charCodeAt(0));
/** Values are stored offset by this, in 18 bits: -131072 to 131071 units. */
const packOffset = 1 << 17;

/**
 * Packs integer values (units of 10^exponent, at most 100,000 in size by the choice of
 * exponent: five significant digits) three characters each. A value outside the 18 bits is a
 * bug of the units, not data to lose: it throws.
 */
export function packNightValues(values: readonly number[]): string {
  const bytes = new Uint8Array(values.length * 3);
  values.forEach((value, i) => {
    const stored = value + packOffset;
    if (!Number.isInteger(value) || stored < 0 || stored >= 1 << 18) throw new Error(`a compare night value of ${value} units does not fit the packed form`);
    bytes[3 * i] = packCodes[stored >> 12]!;
    bytes[3 * i + 1] = packCodes[(stored >> 6) & 63]!;
    bytes[3 * i + 2] = packCodes[stored & 63]!;
  });
  // ASCII, so UTF-8 decoding is the identity (a string of a character per value cost 0.85 s at 1.86 million values).
  return new TextDecoder().decode(bytes);
}

/** The character codes' places in the alphabet. */
const unpackTable = (() => {
  const table = new Int32Array(128);
  for (let i = 0; i < packAlphabet.length; i++) table[packAlphabet.charCodeAt(i)] = i;
  return table;
})();

/** The values {@link packNightValues} packed. */
export function unpackNightValues(packed: string): Int32Array {
  const values = new Int32Array(packed.length / 3);
  for (let i = 0, at = 0; i < values.length; i++, at += 3) {
    values[i] = ((unpackTable[packed.charCodeAt(at)]! << 12) | (unpackTable[packed.charCodeAt(at + 1)]! << 6) | unpackTable[packed.charCodeAt(at + 2)]!) - packOffset;
  }
  return values;
}

/** Adds series `series` with `repeats` values to a night's `runs` ({@link CompareNight}); series come in increasing order. */
export function appendToRuns(runs: number[], series: number, repeats: number): void {
  const last = runs.length - 3;
  if (last >= 0 && runs[last]! + runs[last + 1]! === series && runs[last + 2] === repeats) runs[last + 1]!++;
  else runs.push(series, 1, repeats);
}

/** One test of an A/B report, with both groups' repeats and its A/A band. */
export interface CompareAbTest {
  workload: string;
  metric: string;
  unit: string;
  direction: MetricDirection;
  base: number[];
  new: number[];
  band?: NoiseBand;
  /** The report's interval of the ratio, when it is a 95% one (the compare table's level). */
  interval?: RatioInterval;
}

export interface CompareData {
  generatedAt: string;
  /** Every night of the history, ascending. */
  nights: string[];
  /** Each commit a night ran, with the nights that ran it. */
  commits: { repo: string; sha: string; nights: number[] }[];
  series: CompareSeries[];
  ab: { id: string; title: string; baseline: string; candidate: string; tests: CompareAbTest[] }[];
  /** Nights detection found the machine, not the code, moved (absent: none). */
  machineNights?: MachineNightNote[];
}

/** One side of a comparison. */
export type SetChoice =
  | { kind: 'night'; night: string }
  | { kind: 'range'; from: string; to: string }
  | { kind: 'commit'; repo: string; sha: string };

/** Two sets of nights, or both groups of one A/B test. */
export type Selection = { kind: 'nightly'; base: SetChoice; new: SetChoice } | { kind: 'ab'; id: string };

const night = /^\d{4}-\d{2}-\d{2}$/;

/** A side as the address writes it: `night:2026-01-02`, `range:2026-01-01..2026-01-07`, `commit:dask/dask@sha`. */
export function formatChoice(choice: SetChoice): string {
  if (choice.kind === 'night') return `night:${choice.night}`;
  if (choice.kind === 'range') return `range:${choice.from}..${choice.to}`;
  return `commit:${choice.repo}@${choice.sha}`;
}

export function parseChoice(text: string): SetChoice | undefined {
  const [kind, rest = ''] = [text.slice(0, text.indexOf(':')), text.slice(text.indexOf(':') + 1)];
  if (kind === 'night' && night.test(rest)) return { kind, night: rest };
  if (kind === 'range') {
    const [from = '', to = ''] = rest.split('..');
    if (night.test(from) && night.test(to)) return { kind, from, to };
  }
  if (kind === 'commit') {
    const at = rest.lastIndexOf('@');
    if (at > 0 && at < rest.length - 1) return { kind, repo: rest.slice(0, at), sha: rest.slice(at + 1) };
  }
  return undefined;
}

/** The selection as the address' fragment: `base=...&new=...`, or `ab=<id>`. */
export function selectionFragment(selection: Selection): string {
  const params = selection.kind === 'ab' ? [['ab', selection.id]] : [['base', formatChoice(selection.base)], ['new', formatChoice(selection.new)]];
  return new URLSearchParams(params).toString();
}

export function parseSelection(fragment: string): Selection | undefined {
  const params = new URLSearchParams(fragment.replace(/^#/, ''));
  const ab = params.get('ab');
  if (ab) return { kind: 'ab', id: ab };
  const base = parseChoice(params.get('base') ?? '');
  const next = parseChoice(params.get('new') ?? '');
  return base && next ? { kind: 'nightly', base, new: next } : undefined;
}

/** The nights (indices into `data.nights`) a side stands for. */
export function nightsOf(data: CompareData, choice: SetChoice): Set<number> {
  if (choice.kind === 'night') return new Set(data.nights.flatMap((n, i) => (n === choice.night ? [i] : [])));
  if (choice.kind === 'range') return new Set(data.nights.flatMap((n, i) => (n >= choice.from && n <= choice.to ? [i] : [])));
  const sha = choice.sha.toLowerCase();
  // A short sha names a commit as well as a full one, as in git.
  return new Set(data.commits.filter((c) => c.repo === choice.repo && c.sha.toLowerCase().startsWith(sha)).flatMap((c) => c.nights));
}

/**
 * The machine nights inside either set of a nightly selection or between them, oldest first: a
 * change across one may be the machine's, not the code's (the host of the real Dask history ran
 * 28% faster from one night on, and hid the planted +30% of a range after it).
 */
export function machineNightsAcross(data: CompareData, selection: Selection): MachineNightNote[] {
  if (selection.kind === 'ab' || !data.machineNights?.length) return [];
  const chosen = [...nightsOf(data, selection.base), ...nightsOf(data, selection.new)].map((i) => data.nights[i]!).sort();
  if (chosen.length === 0) return [];
  const [first, last] = [chosen[0]!, chosen.at(-1)!];
  return data.machineNights.filter((m) => m.night >= first && m.night <= last).sort((a, b) => a.night.localeCompare(b.night));
}

/** A row's identity: the series, or the A/B test. */
export interface CompareSubject {
  suite?: string;
  workload: string;
  metric: string;
  unit: string;
  variant?: string;
  href?: string;
}

/** The nights a selection needs loaded (none for an A/B test). */
export function nightsNeeded(data: CompareData, selection: Selection): number[] {
  if (selection.kind === 'ab') return [];
  return [...new Set([...nightsOf(data, selection.base), ...nightsOf(data, selection.new)])].sort((a, b) => a - b);
}

/** Each series' row key and noise band, once per series. */
const seriesKeys = new WeakMap<CompareSeries, { key: string; band: CompareInput['band'] }>();

/**
 * The table's inputs for a selection, with what each row is about; values decoded from units.
 * `night(i)`: the loaded values of night i (every night `nightsNeeded` names).
 */
export function compareInputs(data: CompareData, selection: Selection, night: (index: number) => CompareNight | undefined = () => undefined): { subjects: CompareSubject[]; inputs: CompareInput[] } {
  if (selection.kind === 'ab') {
    const report = data.ab.find((r) => r.id === selection.id);
    const tests = report?.tests ?? [];
    return {
      subjects: tests.map(({ workload, metric, unit }) => ({ workload, metric, unit })),
      inputs: tests.map((t) => ({ key: `${t.workload}/${t.metric}`, base: t.base, new: t.new, direction: t.direction, band: t.band, ...(t.interval ? { interval: t.interval } : {}) })),
    };
  }
  /** Each series' values over `nights`, by series index (undefined: no value). */
  const gather = (nights: Set<number>) => {
    const bySeries: (number[] | undefined)[] = new Array(data.series.length);
    for (const index of nights) {
      const loaded = night(index);
      if (!loaded) continue;
      const { runs, values } = loaded;
      let at = 0;
      for (let r = 0; r < runs.length; r += 3) {
        const first = runs[r]!;
        const seriesEnd = first + runs[r + 1]!;
        const repeats = runs[r + 2]!;
        for (let series = first; series < seriesEnd; series++) {
          const exponent = data.series[series]!.exponent;
          const power = unitPower(exponent);
          const into = (bySeries[series] ??= []);
          for (const end = at + repeats; at < end; at++) into.push(fromUnits(values[at]!, exponent, power));
        }
      }
    }
    return bySeries;
  };
  const base = gather(nightsOf(data, selection.base));
  const next = gather(nightsOf(data, selection.new));
  const subjects: CompareSubject[] = [];
  const inputs: CompareInput[] = [];
  data.series.forEach((s, i) => {
    if (base[i] === undefined && next[i] === undefined) return;
    // The series is its own subject; its key and band are made once, not on every change of selection.
    subjects.push(s);
    let known = seriesKeys.get(s);
    if (!known) seriesKeys.set(s, (known = { key: `${s.suite}/${s.workload}/${s.metric}/${s.variant}`, band: s.noise === undefined ? undefined : nightlyNoiseBand(s.noise) }));
    inputs.push({ key: known.key, base: base[i] ?? [], new: next[i] ?? [], direction: s.direction, band: known.band });
  });
  return { subjects, inputs };
}
