/**
 * The neutral shape every importer produces and every exporter reads: runs of one commit on one
 * machine and environment, each with its values. Other tools' formats are translated into this
 * shape by their own module (asv.ts, github-action-benchmark.ts, bmf.ts); the history stores it.
 *
 * @module
 */

import type { MetricDirection } from '../direction.js';

export interface ImportedCommit {
  sha: string;
  /** ISO 8601: when the commit was made, as the tool recorded it. The night is its UTC date. */
  date: string;
  subject?: string;
  authorName?: string;
  authorEmail?: string;
}

export interface ImportedValue {
  workload: string;
  /** The benchmark's code version when the tool records one (asv): a new version is a new series. */
  workloadVersion: string;
  metric: string;
  value: number;
  unit: string;
  /** `none` when the tool does not say which way is better. */
  direction: MetricDirection;
}

/** One commit measured on one machine in one environment: a run of the history. */
export interface ImportedRun {
  /** The suite the tool grouped the benchmarks in, when it has one (github-action-benchmark's name). */
  suite?: string;
  machine: string;
  /** What the tool recorded about the machine (asv's machine.json), kept with the run. */
  machineFacts: Record<string, unknown>;
  environmentName: string;
  /** What the tool recorded about the environment (interpreter, requirements). */
  environmentFacts: Record<string, unknown>;
  commit: ImportedCommit;
  values: ImportedValue[];
  /** Results the tool holds without a value (a failed or skipped benchmark): not imported. */
  missing: number;
}

/** The formats nightbench reads and writes; an imported run's provider is its format. */
export const interchangeFormats = ['asv', 'github-action-benchmark', 'bmf'] as const;
export type InterchangeFormat = (typeof interchangeFormats)[number];
