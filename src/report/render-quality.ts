/**
 * The Detection quality page: how often nightbench's regression issues were right, from the
 * verdicts maintainers gave with `/nightbench` commands (src/detect/quality.ts). Pure.
 *
 * @module
 */
import type { DetectionQuality, QualityRow } from '../detect/quality.js';
import { formatCount, formatHours, formatPercentOneDecimal, formatShare } from '../format/index.js';
import { relativeHref, sitePaths } from './paths.js';
import type { FileIssue } from './published.js';
import { html, layout, type Html } from './render.js';

/**
 * `files`: the regression issues written as Markdown files; they have no number, so triage gives
 * them no verdict. Those a replay wrote were never published and are listed apart.
 */
export function renderQualityPage(quality: DetectionQuality, files: readonly FileIssue[], generatedAt: string, issueUrl: (issue: number) => string | undefined): string {
  const { all } = quality;
  const written = files.filter((f) => !f.issue.replay);
  const replayed = files.filter((f) => f.issue.replay);
  const counted = [
    written.length === 0 ? html`` : html` · ${formatCount(written.length, 'written as Markdown file')} (listed below)`,
    replayed.length === 0 ? html`` : html` · ${replayed.length} a replay would have filed (listed below)`,
  ];
  const issueLink = (n: number) => {
    const url = issueUrl(n);
    return url ? html`<a class="issue" href="${url}">#${n}</a>` : html`#${n}`;
  };
  const fileList = (id: string, list: readonly FileIssue[]) =>
    html`<ul class="file-issues" id="${id}">${list.map((f) => html`<li><a class="issue issue-file" href="${f.issue.href}">${f.issue.label}</a> <span class="muted">(${f.suite}, first bad night ${f.firstBadNight})</span></li>`)}</ul>`;
  const body = html`
<h1>Detection quality</h1>
<p class="summary" id="quality-all" data-precision="${all.precision ?? ''}" data-files="${written.length}" data-replayed="${replayed.length}">${formatCount(all.opened, 'issue')} opened on GitHub${counted} · precision ${all.precision === undefined ? '—' : formatShare(all.precision)} (${all.truePositive} true, ${formatCount(all.falsePositive, 'false positive')}) · ${all.unknown} closed without a verdict · ${all.open} open</p>
<p class="muted">Maintainers give each issue a verdict with a comment: <code>/nightbench accept</code> (intended) or <code>/nightbench fixed-by SHA</code> then recovery (fixed) make it a true positive, <code>/nightbench false-alarm</code> a false positive. Issues closed by hand, or recovered, without a command are counted apart and left out of the precision.</p>
${written.length === 0 ? html`` : html`<h2 id="file-issues">Issues written as files</h2>
<p class="muted">Written to reports/issues/ when no GitHub token was set or GitHub kept failing; a file takes no triage command, so it has no verdict and stays out of the figures below.</p>
${fileList('file-issue-list', written)}`}
${replayed.length === 0 ? html`` : html`<h2 id="replay-issues">Issues a replay would have filed</h2>
<p class="muted">Written by <code>nightbench replay</code> (reports/replay/), which judged recorded nights again as the nightlies would have: never published, so no verdict, and out of the figures below.</p>
${fileList('replay-issue-list', replayed)}`}
<h2>Per month</h2>
${qualityTable('by-month', 'Month', quality.byMonth)}
<h2>Per suite</h2>
${qualityTable('by-suite', 'Suite', quality.bySuite)}
<h2>Open issues by age</h2>
<table class="quality" id="open-by-age"><thead><tr><th>Open for</th><th class="num">Issues</th><th>Oldest first</th></tr></thead><tbody>
${quality.openByAge.map((b) => html`<tr data-bucket="${b.bucket}"><td>${b.bucket}</td><td class="num">${b.issues.length}</td><td>${b.issues.map((i, k) => html`${k > 0 ? ', ' : ''}${issueLink(i.issueNumber)} <span class="muted">(${i.suite}, ${Math.floor(i.ageDays)} days)</span>`)}</td></tr>
`)}</tbody></table>
<h2>Workloads with the most false alarms</h2>
${quality.falseAlarms.length === 0
    ? html`<p class="muted" id="no-false-alarms">No false alarm recorded.</p>`
    : html`<table class="quality" id="false-alarms"><thead><tr><th>Suite</th><th>Workload</th><th>Metric</th><th class="num">False alarms</th><th class="num">Noise</th><th class="num">Largest false step</th><th class="num">Threshold</th><th>What would stop them</th></tr></thead><tbody>
${quality.falseAlarms.map((f) => html`<tr data-workload="${f.workload}" data-advice="${f.advice}"><td>${f.suite}</td><td><a href="${relativeHref(sitePaths.quality, sitePaths.workloadPage(f.suite, f.workload))}">${f.workload}</a></td><td>${f.metric}</td><td class="num">${f.falseAlarms}</td><td class="num">${formatPercentOneDecimal(f.noise)}</td><td class="num">${formatPercentOneDecimal(f.largestStep)}</td><td class="num">${formatPercentOneDecimal(f.threshold)}</td><td>${f.adviceText}</td></tr>
`)}</tbody></table>`}`;
  return layout({ path: sitePaths.quality, title: 'Detection quality', section: 'quality', generatedAt, body });
}

function qualityTable(id: string, heading: string, rows: readonly QualityRow[]): Html {
  if (rows.length === 0) return html`<p class="muted" id="${id}">No regression issue yet.</p>`;
  return html`<table class="quality" id="${id}"><thead><tr><th>${heading}</th><th class="num">Opened</th><th class="num">True positives</th><th class="num">False positives</th><th class="num">Unknown</th><th class="num">Open</th><th class="num">Precision</th><th class="num">Median time to first triage</th><th class="num">Median time to fix</th></tr></thead><tbody>
${rows.map((r) => html`<tr data-key="${r.key}" data-precision="${r.precision ?? ''}"><td>${r.key}</td><td class="num">${r.opened}</td><td class="num">${r.truePositive}</td><td class="num">${r.falsePositive}</td><td class="num">${r.unknown}</td><td class="num">${r.open}</td><td class="num">${r.precision === undefined ? '—' : formatShare(r.precision)}</td><td class="num">${r.medianTriageHours === undefined ? '—' : formatHours(r.medianTriageHours)}</td><td class="num">${r.medianFixDays === undefined ? '—' : formatHours(r.medianFixDays * 24)}</td></tr>
`)}</tbody></table>`;
}
