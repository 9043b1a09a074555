/**
 * Carries out an issue plan through an IssueTracker. A persistent failure on one action does
 * not stop the others: its text goes to the fallback tracker (files), and the outcome says so.
 *
 * @module
 */
import type { Log } from '../log.js';
import { isGitHubFailure } from './github/errors.js';
import type { IssueGroup } from './group.js';
import type { IssueAction } from './plan.js';
import type { IssueTracker, NewIssue, TrackedIssue } from './tracker.js';

/** The texts of the actions, rendered when they are carried out. */
export interface ActionTexts {
  opening(group: IssueGroup): Promise<NewIssue>;
  persist(group: IssueGroup): string;
  recovery(group: IssueGroup, issue: TrackedIssue): string;
  improvement(group: IssueGroup, improvement: string): string;
}

export interface ActionOutcome {
  action: IssueAction;
  /** The issue the action concerned, once known (a new one after opening). */
  issue?: TrackedIssue;
  /** Why the tracker failed; the text then went to `fallback`. */
  error?: string;
  fallback?: string;
}

export async function applyIssueActions(actions: readonly IssueAction[], tracker: IssueTracker, texts: ActionTexts, options: { fallback?: IssueTracker; log: Log }): Promise<ActionOutcome[]> {
  const outcomes: ActionOutcome[] = [];
  for (const action of actions) {
    const attempt = async (on: IssueTracker): Promise<TrackedIssue | undefined> => {
      switch (action.kind) {
        case 'open':
          return on.open(await texts.opening(action.group));
        case 'comment':
          await on.comment(action.issue, texts.persist(action.group));
          return action.issue;
        case 'close':
          await on.close(action.issue, texts.recovery(action.group, action.issue));
          return action.issue;
        case 'note':
          await on.comment(action.issue, texts.improvement(action.group, action.improvement));
          return action.issue;
        case 'accept':
        case 'skip':
          return action.issue;
        case 'unconfirmed':
          return undefined;
      }
    };
    const tried = await attemptWithFallback(attempt, tracker, options);
    if (tried.error === undefined) outcomes.push({ action, issue: tried.value });
    else outcomes.push({ action, error: tried.error, fallback: tried.fallback, ...(action.kind === 'open' || action.kind === 'unconfirmed' ? {} : { issue: action.issue }) });
  }
  return outcomes;
}

/** What one attempt on the tracker gave, or, when GitHub kept failing, its error and the fallback that took the text instead. */
export type Attempted<T> = { value: T; error?: undefined } | { error: string; fallback: string };

/** Carries out `attempt` on `tracker`; a GitHub failure sends it to `fallback` (files) instead, and is reported, not thrown. */
export async function attemptWithFallback<T>(attempt: (on: IssueTracker) => Promise<T>, tracker: IssueTracker, options: { fallback?: IssueTracker; log: Log }): Promise<Attempted<T>> {
  try {
    return { value: await attempt(tracker) };
  } catch (error) {
    if (!isGitHubFailure(error) || !options.fallback) throw error;
    options.log.warn(`${error.message}; writing the text to ${options.fallback.description} instead`);
    await attempt(options.fallback);
    return { error: error.message, fallback: options.fallback.description };
  }
}
