/**
 * The shapes of the published site: what `build.ts` reads from the history (`ReportHistory`), and
 * the page data `data.ts` derives from it, which the HTML templates and the client scripts share.
 * Types only, so the client bundles can import them without pulling in any server code.
 *
 * @module
 */
import type { SensitivitySummary } from '../detect/sensitivity.js';
import type { ProcessTimeline } from '../history/sample-timelines.js';

export type { ProcessTimeline } from '../history/sample-timelines.js';
export type { CutShortWorkload, ReportHistory, ReportRun, FailedRepeat as RepeatFailure, UnsupportedWorkload } from '../history/report-rows.js';

/**
 * The index's status words: detection's verdict on the latest night, or an open episode. Where
 * "not enough data" would say that more nights will help and they will not: `not-run`, a series
 * with no result on the latest night (a workload taken out of the suite, an environment no longer
 * run: most of a real asv history's series); `zero`, a series with no value above zero (nothing
 * spilled, no disk time).
 */
export type SeriesStatus = 'regressed' | 'failing' | 'improved' | 'insufficient' | 'stable' | 'not-run' | 'zero';

/** How each status reads on the page; the order is the index's default order (worst first). */
export const statusLabels: Record<SeriesStatus, string> = {
  regressed: 'regressed',
  failing: 'failing',
  improved: 'improved',
  insufficient: 'not enough data',
  stable: 'stable',
  'not-run': 'not run lately',
  zero: 'zero or negative',
};

/** The statuses worst first: the index's default order. */
export const statusOrder = Object.keys(statusLabels) as SeriesStatus[];

/** A cluster shape plus environment: series of different variants are never mixed. */
export interface Variant {
  id: string;
  label: string;
  clusterShape: string;
  environment: string;
}

/** A published issue: on GitHub (`href` absolute, when known) or a Markdown file of the site (`href` from the site root). */
export interface IssueRef {
  label: string;
  href?: string;
  file?: boolean;
  /** A file `nightbench replay` wrote: what would have been filed, never published. */
  replay?: boolean;
}

/** One row of the index: one metric of one workload on one variant. */
export interface IndexRow {
  suite: string;
  workload: string;
  /** Page of the workload, relative to the site root. */
  href: string;
  metric: string;
  unit: string;
  variant: Variant;
  status: SeriesStatus;
  /** Why the status is what it is, for a tooltip (e.g. "open since 2026-03-02"). */
  statusNote?: string;
  latestNight?: string;
  latest?: number;
  baseline?: number;
  /** latest / baseline - 1; for an open regression, against the level before it (the week has absorbed it). */
  change?: number;
  /** Night-to-night relative spread of the nightly medians in the baseline window. */
  noise?: number;
  /** The last nightly medians, oldest first; null where a night has no value. */
  spark: (number | null)[];
  issue?: IssueRef;
  /** Tail of the error of the latest night's failed repeats. */
  error?: string;
}

export interface IndexPage {
  generatedAt: string;
  rows: IndexRow[];
  suites: string[];
  metrics: string[];
  clusterShapes: string[];
  /** Nights the machine, not the code, moved, newest first (absent or empty: none). */
  machineNights?: MachineNightNote[];
}

/** A night detection marked "machine" (src/detect/machine-night.ts), and why. */
export interface MachineNightNote {
  night: string;
  reason: string;
}

/**
 * A night the data marks on every chart of a workload: all its repeats failed (the chart would
 * show a silent gap), or some did (its point stands on fewer repeats), or an incomplete run cut
 * it short (its repeats are shown, but it is no point of the series). Detection's "machine"
 * nights (the host was disturbed, not the code) will be one more kind here.
 */
export type MarkerOfFailure = 'failed' | 'incomplete' | 'cut-short';

/** A regression (an episode's first bad night), a recovery, a failing night or a machine night on a chart. */
export interface Marker {
  night: string;
  /**
   * Regression and improvement markers sit at the episode's first bad night (where the shift
   * began); `machine` marks a night detection found the machine, not the code, moved.
   */
  kind: 'regression' | 'improvement' | 'recovery' | 'machine' | MarkerOfFailure;
  label: string;
  /** An episode a confirmation rerun did not reproduce (never filed): drawn hollow. */
  unconfirmed?: boolean;
  /** Absolute (GitHub), or relative to the workload page (an issue file of the site). */
  issueUrl?: string;
}

/**
 * A stretch of nights at one level, as detection's segmentation of the whole history finds it:
 * `start` (inclusive) and `end` (exclusive) index the variant's nights.
 */
export interface LevelSegment {
  start: number;
  end: number;
  /** The median of the stretch's nightly medians, in units of 10^exponent like the values. */
  level: number;
  /**
   * How the series came to this level (absent on the first): the step from the level before and
   * what detection decided about it, e.g. "+12.0%, below threshold" or "+25.2%, episode from 2026-01-11".
   */
  change?: string;
}

export interface MetricSeries {
  metric: string;
  unit: string;
  /** Detection's threshold for this series: the band is baseline x (1 +- threshold). */
  threshold: number;
  /** Values below are integers in units of 10^exponent (`fromUnits` turns them back). */
  exponent: number;
  /** One array per repeat number, parallel to the variant's nights; null where absent. */
  repeats: (number | null)[][];
  median: (number | null)[];
  /** Median of the nightly medians of the trailing window before each night. */
  baseline: (number | null)[];
  markers: Marker[];
  /** The series' levels over its whole history, oldest first: one segment per level shift. */
  levels: LevelSegment[];
  /** The series' status on the index, shown beside its chart. */
  status: SeriesStatus;
  statusNote?: string;
  /** For an open regression: the latest median against the level before it. */
  changeSinceEpisode?: number;
  /** The issue of the open episode, on GitHub or as a file (`href` from the site root). */
  issue?: IssueRef;
  /** What the series catches at its settings (src/detect/sensitivity.ts), when the latest night was judged. */
  sensitivity?: SensitivitySummary;
  /** Judged on the latest night but too young to tell what it catches: the night of its history from which its noise is known. */
  sensitivityFrom?: number;
}

export interface DrilldownLink {
  night: string;
  runId: string;
  href: string;
}

export interface VariantSeries {
  variant: Variant;
  nights: string[];
  /** Index into the suite's `CommitTable.runs`, parallel to nights. */
  runs: number[];
  metrics: MetricSeries[];
  drilldowns: DrilldownLink[];
}

export interface FailureNote {
  night: string;
  variant: string;
  repeat: number;
  status: string;
  error: string;
}

export interface WorkloadPage {
  suite: string;
  workload: string;
  slug: string;
  variants: VariantSeries[];
  failures: FailureNote[];
  /** "not available before <commits> (<night>)" when earlier versions of the target could not run it. */
  availability?: string;
  /** The machine nights among the workload's nights, newest first. */
  machineNights?: MachineNightNote[];
}

export interface CommitRow {
  repo: string;
  sha: string;
  subject: string;
  author: string;
  date: string;
  url?: string;
}

/** Per suite: each run's commits, shared by all its workload pages (commits are per run, not per workload). */
export interface CommitTable {
  runs: { id: string; night: string; commits: number[] }[];
  commits: CommitRow[];
}

export interface DrilldownRepeat {
  repeat: number;
  status: string;
  error?: string;
  metrics: { metric: string; value: number; unit: string }[];
  processes: ProcessTimeline[];
}

export interface DrilldownPage {
  suite: string;
  workload: string;
  runId: string;
  night: string;
  variant: Variant;
  commits: CommitRow[];
  repeats: DrilldownRepeat[];
  /** The machine that ran it, in one line (src/detect/machine-class.ts), when recorded. */
  machine?: string;
}
