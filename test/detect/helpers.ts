/**
 * Seeded synthetic history rows for the pure detection stages, and an in-memory run of the
 * episode planner night after night (what `detectRegressions` does with SQLite).
 */
import { judgeNight } from '../../src/detect/run.js';
import { planEpisodes, type Episode, type EpisodeChange } from '../../src/detect/episodes.js';
import { groupSeries } from '../../src/detect/series.js';
import type { DetectionPolicy } from '../../src/detect/policy.js';
import type { SeriesVerdict } from '../../src/detect/judge.js';
import type { RepeatStatus, ResultRow } from '../../src/history/types.js';
import { createRandom, standardNormal } from '../../src/stats/index.js';

/** The night of index `i`, counting from 2026-01-01. */
export function nightAt(i: number): string {
  return (nights[i] ??= new Date(Date.parse('2026-01-01T00:00:00Z') + i * 86_400_000).toISOString().slice(0, 10));
}
const nights: string[] = [];

export interface SeriesSpec {
  seed: number;
  nights: number;
  repeats: number;
  /** Coefficient of variation of every repeat (independent normal noise). */
  cv: number;
  /** Coefficient of variation of a night as a whole, on top of its repeats' (all of a night's repeats move together); default none. */
  nightCv?: number;
  level?: number;
  workload?: string;
  metric?: string;
  /** Multiplies every value from night `from` (index) until `until` (exclusive). */
  steps?: { from: number; factor: number; until?: number }[];
  /** Multiplies one repeat (1-based) of one night. */
  outliers?: { night: number; repeat: number; factor: number }[];
  failedNights?: number[];
  /** Nights without any run of the workload. */
  absentNights?: number[];
  disturbed?: { night: number; repeat: number }[];
}

/** Rows of one series as `RunStore.resultRows` returns them (one run per night). */
export function seriesRows(spec: SeriesSpec): ResultRow[] {
  const random = createRandom(spec.seed);
  const gaussian = () => standardNormal(random);
  const rows: ResultRow[] = [];
  for (let i = 0; i < spec.nights; i++) {
    const noise = Array.from({ length: spec.repeats }, gaussian);
    // Drawn only when asked for, so that the series without it keep their values seed for seed.
    const night = spec.nightCv ? 1 + spec.nightCv * gaussian() : 1;
    if (spec.absentNights?.includes(i)) continue;
    const factor = night * (spec.steps ?? []).reduce((f, step) => (i >= step.from && (step.until === undefined || i < step.until) ? f * step.factor : f), 1);
    for (let repeat = 1; repeat <= spec.repeats; repeat++) {
      const failed = spec.failedNights?.includes(i) ?? false;
      const disturbed = spec.disturbed?.some((d) => d.night === i && d.repeat === repeat) ?? false;
      const outlier = spec.outliers?.find((o) => o.night === i && o.repeat === repeat)?.factor ?? 1;
      const status: RepeatStatus = failed ? 'failed' : disturbed ? 'disturbed' : 'ok';
      const value = (spec.level ?? 10) * factor * outlier * (1 + spec.cv * noise[repeat - 1]!);
      rows.push({
        runId: `${spec.seed}-run-${i}`, kind: 'nightly', suite: 'dask', night: nightAt(i), startedAt: `${nightAt(i)}T02:00:00Z`,
        environmentName: 'default', environmentFingerprint: 'env-1', provider: 'local', clusterShape: 'local:2x1:2GiB',
        workload: spec.workload ?? 'shuffle', workloadVersion: '1', repeat, status,
        metric: failed ? null : (spec.metric ?? 'wall_time'), value: failed ? null : value, unit: failed ? null : 's',
        error: failed ? 'KilledWorker' : null, disturbance: disturbed ? 'worker-2 restarted' : null,
        commits: { 'dask/dask': `sha-dask-${i}`, 'dask/distributed': `sha-distributed-${i}` },
      });
    }
  }
  return rows;
}

/**
 * Rows of one series with given values: `perNight[i]` holds night i's repeats (an empty list is
 * a night without a run), e.g. a labelled series streamed one value per night.
 */
export function valueRows(perNight: readonly (readonly number[])[], options: { workload?: string; metric?: string; unit?: string } = {}): ResultRow[] {
  const rows: ResultRow[] = [];
  perNight.forEach((values, i) =>
    values.forEach((value, r) =>
      rows.push({
        runId: `run-${i}`, kind: 'nightly', suite: 'dask', night: nightAt(i), startedAt: `${nightAt(i)}T02:00:00Z`,
        environmentName: 'default', environmentFingerprint: 'env-1', provider: 'local', clusterShape: 'local:2x1:2GiB',
        workload: options.workload ?? 'shuffle', workloadVersion: '1', repeat: r + 1, status: 'ok',
        metric: options.metric ?? 'wall_time', value, unit: options.unit ?? 's', error: null, disturbance: null,
        commits: { 'dask/dask': `sha-dask-${i}` },
      }),
    ),
  );
  return rows;
}

/** Episodes as the planner left them after each night, plus every verdict and change. */
export interface EpisodeRun {
  episodes: Episode[];
  verdicts: SeriesVerdict[][];
  changes: EpisodeChange[][];
  /** Episodes opened in total. */
  opened: number;
}

/**
 * Runs detection night after night over `rows` (nights `from` .. `to`, inclusive), applying each
 * night's plan to episodes kept in memory.
 */
export function runNights(rows: readonly ResultRow[], policy: DetectionPolicy, from: number, to: number, start: Episode[] = []): EpisodeRun {
  const series = groupSeries(rows);
  const run: EpisodeRun = { episodes: start.map((e) => ({ ...e })), verdicts: [], changes: [], opened: 0 };
  for (let i = from; i <= to; i++) {
    const verdicts = judgeNight(series, run.episodes, policy, nightAt(i));
    const changes = planEpisodes(verdicts, run.episodes, policy);
    for (const change of changes) {
      if (change.action === 'open') {
        run.episodes.push({ ...change.episode, id: run.episodes.length + 1 });
        run.opened++;
      } else {
        const episode = run.episodes.find((e) => e.id === change.id)!;
        Object.assign(episode, { state: change.to, lastNight: change.lastNight, latestMedian: change.latestMedian, nightsBack: change.nightsBack, recoveredNight: change.recoveredNight });
      }
    }
    run.verdicts.push(verdicts);
    run.changes.push(changes);
  }
  return run;
}
