import { existsSync } from 'node:fs';
import { storeError } from '../errors.js';
import { openDatabase, type Db } from './database.js';

/**
 * The tables that hold recorded facts, parents first: copied row for row (a repeat's values with
 * it, in its row: migration 026). Triage events are
 * facts too (what a maintainer said), and so are the GitHub steps done for them. Detection's episodes are merged apart (`mergeEpisodes`).
 */
export const mergedTables = ['commits', 'ab_tests', 'bisects', 'runs', 'run_commits', 'repeats', 'samples', 'repeat_timelines', 'warmup_repeats', 'triage_events', 'triage_steps', 'unsupported_workloads', 'absent_metrics'] as const;

export interface MergeCounts {
  source: string;
  /** Rows each table gained; `runs` also counts runs that finished since an earlier merge, `regressions` episodes that moved. */
  added: Record<string, number>;
}

export interface MergeOptions {
  /**
   * The source's writer has ended (a shard or bisect job whose machine is gone): a run it left
   * 'running' never finishes, and is merged as incomplete rather than running forever.
   */
  writerEnded?: boolean;
}

/** The error an ended writer's unfinished run is merged with; a later merge of it finished replaces it. */
const endedWriterError = 'its runner stopped before it finished (merged from a database whose writer had ended)';

/**
 * Copies every row of `sourceFile` that `target` lacks. Rows are keyed by run UUIDs and natural
 * keys, so merging the same shard twice adds nothing. The source is brought to the same schema first.
 */
export function mergeDatabase(target: Db, sourceFile: string, options: MergeOptions = {}): MergeCounts {
  if (!existsSync(sourceFile)) throw storeError(`cannot merge ${sourceFile}: no such file`);
  openDatabase(sourceFile).close();
  target.prepare('ATTACH DATABASE ? AS shard').run(sourceFile);
  try {
    const added: Record<string, number> = {};
    target
      .transaction(() => {
        const newBisects = target.prepare('SELECT id FROM shard.bisects WHERE id NOT IN (SELECT id FROM main.bisects)').pluck().all() as string[];
        for (const table of mergedTables) {
          const columns = (target.prepare(`SELECT name FROM pragma_table_info('${table}')`).all() as { name: string }[]).map((c) => c.name).join(', ');
          added[table] = target.prepare(`INSERT OR IGNORE INTO main.${table} (${columns}) SELECT ${columns} FROM shard.${table}`).run().changes;
        }
        // The suite's declared directions travel with its runs: without them a higher-is-better
        // metric would be judged lower-is-better. The source's declaration is the newer one.
        added['metric_directions'] = target
          .prepare(
            `INSERT INTO main.metric_directions (suite, workload, metric, direction) SELECT suite, workload, metric, direction FROM shard.metric_directions WHERE true
             ON CONFLICT (suite, workload, metric) DO UPDATE SET direction = excluded.direction WHERE direction <> excluded.direction`,
          )
          .run().changes;
        added['regressions'] = mergeEpisodes(target);
        // A bisect names its episode by id, and ids are each history's own: follow the fingerprint.
        target
          .prepare(
            `UPDATE main.bisects SET episode_id = (SELECT m.id FROM main.regressions m JOIN shard.regressions s ON s.fingerprint = m.fingerprint WHERE s.id = main.bisects.episode_id)
             WHERE episode_id IS NOT NULL AND id IN (SELECT value FROM json_each(?))`,
          )
          .run(JSON.stringify(newBisects));
        // A run that finished in the shard after an earlier merge copied it while still running
        // (with what its cluster told at the end: the instance type, and so the machine class):
        // counted with the runs, so that a history store saves the merge instead of calling it empty.
        added['runs'] = added['runs']! + target
          .prepare(
            `UPDATE main.runs SET status = s.status, finished_at = s.finished_at, error = s.error, cost_usd = s.cost_usd, cluster_info = s.cluster_info,
               instance_type = s.instance_type, region = s.region, machine_class = s.machine_class
             FROM shard.runs s WHERE s.id = main.runs.id AND s.status NOT IN ('running', 'incomplete')
               AND (main.runs.status = 'running' OR (main.runs.status = 'incomplete' AND main.runs.error = ?))`,
          )
          .run(endedWriterError).changes;
        if (options.writerEnded) {
          added['runs'] = added['runs']! + target
            .prepare(`UPDATE main.runs SET status = 'incomplete', error = ? WHERE status = 'running' AND id IN (SELECT id FROM shard.runs WHERE status = 'running')`)
            .run(endedWriterError).changes;
        }
      })
      .immediate();
    return { source: sourceFile, added };
  } finally {
    target.prepare('DETACH DATABASE shard').run();
  }
}

/**
 * Episodes are derived, but what happened to them is not: an acceptance, an issue number, the
 * nights that advanced them cannot be derived again from the runs. A history saved after
 * detection and issues (the nightly, triage) must keep them, so episodes are merged by their
 * stable fingerprint: new ones are added (with ids of the target's own), a stored one still
 * active takes the other side's state when that side saw a later night or ended it (recovered,
 * accepted, unconfirmed, retired), one that ended never changes (a later night seen elsewhere does not undo
 * an acceptance), and an issue number once known is kept. Returns how many episodes were added or changed.
 */
function mergeEpisodes(target: Db): number {
  const columns = (target.prepare("SELECT name FROM pragma_table_info('regressions') WHERE name <> 'id'").all() as { name: string }[]).map((c) => c.name).join(', ');
  const added = target.prepare(`INSERT OR IGNORE INTO main.regressions (${columns}) SELECT ${columns} FROM shard.regressions ORDER BY id`).run().changes;
  const advanced = target
    .prepare(
      `UPDATE main.regressions SET state = s.state, last_night = s.last_night, latest_median = s.latest_median, nights_back = s.nights_back, recovered_night = s.recovered_night
       FROM shard.regressions s WHERE s.fingerprint = main.regressions.fingerprint
         AND main.regressions.state IN ('open', 'still-regressed') AND (s.last_night > main.regressions.last_night OR s.state IN ('recovered', 'accepted', 'unconfirmed', 'retired'))`,
    )
    .run().changes;
  const numbered = target
    .prepare('UPDATE main.regressions SET issue_number = s.issue_number FROM shard.regressions s WHERE s.fingerprint = main.regressions.fingerprint AND main.regressions.issue_number IS NULL AND s.issue_number IS NOT NULL')
    .run().changes;
  // The issue an episode joined is kept once chosen, as its number is.
  const grouped = target
    .prepare(
      'UPDATE main.regressions SET issue_fingerprint = s.issue_fingerprint FROM shard.regressions s WHERE s.fingerprint = main.regressions.fingerprint AND main.regressions.issue_fingerprint IS NULL AND s.issue_fingerprint IS NOT NULL',
    )
    .run().changes;
  return added + advanced + numbered + grouped;
}
