import { existsSync } from 'node:fs';
import { storeError } from '../errors.js';
import { openDatabase, type Db } from './database.js';

/**
 * The tables that hold recorded facts, parents first. Derived tables (detection's episodes)
 * are not merged: detection runs again on the merged history. Triage events are facts (what a
 * maintainer said) and are merged.
 */
export const mergedTables = ['commits', 'ab_tests', 'runs', 'run_commits', 'repeats', 'results', 'samples', 'triage_events'] as const;

export interface MergeCounts {
  source: string;
  added: Record<string, number>;
}

/**
 * Copies every row of `sourceFile` that `target` lacks. Rows are keyed by run UUIDs and natural
 * keys, so merging the same shard twice adds nothing. The source is brought to the same schema first.
 */
export function mergeDatabase(target: Db, sourceFile: string): MergeCounts {
  if (!existsSync(sourceFile)) throw storeError(`cannot merge ${sourceFile}: no such file`);
  openDatabase(sourceFile).close();
  target.prepare('ATTACH DATABASE ? AS shard').run(sourceFile);
  try {
    const added: Record<string, number> = {};
    target
      .transaction(() => {
        for (const table of mergedTables) {
          const columns = (target.prepare(`SELECT name FROM pragma_table_info('${table}')`).all() as { name: string }[]).map((c) => c.name).join(', ');
          added[table] = target.prepare(`INSERT OR IGNORE INTO main.${table} (${columns}) SELECT ${columns} FROM shard.${table}`).run().changes;
        }
        // A run that finished in the shard after an earlier merge copied it while still running.
        target
          .prepare(
            `UPDATE main.runs SET status = s.status, finished_at = s.finished_at, error = s.error, cost_usd = s.cost_usd, cluster_info = s.cluster_info
             FROM shard.runs s WHERE s.id = main.runs.id AND main.runs.status = 'running' AND s.status <> 'running'`,
          )
          .run();
      })
      .immediate();
    return { source: sourceFile, added };
  } finally {
    target.prepare('DETACH DATABASE shard').run();
  }
}
