/**
 * The history as CSV (RFC 4180): one row per measured value, with everything that places it in
 * its series, for spreadsheets and other tools. Pure.
 *
 * @module
 */
import type { ResultRow } from '../history/types.js';

const columns = ['suite', 'night', 'started_at', 'commits', 'provider', 'cluster_shape', 'instance_type', 'environment', 'workload', 'workload_version', 'metric', 'repeat', 'status', 'value', 'unit', 'direction'] as const;

function field(value: string | number): string {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** `direction` gives a metric's declared direction (lower, higher or none) for a row's series. */
export function toCsv(rows: readonly ResultRow[], direction: (row: ResultRow) => string): string {
  const lines = [columns.join(',')];
  for (const row of rows) {
    if (row.value === null || row.metric === null) continue;
    const commits = Object.entries(row.commits).map(([repo, sha]) => `${repo}=${sha}`).join(' ');
    lines.push([row.suite, row.night, row.startedAt, commits, row.provider, row.clusterShape, row.instanceType ?? '', row.environmentName, row.workload, row.workloadVersion,
      row.metric, row.repeat, row.status, row.value, row.unit ?? '', direction(row)].map(field).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}
