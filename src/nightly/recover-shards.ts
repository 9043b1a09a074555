/**
 * The shards of this workflow's earlier runs that did not succeed, downloaded for the merge that
 * follows, so the nights a failed save left behind reach the history (`shard recover`; which runs
 * and artifacts: src/shard/recover-plan.ts). Merging is idempotent, so a shard the history
 * already holds adds nothing.
 *
 * @module
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { repositoryFullName } from '../config/github-section.js';
import { NightbenchError } from '../errors.js';
import { formatCount } from '../format/index.js';
import { gitHubClientFromEnv, type GitHubClient } from '../issues/github/client.js';
import { gitHubError } from '../issues/github/errors.js';
import type { Log } from '../log.js';
import { runsThatMayNotHaveSaved, shardArtifacts, type ArtifactSummary, type WorkflowRunSummary } from '../shard/recover-plan.js';
import type { NightContext } from './context.js';

export interface RecoverShardsRequest {
  /** Where the shards go (resolved against the config's folder). */
  out: string;
  days: number;
  /**
   * Default: $GITHUB_REPOSITORY, the repository whose workflow runs this; not github.repository,
   * which may name another repository that only gets the issues.
   */
  repository?: string;
  /** Default: $GITHUB_RUN_ID. */
  runId?: number;
}

/** {@link recoverEarlierShards} for a command: the repository, run and token from the flags, the config or the workflow's environment (the token from the variable github.tokenEnv names). */
export async function recoverShards(context: NightContext, request: RecoverShardsRequest): Promise<RecoverOutcome & { text: string }> {
  const repository = request.repository ?? process.env['GITHUB_REPOSITORY'];
  if (!repository || !repositoryFullName.test(repository)) {
    throw new NightbenchError('usage', `shard recover needs the repository whose workflow runs it, as owner/name (--repository or $GITHUB_REPOSITORY), got ${repository ?? 'none'}`);
  }
  const runId = request.runId ?? Number(process.env['GITHUB_RUN_ID']);
  if (!Number.isInteger(runId) || runId < 1) throw new NightbenchError('usage', "shard recover needs this run's id (--run-id or $GITHUB_RUN_ID)");
  const client = gitHubClientFromEnv(context.loaded.config.github, 'shard recover', context.log);
  const outcome = await recoverEarlierShards(client, { repository, runId, days: request.days, out: context.resolve(request.out), now: new Date(), log: context.log });
  const text = `${formatCount(outcome.recovered.length, 'shard')} of ${formatCount(outcome.runs, 'earlier run')} that did not succeed${outcome.expired.length ? `; ${outcome.expired.length} expired` : ''}`;
  context.log.info(text);
  return { ...outcome, text };
}

interface RecoverOptions {
  /** owner/name */
  repository: string;
  /** This run ($GITHUB_RUN_ID): its workflow is searched, and it is left out. */
  runId: number;
  /** How far back to look; GitHub keeps the shard artifacts 14 days. */
  days: number;
  /** Each shard lands in `out/run-<id>-<artifact>/shard.sqlite`. */
  out: string;
  now: Date;
  log: Log;
}

export interface RecoveredShard {
  runId: number;
  runNumber?: number;
  conclusion: string | null;
  createdAt: string;
  artifact: string;
  file: string;
}

export interface RecoverOutcome {
  /** Earlier runs of the workflow in the window that did not succeed. */
  runs: number;
  recovered: RecoveredShard[];
  /** Shard artifacts of those runs GitHub had already removed: their nights are lost unless saved. */
  expired: { runId: number; artifact: string }[];
}

async function recoverEarlierShards(client: GitHubClient, options: RecoverOptions): Promise<RecoverOutcome> {
  const [owner, repo] = options.repository.split('/') as [string, string];
  const since = new Date(options.now.getTime() - options.days * 86_400_000);
  const ask = async <T>(action: string, request: () => Promise<T>): Promise<T> => {
    try {
      return await request();
    } catch (error) {
      throw gitHubError(action, options.repository, error);
    }
  };
  const current = await ask(`reading run ${options.runId}`, () => client.rest.actions.getWorkflowRun({ owner, repo, run_id: options.runId }));
  const listed = await ask('listing the workflow\'s earlier runs', () =>
    client.paginate(client.rest.actions.listWorkflowRuns, { owner, repo, workflow_id: current.data.workflow_id, created: `>=${since.toISOString().slice(0, 10)}`, per_page: 100 }),
  );
  const runs = runsThatMayNotHaveSaved(listed as WorkflowRunSummary[], { currentRunId: options.runId, since });
  options.log.info(`${formatCount(runs.length, 'earlier run')} of this workflow since ${since.toISOString().slice(0, 10)} did not succeed`);
  const outcome: RecoverOutcome = { runs: runs.length, recovered: [], expired: [] };
  for (const run of runs) {
    const artifacts = await ask(`listing the artifacts of run ${run.id}`, () => client.paginate(client.rest.actions.listWorkflowRunArtifacts, { owner, repo, run_id: run.id, per_page: 100 }));
    const { available, expired } = shardArtifacts(artifacts as ArtifactSummary[]);
    for (const artifact of expired) {
      options.log.warn(`run ${run.id}: artifact ${artifact.name} has expired; if that night was never saved, its runs are gone`);
      outcome.expired.push({ runId: run.id, artifact: artifact.name });
    }
    for (const artifact of available) {
      const zip = await ask(`downloading artifact ${artifact.name} of run ${run.id}`, () => client.rest.actions.downloadArtifact({ owner, repo, artifact_id: artifact.id, archive_format: 'zip' }));
      const file = path.join(options.out, `run-${run.id}-${artifact.name}`, 'shard.sqlite');
      const database = shardDatabaseIn(new Uint8Array(zip.data as ArrayBuffer));
      if (typeof database === 'string') {
        options.log.warn(`run ${run.id}: artifact ${artifact.name} ${database}; skipped`);
        continue;
      }
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, database);
      options.log.info(`run ${run.id} (${run.conclusion ?? 'no conclusion'}, ${run.created_at}): ${artifact.name} -> ${file}`);
      outcome.recovered.push({ runId: run.id, ...(run.run_number === undefined ? {} : { runNumber: run.run_number }), conclusion: run.conclusion, createdAt: run.created_at, artifact: artifact.name, file });
    }
  }
  return outcome;
}

/** The shard's database inside an artifact's zip, or what is wrong with the zip. */
function shardDatabaseIn(zip: Uint8Array): Uint8Array | string {
  try {
    return unzipSync(zip, { filter: (entry) => entry.name === 'shard.sqlite' })['shard.sqlite'] ?? 'holds no shard.sqlite';
  } catch (error) {
    return `is not a readable zip (${error instanceof Error ? error.message : String(error)})`;
  }
}
