/**
 * A seeded generator of realistic nightly histories, written through the real `HistoryStore`
 * (beginRun / recordRepeat / finishRun), for tests and benchmarks of everything that reads the
 * history: detection, issues, pages. The same options and seed always give the same database
 * content apart from nothing: run ids, shas and timestamps are derived from the seed too.
 */
import { detectRegressions, type DetectionPolicy, type DetectionReport } from '../../src/detect/index.js';
import type { HistoryStore } from '../../src/history/store.js';
import type { CommitInfo, MetricValue, ProcessSamples } from '../../src/history/types.js';
import { createRandom, standardNormal, type RandomSource } from '../../src/stats/index.js';

/** A step planted in one series from `night` (index into the nights) onwards. */
export interface PlantedChange {
  suite?: string;
  workload: string;
  metric: string;
  /** Index of the first changed night (0-based). */
  night: number;
  /** Multiplier on the values from that night on, e.g. 1.3 for a 30% slowdown. */
  factor: number;
  /** Index of the night the series goes back to its old level, if it does. */
  recoversAt?: number;
}

export interface SyntheticHistoryOptions {
  seed: number;
  /** Suite names; workloads are generated per suite. */
  suites?: string[];
  /** Number of workloads per suite, or their exact names. */
  workloads: number | string[];
  /** Metrics every repeat reports (default: the runner's four); `level` fixes a metric's level (0: zero every night). */
  metrics?: { name: string; unit: string; level?: number }[];
  nights: number;
  repeats: number;
  /** YYYY-MM-DD of the first night. */
  firstNight?: string;
  /** Days from one night to the next (default 1): a sparse history, as an imported one often is. */
  daysApart?: number;
  /** Cluster shapes run every night, each its own run (and its own series). */
  clusterShapes?: string[];
  /** Night-to-night and repeat-to-repeat noise (coefficient of variation); default 0.03. */
  noise?: number;
  changes?: PlantedChange[];
  /** Workloads no longer run from a night (index) on: removed from the suite, nothing recorded. */
  removed?: { workload: string; fromNight: number }[];
  /** Repeats that fail: every repeat of these workloads on these nights (indices). */
  failures?: { workload: string; nights: number[]; error?: string }[];
  /**
   * The night (index) whose run was stopped mid-workload: `workload` got `measured` of its
   * repeats, the workloads after it none, and the run is incomplete (of every cluster shape).
   */
  cutShort?: { night: number; workload: string; measured: number };
  /** Per-process samples are stored for the runs of the last N nights only (default 2). */
  samplesForLastNights?: number;
  /** Workers per cluster (processes sampled besides the scheduler); default 2. */
  workers?: number;
  /** Commit subjects and author names that try to inject markup, on the given night index. */
  hostileNight?: number;
}

export interface SyntheticHistory {
  nights: string[];
  suites: string[];
  workloads: string[];
  metrics: string[];
  clusterShapes: string[];
  /** Run ids by cluster shape, then night index. */
  runIds: Record<string, string[]>;
  /** Commits of each night (index), per repository. */
  commits: CommitInfo[][];
  /** Ok repeats written per (workload, metric, cluster shape): the points a chart shows. */
  okRepeats(workload: string, metric: string, clusterShape?: string): number;
}

export const hostileSubject = '<script>alert(1)</script> fix scheduler';
export const hostileAuthor = '<img src=x onerror=alert(2)>';

const defaultMetrics: NonNullable<SyntheticHistoryOptions['metrics']> = [
  { name: 'wall_time', unit: 's' },
  { name: 'cpu_time', unit: 's' },
  { name: 'peak_memory', unit: 'bytes' },
  { name: 'average_memory', unit: 'bytes' },
];
const workloadStems = ['shuffle', 'groupby', 'join', 'rechunk', 'map_overlap', 'tree_reduce', 'dataframe_sum', 'array_matmul', 'bag_fold', 'futures_fanout'];
const subjects = ['Avoid copying blocks in shuffle', 'Refactor worker state machine', 'Speed up task graph ordering', 'Fix memory leak in spill buffer', 'Bump minimum numpy', 'Tidy scheduler plugin hooks', 'Use msgpack for small messages', 'Retry flaky comm handshake', 'Improve p2p rechunk planning', 'Drop Python 3.8 support'];
const authors = ['Ada Lovelace', 'Grace Hopper', 'Jörg Müller', 'Mei Tanaka', 'Olu Adeyemi', 'Priya Raman'];
const repos = ['dask/dask', 'dask/distributed'];

/** Writes the history in one transaction (fast for large histories) and describes what it wrote. */
export function writeSyntheticHistory(store: HistoryStore, options: SyntheticHistoryOptions): SyntheticHistory {
  const random = createRandom(options.seed);
  const suites = options.suites ?? ['dask'];
  const workloads = Array.isArray(options.workloads) ? options.workloads : Array.from({ length: options.workloads }, (_, i) => workloadName(i));
  const metrics = options.metrics ?? defaultMetrics;
  const clusterShapes = options.clusterShapes ?? ['local:2x1:2GiB'];
  const nights = nightsFrom(options.firstNight ?? '2026-01-01', options.nights, options.daysApart ?? 1);
  const noise = options.noise ?? 0.03;
  const workers = options.workers ?? 2;
  const samplesFrom = options.nights - (options.samplesForLastNights ?? 2);
  const commits = nights.map((night, index) => repos.map((repo) => syntheticCommit(random, repo, night, index === options.hostileNight)));
  const levels = new Map<string, number>();
  const okCounts = new Map<string, number>();
  const runIds: Record<string, string[]> = Object.fromEntries(clusterShapes.map((shape) => [shape, []]));

  store.runs.inOneTransaction(() => {
    for (const [nightIndex, night] of nights.entries()) {
      for (const suite of suites) {
        for (const shape of clusterShapes) {
          const runId = uuidFrom(random);
          runIds[shape]!.push(runId);
          const startedAt = `${night}T02:00:00.000Z`;
          store.runs.beginRun({
            id: runId, kind: 'nightly', suite, night, startedAt, target: { commits: commits[nightIndex]!.map((c) => ({ repo: c.repo, sha: c.sha })) },
            environment: {}, environmentName: 'default', environmentFingerprint: 'env-0001', provider: shape.split(':')[0] ?? 'local',
            clusterShape: shape, commits: commits[nightIndex]!, workers, threadsPerWorker: 1, memoryPerWorker: 2 * 2 ** 30, scale: 1,
            harnessVersion: '0.1.0', host: 'synthetic', pid: 0, config: { repeats: options.repeats },
          });
          const cutShort = options.cutShort?.night === nightIndex ? options.cutShort : undefined;
          const stopAt = cutShort ? workloads.indexOf(cutShort.workload) : workloads.length;
          const removed = (workload: string) => options.removed?.some((r) => r.workload === workload && nightIndex >= r.fromNight);
          for (const workload of workloads.slice(0, stopAt + 1).filter((w) => !removed(w))) {
            const failure = options.failures?.find((f) => f.workload === workload && f.nights.includes(nightIndex));
            const repeats = workload === cutShort?.workload ? cutShort.measured : options.repeats;
            for (let repeat = 1; repeat <= repeats; repeat++) {
              const values = metrics.map((metric) => {
                const key = `${suite}|${workload}|${metric.name}|${shape}`;
                if (!levels.has(key)) levels.set(key, metric.level ?? baseLevel(random, metric.name));
                const factor = plantedFactor(options.changes ?? [], suite, workload, metric.name, nightIndex);
                return { metric: metric.name, unit: metric.unit, value: levels.get(key)! * factor * (1 + noise * standardNormal(random)) } satisfies MetricValue;
              });
              if (!failure) {
                for (const metric of metrics) {
                  const key = `${suite}|${workload}|${metric.name}|${shape}`;
                  okCounts.set(key, (okCounts.get(key) ?? 0) + 1);
                }
              }
              const wall = values.find((v) => v.metric === 'wall_time')?.value ?? 10;
              store.runs.recordRepeat({
                runId, workload, repeat, workloadVersion: '1', status: failure ? 'failed' : 'ok', startedAt, finishedAt: startedAt,
                error: failure ? (failure.error ?? 'Traceback (most recent call last):\n  KilledWorker: worker-1 died') : undefined,
                metrics: values, samples: nightIndex >= samplesFrom ? syntheticSamples(random, wall, workers) : [],
              });
            }
          }
          store.runs.finishRun(runId, { status: cutShort ? 'incomplete' : 'complete', finishedAt: `${night}T03:00:00.000Z` });
        }
      }
    }
  });

  return {
    nights, suites, workloads, metrics: metrics.map((m) => m.name), clusterShapes, runIds, commits,
    okRepeats: (workload, metric, shape = clusterShapes[0]!) => suites.reduce((n, suite) => n + (okCounts.get(`${suite}|${workload}|${metric}|${shape}`) ?? 0), 0),
  };
}

/**
 * Runs detection night after night, as `nightly` would have, so the history gets the episodes a
 * real one would have (a single run on the last night sees only that night).
 */
export function detectEachNight(store: HistoryStore, policy: DetectionPolicy, nights: readonly string[]): DetectionReport[] {
  return nights.map((night) => detectRegressions(store, policy, { now: night }));
}

function workloadName(index: number): string {
  const stem = workloadStems[index % workloadStems.length]!;
  return index < workloadStems.length ? stem : `${stem}_${Math.floor(index / workloadStems.length)}`;
}

function nightsFrom(first: string, count: number, daysApart: number): string[] {
  const start = Date.parse(`${first}T00:00:00Z`);
  return Array.from({ length: count }, (_, i) => new Date(start + i * daysApart * 86_400_000).toISOString().slice(0, 10));
}

function plantedFactor(changes: PlantedChange[], suite: string, workload: string, metric: string, night: number): number {
  let factor = 1;
  for (const change of changes) {
    if ((change.suite ?? suite) !== suite || change.workload !== workload || change.metric !== metric) continue;
    if (night >= change.night && (change.recoversAt === undefined || night < change.recoversAt)) factor *= change.factor;
  }
  return factor;
}

function baseLevel(random: RandomSource, metric: string): number {
  if (metric.endsWith('memory')) return 2 ** 28 * (1 + 7 * random());
  return 2 + 40 * random();
}


function hex(random: RandomSource, length: number): string {
  let out = '';
  while (out.length < length) out += Math.floor(random() * 2 ** 32).toString(16).padStart(8, '0');
  return out.slice(0, length);
}

function uuidFrom(random: RandomSource): string {
  const h = hex(random, 32);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20)}`;
}

function pick<T>(random: RandomSource, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

function syntheticCommit(random: RandomSource, repo: string, night: string, hostile: boolean): CommitInfo {
  const author = hostile ? hostileAuthor : pick(random, authors);
  return {
    repo, sha: hex(random, 40), parents: [hex(random, 40)], authorName: author, authorEmail: `${author.split(' ')[0]!.toLowerCase()}@example.org`,
    authoredAt: `${night}T00:00:00Z`, committedAt: `${night}T00:00:00Z`, subject: hostile ? hostileSubject : pick(random, subjects),
  };
}

/** A scheduler and workers sampled every 0.25 s: memory that grows then settles, CPU that climbs. */
function syntheticSamples(random: RandomSource, wallSeconds: number, workers: number): ProcessSamples[] {
  const ticks = Math.max(2, Math.min(400, Math.round(wallSeconds / 0.25)));
  const t = Array.from({ length: ticks }, (_, i) => Math.round(i * 25) / 100);
  const processes = ['scheduler', ...Array.from({ length: workers }, (_, i) => `worker-${i + 1}`)];
  return processes.map((process) => {
    const base = process === 'scheduler' ? 1.2e8 : 2.5e8;
    const peak = process === 'scheduler' ? 1.6e8 : 6e8 + 4e8 * random();
    const busy = process === 'scheduler' ? 0.3 : 0.9;
    let cpu = 0;
    return {
      process, host: '127.0.0.1', t,
      rss: t.map((_, i) => Math.round(base + (peak - base) * Math.sin((Math.PI * i) / (ticks - 1)) ** 2 + 1e6 * random())),
      cpu: t.map(() => (cpu += 0.25 * busy * (0.7 + 0.3 * random()))),
    };
  });
}
