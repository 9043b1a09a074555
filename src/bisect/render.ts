/**
 * A bisect's result as the comment on its episode's issue: the answer first (culprit with link,
 * subject, author and @login; or the spread, or why there is none), then the confirmation, every
 * step's figures and what it cost. Pure.
 *
 * @module
 */
import { median } from 'simple-statistics';
import type { Links } from '../issues/links.js';
import { formatMinutes, formatP, formatRatioInterval, formatValue, shortSha } from '../format/index.js';
import type { RangeCommitRef, TargetState } from './candidates.js';
import type { BisectReport } from './run.js';
import type { Comparison } from './search.js';

export interface BisectCommentContext {
  links: Links;
  /** commit sha -> GitHub login of its author, where known. */
  logins: Record<string, string>;
  unit: string | null;
}

export function renderBisectComment(report: BisectReport, context: BisectCommentContext): string {
  const { request, result, states } = report;
  const what = `\`${request.workload}\` ${request.metric}`;
  const title = request.mode === 'rerun' ? `### Rerun of ${what}: last good against first bad` : `### Bisect of ${what}`;
  const lines = [`<!-- nightbench:bisect=${report.id} -->`, title, ''];
  const outcome = result.outcome;
  if (outcome.kind === 'culprit' && request.mode === 'bisect') lines.push(`**Culprit**: ${describeCommit(states[outcome.state]!.change!, context)}`);
  else if (outcome.kind === 'culprit') lines.push(`**Reproduced**: the first bad state is still worse than the last good one.`);
  else if (outcome.kind === 'spread') lines.push(`**The change is spread over commits ${shortSha(states[outcome.from]!.change!.sha)}..${shortSha(states[outcome.to]!.change!.sha)}**: several steps each hold part of it.`, '', ...rangeList(states, outcome.from, outcome.to, context));
  else if (outcome.kind === 'not-reproduced') lines.push(`**Not reproduced**: the last good and first bad states do not differ now (a flake of that night, or the environment changed since).`);
  else lines.push(`**Ambiguous**: within the cap of repeats, no step could be decided between commits ${shortSha(states[outcome.from]!.change!.sha)}..${shortSha(states[outcome.to]!.change!.sha)}.`, '', ...rangeList(states, outcome.from, outcome.to, context));
  if (result.confirmation) lines.push('', renderConfirmation(result.confirmation, result.mode, context.unit, request.mode));
  if (result.steps.length > 0) lines.push('', ...renderSteps(report, context));
  lines.push('', `Cost: ${formatMinutes(report.clusterSeconds)} cluster minutes, ${result.repeats} repeats on ${report.clusterShape}. Recorded as bisect \`${report.id}\`.`);
  return lines.join('\n');
}

function describeCommit(change: RangeCommitRef, context: BisectCommentContext): string {
  const sha = shortSha(change.sha);
  const url = context.links.commit(change.repo, change.sha);
  const login = context.logins[change.sha];
  return `${change.repo}@${url ? `[\`${sha}\`](${url})` : `\`${sha}\``} ${change.subject}, by ${change.authorName}${login ? ` (@${login})` : ''}`;
}

function rangeList(states: readonly TargetState[], from: number, to: number, context: BisectCommentContext): string[] {
  return states.slice(from, to + 1).map((s) => `- ${describeCommit(s.change!, context)}`);
}

function renderConfirmation(c: Comparison, judged: 'metric' | 'pass-fail', unit: string | null, mode: 'bisect' | 'rerun'): string {
  const sides = mode === 'rerun' ? 'first bad against last good' : 'culprit against its parent';
  if (judged === 'pass-fail') {
    return `Confirmation (${sides}): the parent ${c.beforeFailures === 0 ? 'passes' : 'fails'}, the culprit ${c.afterFailures > 0 ? 'fails' : 'passes'}: ${c.confirmed ? 'confirmed' : 'NOT confirmed'}.`;
  }
  if (!c.ratio || c.p === undefined) return `Confirmation (${sides}): no values to compare (${c.beforeFailures + c.afterFailures} failed repeats).`;
  const figures = `median ${formatValue(median(c.beforeValues), unit)} -> ${formatValue(median(c.afterValues), unit)}, ${formatRatioInterval(c.ratio)}, Mann-Whitney p = ${formatP(c.p)}`;
  return `Confirmation (${sides}, interleaved, ${c.beforeValues.length} + ${c.afterValues.length} repeats): ${figures}: ${c.confirmed ? 'confirmed' : 'NOT confirmed'}.`;
}

function renderSteps(report: BisectReport, context: BisectCommentContext): string[] {
  const rows = report.result.steps.map((step) => {
    const state = report.states[step.state]!;
    const commit = step.state === 0 ? 'last good' : `${state.change!.repo}@${shortSha(state.change!.sha)}`;
    const med = step.values.length > 0 ? formatValue(median(step.values), context.unit) : '-';
    const repeats = `${step.values.length}${step.failures > 0 ? ` (+${step.failures} failed)` : ''}`;
    return `| ${step.kind === 'reproduce' ? (step.state === 0 ? 'good end' : 'bad end') : 'step'} | ${step.state}/${report.states.length - 1} | ${commit} | ${repeats} | ${med} | ${step.verdict} |`;
  });
  return ['<details><summary>Every step</summary>', '', '| | state | commit | repeats | median | verdict |', '| --- | --- | --- | --- | --- | --- |', ...rows, '', '</details>'];
}
