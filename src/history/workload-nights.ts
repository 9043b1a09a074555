/**
 * A run's workloads as their series read them: how each workload's repeats ended and, per
 * metric, the values of its ok repeats. Result rows folded once per run and workload, so that
 * detection groups thousands of these into series instead of millions of rows, and so that the
 * history can keep them per run (`run_points`, migration 023). Pure: no I/O.
 *
 * @module
 */
import type { Comparability, RepeatStatus, ResultRow, RunKind } from './types.js';

/** What a run says of all its workloads: the facts a series point takes from its run. */
export interface RunFacts extends Comparability {
  runId: string;
  kind: RunKind;
  suite: string;
  night: string;
  startedAt: string;
  /** repo -> sha */
  commits: Record<string, string>;
  machineClass?: string;
}

/**
 * One metric of one workload in one run; `values` are those of the ok repeats (disturbed ones
 * left out), in repeat order, and `repeats` their repeat numbers (the pages place each value by
 * them). A tuple, as stored: a night at 20,000 series decodes 600,000 of them.
 */
export type MetricValues = [metric: string, unit: string | null, values: number[], repeats: readonly number[]];

/** One run of one workload. */
export interface WorkloadNight {
  run: RunFacts;
  workload: string;
  workloadVersion: string;
  okRepeats: number;
  disturbedRepeats: number;
  /** Failed or timed out. */
  failedRepeats: number;
  /** Every metric a repeat reported (a disturbed one included), in the order first seen. */
  metrics: MetricValues[];
}

/**
 * Folds result rows, in any order, into one {@link WorkloadNight} per run and workload, in the
 * order each was first seen. A repeat has one row per metric, a failed one a single row without a
 * metric; a repeat's status is that of its first row.
 */
export function workloadNightsOfRows(rows: Iterable<ResultRow>): WorkloadNight[] {
  const folds = new Map<string, Fold>();
  const runs = new Map<string, RunFacts>();
  let previous: ResultRow | undefined;
  let fold: Fold | undefined;
  for (const row of rows) {
    if (fold === undefined || previous === undefined || row.runId !== previous.runId || row.workload !== previous.workload) {
      const key = `${row.runId}\0${row.workload}`;
      fold = folds.get(key);
      if (fold === undefined) {
        let run = runs.get(row.runId);
        if (run === undefined) runs.set(row.runId, (run = runFactsOf(row)));
        const night: WorkloadNight = { run, workload: row.workload, workloadVersion: row.workloadVersion, okRepeats: 0, disturbedRepeats: 0, failedRepeats: 0, metrics: [] };
        folds.set(key, (fold = { night, repeats: new Map(), metrics: new Map() }));
      }
    }
    previous = row;
    if (!fold.repeats.has(row.repeat)) fold.repeats.set(row.repeat, row.status);
    if (row.metric === null) continue;
    let metric = fold.metrics.get(row.metric);
    if (metric === undefined) {
      metric = { values: [], repeats: [] };
      fold.metrics.set(row.metric, metric);
      fold.night.metrics.push([row.metric, row.unit, metric.values, metric.repeats]);
    }
    if (row.status === 'ok' && row.value !== null) {
      metric.values.push(row.value);
      metric.repeats.push(row.repeat);
    }
  }
  return [...folds.values()].map(({ night, repeats }) => {
    for (const status of repeats.values()) {
      if (status === 'ok') night.okRepeats++;
      else if (status === 'disturbed') night.disturbedRepeats++;
      else night.failedRepeats++;
    }
    return night;
  });
}

/** A workload night being folded: its repeats' statuses and its metrics by name. */
interface Fold {
  night: WorkloadNight;
  repeats: Map<number, RepeatStatus>;
  /** metric -> the lists its {@link MetricValues} holds, being filled. */
  metrics: Map<string, { values: number[]; repeats: number[] }>;
}

function runFactsOf(row: ResultRow): RunFacts {
  const { runId, kind, suite, night, startedAt, commits, environmentName, environmentFingerprint, provider, clusterShape, instanceType, machineClass } = row;
  const run: RunFacts = { runId, kind, suite, night, startedAt, commits, environmentName, environmentFingerprint, provider, clusterShape, instanceType };
  if (machineClass !== undefined) run.machineClass = machineClass;
  return run;
}

/**
 * The stored form of a run's workloads (`run_points.points`, migration 029): only what its repeats
 * and values say (the run's own facts, which a finished run may still change, are read from the
 * run each time). Binary, not JSON, so that a night's read neither parses 74 MB of text nor holds a
 * whole run's parsed objects at once (at 20,000 series both cost more than the judgement itself):
 * - a header of four 32-bit words: the form, then how many words, doubles and strings follow;
 * - the words: each string's UTF-8 length, then per workload its name's and version's string
 *   index, its ok, disturbed and failed repeats and its metric count, and per metric its name's
 *   and unit's string index ({@link noUnit} for none), its value count and its values' repeats;
 * - the values, 64-bit doubles (exact), at an offset a multiple of 8, in the words' order;
 * - the strings, UTF-8, each once.
 * A change of this form needs a new {@link storedForm} and a migration that empties `run_points`.
 */
const storedForm = 1;
const headerWords = 4;
const noUnit = 0xffffffff;

/** Where the values begin in a stored form of `wordCount` words: the first multiple of 8 after them. */
function valuesOffset(wordCount: number): number {
  return Math.ceil(((headerWords + wordCount) * 4) / 8) * 8;
}

export function encodeRunPoints(nights: readonly WorkloadNight[]): Buffer {
  const strings = new Map<string, number>();
  const stringIndex = (text: string) => {
    let index = strings.get(text);
    if (index === undefined) strings.set(text, (index = strings.size));
    return index;
  };
  const words: number[] = [];
  const values: number[] = [];
  for (const night of nights) {
    words.push(stringIndex(night.workload), stringIndex(night.workloadVersion), night.okRepeats, night.disturbedRepeats, night.failedRepeats, night.metrics.length);
    for (const [metric, unit, metricValues, repeats] of night.metrics) {
      words.push(stringIndex(metric), unit === null ? noUnit : stringIndex(unit), metricValues.length, ...repeats);
      values.push(...metricValues);
    }
  }
  const encoded = [...strings.keys()].map((text) => Buffer.from(text, 'utf8'));
  const wordCount = encoded.length + words.length;
  const valuesAt = valuesOffset(wordCount);
  const stringsAt = valuesAt + values.length * 8;
  const stored = Buffer.alloc(stringsAt + encoded.reduce((sum, bytes) => sum + bytes.length, 0));
  const view = new DataView(stored.buffer, stored.byteOffset, stored.byteLength);
  [storedForm, wordCount, values.length, encoded.length, ...encoded.map((bytes) => bytes.length), ...words].forEach((word, i) => view.setUint32(i * 4, word, true));
  values.forEach((value, i) => view.setFloat64(valuesAt + i * 8, value, true));
  let at = stringsAt;
  for (const bytes of encoded) at += bytes.copy(stored, at);
  return stored;
}

/**
 * Repeats 1..n, one frozen list per n: nearly every metric of every run is measured by all of its
 * repeats, and a night at 20,000 series decodes 600,000 such lists, which the site's build holds
 * to its end (each one copied by every young-generation collection meanwhile).
 */
const firstRepeatLists: (readonly number[])[] = [];
function firstRepeats(count: number): readonly number[] {
  let list = firstRepeatLists[count];
  if (list === undefined) firstRepeatLists[count] = list = Object.freeze(Array.from({ length: count }, (_, i) => i + 1));
  return list;
}

/** The parts of {@link encodeRunPoints}' form of `runId`'s points: its words (the strings' lengths first), values and strings. */
function openRunPoints(runId: string, stored: Uint8Array): { words: Uint32Array; wordCount: number; values: Float64Array; strings: string[] } {
  // Typed views need aligned offsets: a copy (its own buffer, offset 0) when the driver's is not.
  const bytes = stored.byteOffset % 8 === 0 ? stored : new Uint8Array(stored);
  const header = new Uint32Array(bytes.buffer, bytes.byteOffset, headerWords);
  const [form, wordCount, valueCount, stringCount] = header as unknown as [number, number, number, number];
  if (form !== storedForm) throw new Error(`run ${runId}: its stored points are of form ${form}, this nightbench reads form ${storedForm}`);
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset + headerWords * 4, wordCount);
  const valuesAt = valuesOffset(wordCount);
  const values = new Float64Array(bytes.buffer, bytes.byteOffset + valuesAt, valueCount);
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const strings: string[] = [];
  let at = valuesAt + valueCount * 8;
  for (let i = 0; i < stringCount; i++) strings.push(text.toString('utf8', at, (at += words[i]!)));
  return { words, wordCount, values, strings };
}

/** The workloads of {@link encodeRunPoints}' form, with `run`'s facts, each decoded as it is taken. */
export function* decodeRunPoints(run: RunFacts, stored: Uint8Array): Generator<WorkloadNight> {
  const { words, wordCount, values, strings } = openRunPoints(run.runId, stored);
  let word = strings.length;
  let value = 0;
  while (word < wordCount) {
    const workload = strings[words[word]!]!;
    const workloadVersion = strings[words[word + 1]!]!;
    const okRepeats = words[word + 2]!;
    const disturbedRepeats = words[word + 3]!;
    const failedRepeats = words[word + 4]!;
    const metricCount = words[word + 5]!;
    word += 6;
    const metrics: MetricValues[] = [];
    for (let m = 0; m < metricCount; m++) {
      const unit = words[word + 1]!;
      const count = words[word + 2]!;
      const metricValues = new Array<number>(count);
      let inOrder = true;
      for (let v = 0; v < count; v++) {
        metricValues[v] = values[value + v]!;
        if (words[word + 3 + v] !== v + 1) inOrder = false;
      }
      const repeats = inOrder ? firstRepeats(count) : Array.from(words.subarray(word + 3, word + 3 + count));
      metrics.push([strings[words[word]!]!, unit === noUnit ? null : strings[unit]!, metricValues, repeats]);
      word += 3 + count;
      value += count;
    }
    yield { run, workload, workloadVersion, okRepeats, disturbedRepeats, failedRepeats, metrics };
  }
}

/** How many values a run's stored points hold. */
export function runPointsValueCount(stored: Uint8Array): number {
  return Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength).readUInt32LE(8);
}

/** What {@link visitRunPoints} hands over, without an object per workload or metric. */
export interface RunPointsVisitor {
  /** A workload, with its failed repeats; its metrics follow, each to `metric`. */
  workload(workload: string, failedRepeats: number): void;
  /** A metric of the last workload, with or without values: `values[from..from+count)`, their repeat numbers `repeats[repeatsFrom..repeatsFrom+count)`. */
  metric(metric: string, unit: string | null, values: Float64Array, from: number, count: number, repeats: Uint32Array, repeatsFrom: number): void;
}

/**
 * The workloads of {@link encodeRunPoints}' form walked in place, for a reader that keeps the
 * values its own way: the site's build held the 600,000 tuples of {@link decodeRunPoints} (and
 * their lists) at 20,000 series of 31 nights to its end, each copied by the young-generation
 * collections meanwhile.
 */
export function visitRunPoints(runId: string, stored: Uint8Array, visitor: RunPointsVisitor): void {
  const { words, wordCount, values, strings } = openRunPoints(runId, stored);
  let word = strings.length;
  let value = 0;
  while (word < wordCount) {
    const metricCount = words[word + 5]!;
    visitor.workload(strings[words[word]!]!, words[word + 4]!);
    word += 6;
    for (let m = 0; m < metricCount; m++) {
      const unit = words[word + 1]!;
      const count = words[word + 2]!;
      visitor.metric(strings[words[word]!]!, unit === noUnit ? null : strings[unit]!, values, value, count, words, word + 3);
      word += 3 + count;
      value += count;
    }
  }
}
