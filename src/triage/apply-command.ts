/**
 * One `/nightbench` comment carried out: parse it, check the author's permission through the
 * API (never from the text), change the episodes in the history and record the command, then
 * act on the issue (label, dispatch the bisect workflow, close) and reply last. A comment already
 * answered (nightbench's own reply marks it) changes nothing; one whose verdict was recorded but
 * whose run GitHub failed midway is completed: each step on GitHub is done exactly once.
 *
 * @module
 */
import { brokenLabel } from '../issues/broken.js';
import type { GitHubClient } from '../issues/github/client.js';
import { gitHubError } from '../issues/github/errors.js';
import { nightbenchLogin, ownTexts } from '../issues/github/identity.js';
import { episodeIssueFingerprint } from '../issues/group.js';
import { readFingerprint } from '../issues/markers.js';
import type { Episode } from '../history/episode-rows.js';
import type { HistoryStore } from '../history/store.js';
import type { TriageCommandName, TriageStep } from '../history/triage-queries.js';
import type { Log } from '../log.js';
import { parseTriageComment } from './command.js';
import { answeredComments, replies, reply, triageLabels } from './replies.js';

/** The bisect workflow (`.github/workflows/bisect.yml`) and the inputs it takes. */
const bisectWorkflow = 'bisect.yml';

export interface TriageComment {
  /** GitHub's id; absent for a command given by flags, which is then never deduplicated. */
  id?: number;
  body: string;
  author: string;
  /** A bot's comments (nightbench's own replies among them) are never commands. */
  authorIsBot: boolean;
  /** ISO time the comment was written. */
  at: string;
}

export interface TriageRequest {
  /** "owner/name". */
  repository: string;
  issueNumber: number;
  comment: TriageComment;
  /** Where workflows are dispatched; asked of GitHub when absent. */
  defaultBranch?: string;
}

export type TriageResult =
  | 'not-a-command'
  | 'not-a-nightbench-issue'
  | 'already-answered'
  | 'refused'
  | 'help'
  | 'unknown-command'
  | 'invalid'
  | 'not-for-broken'
  | 'done';

export interface TriageOutcome {
  result: TriageResult;
  command?: TriageCommandName;
  /** Episodes the command changed or concerned. */
  episodes: number;
  /** The reply posted, if any. */
  reply?: string;
  dispatched?: { workflow: string; ref: string; inputs: Record<string, string> };
  /** The verdict was recorded by an earlier run that GitHub failed midway; this one completed the rest. */
  resumed?: true;
  /** The history read holds none of the issue's episodes yet: the command reaches them by the issue's number when the histories merge. */
  pending?: true;
}

export interface TriageDeps {
  client: GitHubClient;
  store: Pick<HistoryStore, 'episodes' | 'triage'>;
  log: Log;
}

const writers = new Set(['admin', 'maintain', 'write']);

export async function runTriage(deps: TriageDeps, request: TriageRequest): Promise<TriageOutcome> {
  const { client, store, log } = deps;
  const { comment, issueNumber } = request;
  const [owner, repo] = request.repository.split('/') as [string, string];
  const call = async <T>(action: string, body: () => Promise<T>): Promise<T> => {
    try {
      return await body();
    } catch (error) {
      throw gitHubError(action, request.repository, error);
    }
  };

  const parsed = parseTriageComment(comment.body);
  if (parsed === undefined || comment.authorIsBot) return { result: 'not-a-command', episodes: 0 };
  const issue = (await call(`reading #${issueNumber}`, () => client.rest.issues.get({ owner, repo, issue_number: issueNumber }))).data;
  if (issue.pull_request || readFingerprint(issue.body) === undefined) return { result: 'not-a-nightbench-issue', episodes: 0 };
  const own = await call('asking who nightbench is', () => nightbenchLogin(client));
  if (comment.author === own) return { result: 'not-a-command', episodes: 0 };
  if (comment.id !== undefined) {
    const comments = await call(`reading the comments of #${issueNumber}`, () => client.paginate(client.rest.issues.listComments, { owner, repo, issue_number: issueNumber, per_page: 100 }));
    // Only nightbench's own reply answers a comment: a reply marker anyone else types is text.
    if (answeredComments(ownTexts(comments, own)).has(comment.id)) return { result: 'already-answered', episodes: 0 };
  }
  const answer = async (result: TriageResult, text: string, extra: Partial<TriageOutcome> = {}): Promise<TriageOutcome> => {
    const body = reply(comment.id, comment.author, text);
    await call(`replying on #${issueNumber}`, () => client.rest.issues.createComment({ owner, repo, issue_number: issueNumber, body }));
    return { result, episodes: 0, reply: body, ...extra };
  };

  // The permission is GitHub's answer about the login GitHub attached to the comment.
  const permission = await call(`checking ${comment.author}'s permission`, async () => {
    try {
      return (await client.rest.repos.getCollaboratorPermissionLevel({ owner, repo, username: comment.author })).data;
    } catch (error) {
      if ((error as { status?: number }).status === 404) return { permission: 'none', role_name: 'none' };
      throw error;
    }
  });
  if (!writers.has(permission.permission) && !writers.has(permission.role_name)) {
    log.info(`${comment.author} (${permission.role_name}) may not triage: replied, changed nothing`);
    return answer('refused', replies.refused());
  }
  if (parsed.kind === 'help') return answer('help', replies.help());
  if (parsed.kind === 'unknown') return answer('unknown-command', replies.unknown());
  if (parsed.kind === 'invalid') return answer('invalid', replies.invalid(parsed.problem), { command: parsed.command });

  const episodes = issueEpisodes(store.episodes.episodes(), issueNumber, readFingerprint(issue.body)!);
  const unnumbered = episodes.filter((e) => e.issueNumber === undefined).map((e) => e.id);
  if (unnumbered.length > 0) store.episodes.setEpisodeIssue(unnumbered, issueNumber);
  // A broken workload's issue has no episodes (failures are found again by fingerprint), but it
  // is bisected pass/fail by its number like a regression's (`bisect --issue N`). A regression
  // issue without episodes here was opened moments ago and this job's copy of the history predates
  // the nightly's save: the command is recorded all the same (a maintainer's word is never lost)
  // and reaches the episodes by the issue's number once the histories merge.
  const broken = issue.labels.some((label) => (typeof label === 'string' ? label : label.name) === brokenLabel);
  if (broken && parsed.command !== 'bisect') return answer('not-for-broken', replies.notForBroken(issueNumber), { command: parsed.command });
  const pending = episodes.length === 0 && !broken;

  const { command } = parsed;
  const fix = parsed.command === 'fixed-by' ? parsed.sha : undefined;
  const argument = fix ?? parsed.note;
  const key = comment.id === undefined ? `hand:${issueNumber}:${comment.at}` : `comment:${comment.id}`;
  // The history first: recording twice changes nothing, so a run interrupted after this point can run again.
  const firstTime = store.triage.recordTriageEvent({
    key,
    issueNumber,
    episodes: episodes.map((e) => e.fingerprint),
    command,
    ...(argument === undefined ? {} : { argument }),
    author: comment.author,
    issueOpenedAt: issue.created_at,
    at: comment.at,
  });
  // A false alarm ends its episodes too: nothing is left to watch, and the closed issue is not reopened.
  if (command === 'accept' || command === 'false-alarm') store.episodes.markEpisodesAccepted(episodes.map((e) => e.id));
  log.info(
    firstTime
      ? `${comment.author} gave ${command} on #${issueNumber} (${episodes.length} episodes)`
      : `${comment.author}'s ${command} on #${issueNumber} was recorded by an earlier run: completing what GitHub was not yet told`,
  );

  // Each step on GitHub is recorded once done, so a run again after a failure does only the rest;
  // the reply comes last and marks the comment answered.
  const stepsDone = store.triage.triageSteps(key);
  const step = async (name: TriageStep, action: string, body: () => Promise<unknown>): Promise<void> => {
    if (stepsDone.has(name)) return;
    await call(action, body);
    store.triage.recordTriageStep(key, name, new Date().toISOString());
  };
  const labels = issue.labels.map((l) => (typeof l === 'string' ? l : l.name));
  const label = triageLabels[command];
  if (label && !labels.includes(label)) await step('labelled', `labelling #${issueNumber}`, () => client.rest.issues.addLabels({ owner, repo, issue_number: issueNumber, labels: [label] }));
  const done: Partial<TriageOutcome> = { command, episodes: episodes.length, ...(firstTime ? {} : { resumed: true as const }), ...(pending ? { pending: true as const } : {}) };
  // The command carried out: its reply says so, and that it reaches the episodes later when they are not here yet.
  const finish = (text: string, extra: Partial<TriageOutcome> = {}) => answer('done', pending ? `${text} ${replies.notYetInHistory(issueNumber)}` : text, { ...done, ...extra });
  switch (command) {
    case 'accept':
    case 'false-alarm': {
      if (issue.state !== 'closed') {
        await step('closed', `closing #${issueNumber}`, () =>
          client.rest.issues.update({ owner, repo, issue_number: issueNumber, state: 'closed', state_reason: command === 'accept' ? 'completed' : 'not_planned' }),
        );
      }
      return finish(command === 'accept' ? replies.accepted(episodes.length) : replies.falseAlarm(episodes.length));
    }
    case 'bisect':
    case 'rerun': {
      const ref = request.defaultBranch ?? (await call('reading the default branch', () => client.rest.repos.get({ owner, repo }))).data.default_branch;
      const inputs = { issue: String(issueNumber), mode: command };
      await step('dispatched', `starting ${bisectWorkflow}`, () => client.rest.actions.createWorkflowDispatch({ owner, repo, workflow_id: bisectWorkflow, ref, inputs }));
      return finish(replies.dispatched(command, ref), { dispatched: { workflow: bisectWorkflow, ref, inputs } });
    }
    case 'fixed-by':
      return finish(replies.fixRecorded(fix!));
  }
}

/**
 * The episodes an issue reports: those numbered with it, else the regressions grouped under its
 * fingerprint whose number the history does not hold yet (the nightly opened the issue, then
 * failed to save or to record the number). Only regressions: an improvement of the same range has
 * the same fingerprint of its own and is noted on the issue, never reported by it.
 */
function issueEpisodes(all: readonly Episode[], issueNumber: number, fingerprint: string): Episode[] {
  const numbered = all.filter((e) => e.issueNumber === issueNumber);
  return numbered.length > 0 ? numbered : all.filter((e) => e.issueNumber === undefined && e.kind === 'regression' && episodeIssueFingerprint(e) === fingerprint);
}
