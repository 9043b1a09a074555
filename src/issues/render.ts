/**
 * Issue text: the title, the opening body and the comments of later nights, as Markdown with
 * hidden markers. Pure: everything comes in as data (no clock, no I/O), so a golden file pins it.
 *
 * @module
 */
import type { RangeCommit, RangeContext } from '../git/range.js';
import type { MentionPolicy } from '../config/github-section.js';
import { describeDetectable } from '../detect/index.js';
import { formatChange, formatCount, formatMinutes, formatP, formatPercentOneDecimal, formatRatioInterval, formatValue, shellArg, shortSha } from '../format/index.js';
import { interchangeFormats } from '../interchange/types.js';
import { variantOf } from '../report/paths.js';
import type { IssueGroup, IssueSeries, SuspectRange } from './group.js';
import type { Links } from './links.js';
import { markers } from './markers.js';
import type { GitHubPeople } from './people.js';

/** What the text of a suspect range needs besides the range (a regression's issue, a broken workload's). */
export interface RangeRenderContext {
  /** The night being reported (the first bad night when the issue opens). */
  night: string;
  /** Per repository, what git found in its suspect range; a repository git could not read has an error instead. */
  ranges: Record<string, RangeContext | { error: string }>;
  people: GitHubPeople;
  links: Links;
  mention: MentionPolicy;
  /** The CLI as the reproduce section should call it, e.g. "npx nightbench". */
  cli: string;
}

/** Everything besides the group that a regression's issue needs. */
export interface RenderContext extends RangeRenderContext {
  /**
   * How many nights the suite ran after `after` through `through` (its nightly runs; an imported
   * history's results): what detection counts, where calendar days would count the nights a
   * nightly skipped, or the days between an imported history's commits.
   */
  nightsRun: (suite: string, after: string, through: string) => number;
  /**
   * Detection's reason when the first bad night was a machine night (the canary or most series
   * moved together): the issue waited for a later night, and says so.
   */
  firstBadMachineReason?: string;
}

export interface RenderedIssue {
  title: string;
  body: string;
}

const link = (text: string, url: string | undefined) => (url ? `[${text}](${url})` : text);
/** "Performance regression: 3 workloads slower since abc1234 (2026-12-01)"; a late find's (with the night it was found) adds ", found 2 nights later". */
export function renderTitle(group: IssueGroup, found?: Pick<RenderContext, 'night' | 'nightsRun'>): string {
  const workloads = new Set(group.series.map((s) => s.workload)).size;
  const allTimes = group.series.every((s) => s.unit === 's');
  return `Performance regression: ${formatCount(workloads, 'workload')} ${allTimes ? 'slower' : 'worse'}${sinceCommits(group.ranges)} (${group.firstBadNight}${found ? lateness(group, found).title : ''})`;
}

/**
 * " since abc1234", or with several repositories " since dask abc1234, distributed def5678":
 * the first bad commit of every repository whose commits are in the range (the primary's when none changed).
 */
export function sinceCommits(ranges: readonly SuspectRange[]): string {
  const changed = ranges.filter((r) => r.from !== r.to);
  const named = changed.length > 0 ? changed : ranges.slice(0, 1);
  if (named.length === 0) return '';
  return ` since ${named.map((r) => (ranges.length > 1 ? `${r.repo} ${shortSha(r.to)}` : shortSha(r.to))).join(', ')}`;
}

/**
 * A late find, in words (issue 31): how many nights the accumulating evidence took, and whether
 * nights between the last good and the first bad night leave the change's first night uncertain
 * (within noise of both levels, or not run: the range reaches back over them).
 */
function lateness(group: IssueGroup, { night, nightsRun }: Pick<RenderContext, 'night' | 'nightsRun'>): { title: string; sentence: string } {
  const taken = nightsRun(group.suite, group.firstBadNight, night);
  const between = nightsRun(group.suite, group.lastGoodNight, group.firstBadNight) - 1;
  const sure = taken > 0 ? `it took ${formatCount(taken + 1, 'night')} to be sure (found on ${night})` : '';
  const uncertain = between > 0 ? `the first night is uncertain: ${formatCount(between, 'night')} between the last good and the first bad night ${between === 1 ? 'was' : 'were'} within noise of both levels or not run, and the range reaches back over ${between === 1 ? 'it' : 'them'}` : '';
  return {
    title: taken > 0 ? `, found ${formatCount(taken, 'night')} later` : '',
    sentence: [sure, uncertain].filter(Boolean).join('; ').replace(/^./, (first) => first.toUpperCase()),
  };
}

/** The opening issue: figures, range, commits, files, blame, environment, how to reproduce. */
export function renderIssue(group: IssueGroup, context: RenderContext): RenderedIssue {
  const late = lateness(group, context);
  const sections = [
    [markers.fingerprint(group.fingerprint), markers.night(context.night)].join('\n'),
    `nightbench found ${formatCount(group.series.length, 'regressed series', 'regressed series')} of suite \`${group.suite}\` on ${group.firstBadNight}, compared with the nights before it (last good night: ${group.lastGoodNight}).${late.sentence ? ` ${late.sentence}.` : ''}${machineSentence(group)}${heldSentence(group, context)}`,
    renderTable(group, context.links),
    renderDetectable(group),
    renderConfirmation(group),
    renderRanges(group, context),
    renderEnvironment(group),
    renderReproduce(group, context.cli),
    renderMentions(group, context),
  ];
  return { title: renderTitle(group, context), body: `${sections.filter(Boolean).join('\n\n')}\n` };
}

/** A later night on which some series are still regressed. */
export function renderPersistComment(group: IssueGroup, context: Pick<RenderContext, 'night' | 'links'>): string {
  const still = group.series.filter((s) => s.state === 'open' || s.state === 'still-regressed').length;
  return `${markers.night(context.night)}\nStill regressed on ${context.night}: ${formatCount(still, 'series', 'series')} of ${group.series.length}.\n\n${renderTable(group, context.links)}\n`;
}

/**
 * The night every series is back, or no longer measured (retired: no result in the nights
 * detection reads): the issue is closed with this comment, naming the fix a maintainer recorded
 * with `/nightbench fixed-by` (a validated commit SHA), if any.
 */
export function renderRecoveryComment(group: IssueGroup, context: Pick<RenderContext, 'night' | 'links'> & { fixedBy?: string }): string {
  const fix = context.fixedBy ? ` Fixed by \`${context.fixedBy}\`, as recorded on this issue.` : '';
  const retired = group.series.filter((s) => s.state === 'retired').length;
  const unmeasured = retired === group.series.length ? (retired === 1 ? 'the series has' : `all ${retired} series have`) : `${retired} of ${group.series.length} series ${retired === 1 ? 'has' : 'have'}`;
  const what =
    retired === 0
      ? `Recovered on ${context.night}: every series is back within noise of its baseline.`
      : `No longer measured on ${context.night}: ${unmeasured} no result in the nights detection reads (the workload removed or renamed, its environment retired, or failing since)${retired < group.series.length ? '; the others are back within noise of their baseline' : ''}.`;
  return `${markers.night(context.night)}\n${markers.recovered}\n${what}${fix} Closing; nightbench opens a new issue if it regresses again.\n\n${renderTable(group, context.links)}\n`;
}

/**
 * An improvement noted on the issue of an earlier regression of the same series: "nightbench sees
 * an improvement of -24.0% on `sum` wall_time since 2026-12-09, range pkg `a1b2c3d..f00dfac`: this
 * may be the fix." Its marker (the improvement episode's fingerprint) keeps a rerun from noting it twice.
 */
export function renderImprovementComment(group: IssueGroup, context: Pick<RenderContext, 'links'> & { improvement: string }): string {
  const changed = group.ranges.filter((r) => r.from !== r.to);
  const range = changed.length === 0
    ? 'no commit changed in the target'
    : `range ${changed.map((r) => `${r.repo} ${link(`\`${shortSha(r.from)}..${shortSha(r.to)}\``, context.links.compare(r.repo, r.from, r.to))}`).join(', ')}`;
  const lines = group.series.map((s) => `nightbench sees an improvement of ${formatChange(s.change)} on \`${s.workload}\` ${s.metric} since ${group.firstBadNight} (last good night ${group.lastGoodNight}), ${range}: this may be the fix.`);
  return `${markers.improvement(context.improvement)}\n${lines.join('\n')}\n\n${renderTable(group, context.links)}\n`;
}

/**
 * Each series' cluster shape and environment as the pages label them, when the group's series ran
 * on more than one (an asv history's Python versions); else none. Without it one workload and
 * metric showed twice with different figures and nothing to tell the rows apart.
 */
function variantLabels(group: IssueGroup): (string | undefined)[] {
  const variants = group.series.map((s) => variantOf(s.environment));
  const several = new Set(variants.map((v) => v.id)).size > 1;
  return variants.map((v) => (several ? v.label : undefined));
}

function renderTable(group: IssueGroup, links: Links): string {
  const labels = variantLabels(group);
  const byVariant = labels[0] !== undefined;
  const rows = group.series.map((s, i) => {
    const name = link(`\`${s.workload}\``, links.history(group.suite, s.workload));
    const variant = byVariant ? ` ${labels[i]} |` : '';
    return `| ${name} | ${s.metric} |${variant} ${formatValue(s.baselineMedian, s.unit)} | ${formatValue(s.newMedian, s.unit)} | ${formatChange(s.change)} | ${s.pValue === undefined ? '–' : formatP(s.pValue)} | ${s.noise === undefined ? '–' : `±${formatPercentOneDecimal(s.noise)}`} | ${stateText(s)} |`;
  });
  const [variantHeader, variantRule] = byVariant ? [' Cluster · environment |', ' --- |'] : ['', ''];
  return [`| Workload | Metric |${variantHeader} Baseline median | New median | Change | p-value | Noise | State |`, `| --- | --- |${variantRule} ---: | ---: | ---: | ---: | ---: | --- |`, ...rows].join('\n');
}

/**
 * One line per judged series: its noise and the smallest change it catches at its settings, so a
 * reader can tell a change the series proves easily from one near the edge of what it can see.
 */
function renderDetectable(group: IssueGroup): string {
  const labels = variantLabels(group);
  const lines = group.series.flatMap((s, i) => {
    const name = `\`${s.workload}\` ${s.metric}${labels[i] === undefined ? '' : ` (${labels[i]})`}`;
    return s.detectable
      ? [`- ${name}: ${describeDetectable(s.detectable)}`]
      : s.reachKnownFrom !== undefined
        ? [`- ${name}: too new at its level to tell what it can detect (known from its ${s.reachKnownFrom}th night there)`]
        : [];
  });
  return lines.length === 0 ? '' : ['What each series can detect at its settings:', ...lines].join('\n');
}

/** The rerun that confirmed the group before it was filed, if `github.confirm` asked for one. */
function renderConfirmation(group: IssueGroup): string | undefined {
  if (group.confirmationError) return `Not confirmed before filing: the rerun of last good against first bad failed (${group.confirmationError}), so this is filed as detected.`;
  const c = group.confirmation;
  if (!c) return undefined;
  const figures = c.ratio && c.p !== undefined ? `${formatRatioInterval(c.ratio)}, Mann-Whitney p = ${formatP(c.p)}` : 'no values to compare';
  return `Confirmed before filing: last good against first bad rerun interleaved, \`${c.workload}\` ${c.metric}, ${c.repeats} repeats (${formatMinutes(c.clusterSeconds)} cluster minutes): ${figures}.`;
}

function stateText(series: IssueSeries): string {
  return { open: 'new', 'still-regressed': 'still regressed', recovered: 'recovered', accepted: 'accepted', unconfirmed: 'unconfirmed: not reproduced on rerun', retired: 'no longer measured' }[series.state];
}

/** The suspect range of each repository: commits, files and blame (a broken workload's issue shows the same). */
export function renderRanges(group: Pick<IssueGroup, 'ranges'>, context: RangeRenderContext): string {
  const parts = ['## Suspect range'];
  if (group.ranges.length === 0) parts.push('No commit range: the target is installed packages, whose versions each run records in the history.');
  // Seen on the recorded Dask history: the machine got busier between two nights of the same commits.
  else if (group.ranges.every((range) => range.from === range.to)) {
    parts.push('No commit changed between the last good and the first bad night in any repository: the cause is outside the tested code (the machine, the cluster or the installed dependencies). Rerunning the two nights side by side tells whether it reproduces.');
  }
  // Only the repositories that changed: the others' commits are under Environment.
  for (const range of group.ranges.filter((r) => r.from !== r.to)) {
    const git = context.ranges[range.repo];
    const compare = link(`\`${shortSha(range.from)}..${shortSha(range.to)}\``, context.links.compare(range.repo, range.from, range.to));
    if (!git || 'error' in git) {
      parts.push(`**${range.repo}**: ${compare} (git context unavailable: ${git ? git.error : 'no checkout of it'}).`);
      continue;
    }
    parts.push(`**${range.repo}**: ${compare}, ${formatCount(git.commitCount, 'commit')}.`);
    parts.push(renderCommits(range.repo, git, context));
    parts.push(renderFiles(git));
    const blame = renderBlame(git, context);
    if (blame) parts.push(blame);
  }
  return parts.join('\n\n');
}

function pullOf(repo: string, commit: RangeCommit, context: RangeRenderContext): string {
  const number = commit.pullRequest ?? context.people.pulls[commit.sha];
  return number === undefined ? '' : ` ${link(`#${number}`, context.links.pull(repo, number))}`;
}

function renderCommits(repo: string, git: RangeContext, context: RangeRenderContext): string {
  // Logins are written without "@" here: only the mentions section notifies anyone.
  const lines = git.commits.map((c) => {
    const login = context.people.logins[c.sha];
    // A squash merge's "(#42)" becomes the link to #42 rather than being said twice.
    const subject = c.pullRequest === undefined ? c.subject : c.subject.replace(/\s*\(#\d+\)\s*$/, '');
    return `- ${link(`\`${shortSha(c.sha)}\``, context.links.commit(repo, c.sha))} ${escapeMarkdown(subject)}${pullOf(repo, c, context)} — ${c.authorName}${login ? ` (${login})` : ''}, ${c.authoredAt.slice(0, 10)}`;
  });
  const more = git.commitCount > git.commits.length ? [`- … and ${git.commitCount - git.commits.length} more`] : [];
  return ['### Commits', ...lines, ...more].join('\n');
}

function renderFiles(git: RangeContext): string {
  const rows = git.files.map((f) => `| \`${f.path}\` | ${f.added ?? 'binary'} | ${f.removed ?? 'binary'} |`);
  return ['### Files touched', '| File | Added | Removed |', '| --- | ---: | ---: |', ...rows].join('\n');
}

function renderBlame(git: RangeContext, context: RangeRenderContext): string | undefined {
  const files = git.blame.filter((f) => f.authors.length > 0);
  if (files.length === 0) return undefined;
  const lines = files.map((f) => `- \`${f.path}\`: ${f.authors.map((a) => `${a.name}${context.people.logins[a.sha] ? ` (${context.people.logins[a.sha]})` : ''}, ${formatCount(a.lines, 'line')}`).join('; ')}`);
  return ['### Who wrote the code around the changes', 'From `git blame` of the touched lines and their surroundings at the last good commit:', ...lines].join('\n');
}

function renderEnvironment(group: IssueGroup): string {
  const environments = new Map(group.series.map((s) => [JSON.stringify(s.environment), s.environment]));
  const lines = [
    '## Environment',
    ...[...environments.values()].map(
      (e) => `- Cluster: provider \`${e.provider}\`, shape \`${e.clusterShape}\`${e.instanceType ? `, instance type \`${e.instanceType}\`` : ''}; environment \`${e.environmentName}\` (fingerprint \`${e.environmentFingerprint}\`)`,
    ),
    `- Last good night ${group.lastGoodNight}: ${commitList(group, 'from')}${ranOn(group.lastGoodMachineClass)}`,
    `- First bad night ${group.firstBadNight}: ${commitList(group, 'to')}${ranOn(group.firstBadMachineClass)}`,
  ];
  return lines.join('\n');
}

const ranOn = (machineClass: string | undefined) => (machineClass === undefined ? '' : `; ran on ${machineClass}`);

/**
 * " The machine changed since the baseline: ..." when the first bad night ran on another machine
 * class than the last good one (a runner of another CPU type measures up to 1.5x apart), and
 * what told the code's share apart before filing.
 */
function machineSentence(group: IssueGroup): string {
  const [from, to] = [group.lastGoodMachineClass, group.firstBadMachineClass];
  if (from === undefined || to === undefined || from === to) return '';
  const told = group.confirmation ? 'the rerun below ran both sides on one machine' : `filed once a night on ${from} still showed it`;
  return ` The machine changed since the baseline: the first bad night ran on ${to}, the last good night on ${from}; ${told}.`;
}

/** Why a change that began on a machine night was filed later (src/issues/machine-hold.ts). */
function heldSentence(group: IssueGroup, context: RenderContext): string {
  if (context.firstBadMachineReason === undefined || context.night <= group.firstBadNight) return '';
  return ` Its first bad night was a machine night (${context.firstBadMachineReason}), so the issue waited until ${context.night} showed the change on its own.`;
}

function commitList(group: IssueGroup, side: 'from' | 'to'): string {
  return group.ranges.map((r) => `${r.repo}@\`${shortSha(r[side])}\``).join(', ');
}

/**
 * How to run the last good and the first bad commit side by side: with nightbench for what it
 * recorded; for a history imported from another tool (its provider is the format), with that
 * tool, which nightbench cannot run: asv compares two commits itself (`asv continuous`).
 */
function renderReproduce(group: IssueGroup, cli: string): string {
  const primary = group.ranges[0];
  const provider = group.series[0]?.environment.provider;
  if (!primary || !provider) return '';
  const workloads = [...new Set(group.series.map((s) => s.workload))];
  if (provider === 'asv') {
    // asv matches --bench with re.search against `name(params)`: anchored and escaped, it selects exactly these.
    const benches = workloads.map((w) => `--bench ${shellArg(`^${w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`)}`).join(' ');
    return ['## Reproduce', "These values were imported from asv. In the project's checkout, asv runs the last good and the first bad commit side by side and compares them:", '```sh', `asv continuous ${benches} ${primary.from} ${primary.to}`, '```'].join('\n');
  }
  if ((interchangeFormats as readonly string[]).includes(provider)) {
    return ['## Reproduce', `These values were imported from ${provider}: run the project's benchmarks at the last good commit (${shortSha(primary.from)}) and at the first bad one (${shortSha(primary.to)}) on one machine and compare.`].join('\n');
  }
  const selection = workloads.map((w) => `--workload ${shellArg(w)}`).join(' ');
  const run = (sha: string, night: string) => `${cli} nightly --no-detect --db reproduce.sqlite --suite ${shellArg(group.suite)} ${selection} --provider ${provider} --commit ${sha} --night ${night} --json`;
  return ['## Reproduce', 'Run the last good and the first bad commit on the same cluster shape and compare the figures they print:', '```sh', run(primary.from, group.lastGoodNight), run(primary.to, group.firstBadNight), '```'].join('\n');
}

function renderMentions(group: IssueGroup, context: RenderContext): string {
  if (context.mention === 'none') return '';
  const logins = new Set<string>();
  for (const git of Object.values(context.ranges)) {
    if ('error' in git) continue;
    for (const c of git.commits) if (context.people.logins[c.sha]) logins.add(context.people.logins[c.sha]!);
    if (context.mention === 'authors-and-blame') for (const f of git.blame) for (const a of f.authors) if (context.people.logins[a.sha]) logins.add(context.people.logins[a.sha]!);
  }
  if (logins.size === 0) return '';
  return `cc ${[...logins].sort().map((l) => `@${l}`).join(' ')}`;
}

function escapeMarkdown(text: string): string {
  return text.replace(/([\\`*_[\]<>|])/g, '\\$1');
}
