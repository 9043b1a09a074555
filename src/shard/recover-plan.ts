/**
 * Which earlier runs of the nightly may hold nights the history never got: a run whose history
 * job failed (GitHub down for longer than the save's tries, a runner lost) leaves its shards only
 * in its artifacts, kept 14 days. The next nights look for them. Merging is idempotent, so a
 * shard the history already holds adds nothing: the choice may be generous, never short.
 *
 * @module
 */

/** A workflow run as GitHub's REST API lists it (the fields used here). */
export interface WorkflowRunSummary {
  id: number;
  run_number?: number;
  status: string | null;
  conclusion: string | null;
  created_at: string;
}

/** An artifact as GitHub lists it for a run (the fields used here). */
export interface ArtifactSummary {
  id: number;
  name: string;
  expired: boolean;
  size_in_bytes: number;
}

/** The artifacts the nightly pipeline uploads from each shard (`shard-0`, `shard-1`, ...). */
export const shardArtifactName = /^shard-\d+$/;

/**
 * Finished runs other than this one, created since `since`, that did not succeed: a failed or
 * cancelled run may have lost its save, a successful one saved. Oldest first, so the nights are
 * merged in the order they ran. A run still going is left to its own history job.
 */
export function runsThatMayNotHaveSaved(runs: readonly WorkflowRunSummary[], options: { currentRunId: number; since: Date }): WorkflowRunSummary[] {
  return runs
    .filter((run) => run.id !== options.currentRunId && run.status === 'completed' && run.conclusion !== 'success' && Date.parse(run.created_at) >= options.since.getTime())
    .sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at) || a.id - b.id);
}

/** A run's shard artifacts that can still be downloaded, and those GitHub already removed. */
export function shardArtifacts(artifacts: readonly ArtifactSummary[]): { available: ArtifactSummary[]; expired: ArtifactSummary[] } {
  const shards = artifacts.filter((artifact) => shardArtifactName.test(artifact.name));
  return { available: shards.filter((a) => !a.expired), expired: shards.filter((a) => a.expired) };
}
