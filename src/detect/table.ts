/**
 * The text form of a detection report, as `nightbench detect` prints it. Pure: report in, text out.
 *
 * @module
 */
import { formatChange, formatCount, formatP, formatPercent, formatPercentOneDecimal, formatValue, formatVariant } from '../format/index.js';
import type { VerdictKind } from './judge.js';
import { unjudgedCounts, type DetectionReport, type UnjudgedCounts } from './run.js';
import { detectableWithin, roundUp } from './sensitivity.js';
import type { SeriesIdentity } from './series.js';

/** Most urgent first: what needs a look, then what could not be judged, then the quiet rest. */
const kindOrder: readonly VerdictKind[] = ['regression', 'improvement', 'failed', 'disturbed', 'missing', 'insufficient-baseline', 'stable'];

/** A short, readable name of a series: suite/workload metric, then where it ran, as the issues and pages name it. */
export function seriesLabel(identity: SeriesIdentity): string {
  return `${identity.suite}/${identity.workload} ${identity.metric} [${formatVariant(identity)}]`;
}

/** Words for the series a night could not judge, by cause. */
const unjudgedWords: Record<keyof UnjudgedCounts, string> = {
  youngHistory: 'too few good nights of history yet',
  failed: 'failed tonight',
  disturbed: 'too few undisturbed repeats tonight',
  missing: 'no value tonight',
  notPositive: 'zero or negative (no relative change)',
};

/**
 * The night in one progress line: what was judged and how, and what could not be judged and why
 * (on a young history, every series: said so, so that silence is not read as "nothing changed").
 */
export function describeJudgedNight(report: DetectionReport): string {
  const { counts } = report;
  const judged = `judged ${report.verdicts.length} series of night ${report.night ?? '(none)'}: ${formatCount(counts.regression, 'regression')}, ${formatCount(counts.improvement, 'improvement')}, ${counts.stable} stable`;
  const unjudgedBy = unjudgedCounts(report);
  const unjudged = (Object.keys(unjudgedWords) as (keyof UnjudgedCounts)[]).flatMap((cause) => (unjudgedBy[cause] > 0 ? [`${unjudgedBy[cause]} ${unjudgedWords[cause]}`] : []));
  return unjudged.length > 0 ? `${judged}; not judged: ${unjudged.join(', ')}` : judged;
}

/**
 * One line per series (stable ones only with `all`), most urgent first, then a summary of the
 * verdicts and of what happened to the episodes.
 */
export function renderReport(report: DetectionReport, options: { all?: boolean } = {}): string {
  if (report.night === undefined) return 'no nightly runs in the history: nothing to judge';
  const shown = report.verdicts
    .filter((verdict) => options.all || verdict.kind !== 'stable')
    .sort((a, b) => kindOrder.indexOf(a.kind) - kindOrder.indexOf(b.kind));
  const header = ['series', 'baseline median', 'new median', 'change', 'p', 'noise', 'catches', 'verdict'];
  const rows = shown.map((verdict) => [
    seriesLabel(verdict.identity),
    verdict.baselineMedian === undefined ? '-' : formatValue(verdict.baselineMedian, verdict.unit),
    verdict.newMedian === undefined ? '-' : formatValue(verdict.newMedian, verdict.unit),
    verdict.change === undefined ? '-' : formatChange(verdict.change),
    verdict.pValue === undefined ? '-' : formatP(verdict.pValue),
    verdict.noise === undefined ? '-' : formatPercentOneDecimal(verdict.noise),
    // The smallest change the series catches at its settings within the persistence path's nights (sensitivity.ts).
    verdict.detectable === undefined ? '-' : `${formatPercent(roundUp(detectableWithin(verdict.detectable, verdict.detectable.nights)!))} in ${verdict.detectable.nights} nights`,
    verdict.kind === 'stable'
      ? verdict.kind
      : verdict.kind === 'regression' || verdict.kind === 'improvement'
        ? `${verdict.kind} since ${verdict.firstBad?.night ?? verdict.night} (${verdict.path === 'persistent' ? 'persisting shift' : 'one night'}): ${verdict.reason}`
        : `${verdict.kind}: ${verdict.reason}`,
  ]);
  const lines = rows.length > 0 ? alignColumns([header, ...rows]) : [];
  const counts = Object.entries(report.counts)
    .filter(([, n]) => n > 0)
    .map(([kind, n]) => `${n} ${kind}`);
  lines.push(`night ${report.night}${report.suite ? `, suite ${report.suite}` : ''}: ${report.verdicts.length} series${counts.length ? ` (${counts.join(', ')})` : ''}`);
  if (!options.all && report.counts.stable > 0) lines.push(`(${report.counts.stable} stable series not listed; --all lists them)`);
  lines.push(...episodeLines(report, options.all ?? false));
  return lines.join('\n');
}

/** Open episodes listed one a line, newest first; without --all at most this many of each kind. */
const openEpisodesListed = 10;

function episodeLines(report: DetectionReport, all: boolean): string[] {
  const verb = report.dryRun ? 'would ' : '';
  const lines = report.changes.map((change) =>
    change.action === 'open'
      ? `${verb}open ${change.episode.kind} episode ${change.episode.fingerprint}: ${seriesLabel(change.episode.identity)} ${formatChange(change.episode.ratio - 1)} from ${change.episode.firstBad.night} (last good ${change.episode.lastGood.night})`
      : `${verb}update episode ${change.fingerprint}: ${change.from} -> ${change.to}${change.to === 'retired' ? ' (no ok result in the nights detection reads: no longer measured)' : ''}`,
  );
  const unconfirmed = report.unconfirmedEpisodes;
  if (unconfirmed.length > 0) {
    lines.push(`${formatCount(unconfirmed.length, 'unconfirmed episode')} (not reproduced on rerun, not filed): ${unconfirmed.map((e) => `${seriesLabel(e.identity)} ${formatChange(e.ratio - 1)} since ${e.firstBad.night}`).join('; ')}`);
  }
  // One a line: a real asv history holds dozens, which ran together into one unreadable line.
  for (const kind of ['regression', 'improvement'] as const) {
    const active = report.activeEpisodes.filter((e) => e.kind === kind).sort((a, b) => b.firstBad.night.localeCompare(a.firstBad.night));
    if (active.length === 0) {
      lines.push(`no open ${kind} episodes`);
      continue;
    }
    const listed = all ? active : active.slice(0, openEpisodesListed);
    lines.push(`${formatCount(active.length, `open ${kind} episode`)}${listed.length < active.length ? `, the ${listed.length} newest` : ''}:`);
    lines.push(...listed.map((e) => `  ${seriesLabel(e.identity)} since ${e.firstBad.night}`));
    if (listed.length < active.length) lines.push(`  (${active.length - listed.length} more; --all lists them)`);
  }
  return lines;
}

/** Columns padded to their widest cell; the last one is left ragged. */
export function alignColumns(table: string[][]): string[] {
  const widths = table[0]!.map((_, column) => Math.max(...table.map((row) => row[column]!.length)));
  return table.map((row) => row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!))).join('  '));
}

