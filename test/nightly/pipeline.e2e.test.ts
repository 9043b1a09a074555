/**
 * The sharded nightly driven in this process through src/nightly/pipeline's steps, in the order
 * the nightly workflow runs them (plan job, shard job, history job), each job in its own folder
 * as a runner would have it: the cheap suite (no Dask, sub-second repeats) on two throw-away
 * target repositories, the history kept on a throw-away bare git repository, issues as files.
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, resolvePath } from '../../src/config/load.js';
import { silentLog } from '../../src/log.js';
import type { NightContext } from '../../src/nightly/context.js';
import { detectNight, fetchHistory, mergeShards, planNightShards, publishNightIssues, runNight, saveHistory, summarizeNight } from '../../src/nightly/pipeline.js';
import { cheapa, cheapb, cheapIssuesConfig, createCheapTarget } from '../helpers/cheap-target.js';
import { sqlAll } from '../helpers/sql.js';
import { createBareRepo } from '../history-sync/helpers.js';
import { tempDir } from '../helpers/temp-dir.js';

const ada = { name: 'Ada Lovelace', email: 'ada@example.org' };

describe('the sharded nightly, step by step in one process', () => {
  const dir = tempDir('nb-pipeline-');
  const target = createCheapTarget();
  const remote = { remote: 'git', repo: createBareRepo(dir), branch: 'nightbench-history' };
  // No token: the issues go to Markdown files, and GitHub is never asked.
  // Only the work's own time is judged (see cheapIssuesConfig).
  const config = JSON.stringify({ ...cheapIssuesConfig(target, 'http://127.0.0.1:9'), github: { repository: 'acme/perf' } });

  /** A job of the night: its own folder with the config, and its local history file. */
  const job = (night: string, name: string, history: string): NightContext => {
    const cwd = path.join(dir, night, name);
    mkdirSync(cwd, { recursive: true });
    writeFileSync(path.join(cwd, 'nightbench.config.json'), config);
    const loaded = loadConfig({ file: path.join(cwd, 'nightbench.config.json') });
    return { loaded, historyPath: path.join(cwd, history), log: silentLog, resolve: (relative) => resolvePath(loaded, relative) };
  };
  const repeats = (file: string) => (sqlAll(file, "SELECT r.night || ' ' || p.workload || ' #' || p.repeat AS k FROM repeats p JOIN runs r ON r.id = p.run_id WHERE p.status = 'ok' ORDER BY 1") as { k: string }[]).map((r) => r.k);

  /** One night through every step; returns the shard's repeats and what the history job saw. */
  async function night(date: string) {
    const plan = job(date, 'plan', 'history.sqlite');
    await fetchHistory(remote, plan.historyPath, plan.log);
    const planned = await planNightShards(plan, { shards: 2, out: plan.resolve('shard-plan.json'), defaultSeconds: 60, overheadSeconds: 10, nights: 7 });

    const shardFiles: string[] = [];
    for (const shard of planned.shards) {
      const shardJob = job(date, `shard-${shard.index}`, 'shard.sqlite');
      const outcome = await runNight(shardJob, { night: date, shard: { spec: `${shard.index}/${planned.count}`, planFile: plan.resolve('shard-plan.json') }, detect: false });
      expect(outcome.reports.map((r) => r.status)).toEqual(['complete']);
      expect(outcome.published).toBeUndefined();
      const own = await summarizeNight(shardJob, { night: date, detect: false });
      expect(own.outputs['runs']).toBe('1');
      shardFiles.push(shardJob.historyPath);
    }
    // A shard's artifact that arrived corrupt: skipped, and the others' night still lands.
    const corrupt = path.join(dir, date, 'corrupt.sqlite');
    writeFileSync(corrupt, 'not a database '.repeat(256));

    const history = job(date, 'history', 'history.sqlite');
    await fetchHistory(remote, history.historyPath, history.log);
    const merge = mergeShards(history, [...shardFiles, corrupt]);
    expect(merge.merged).toHaveLength(shardFiles.length);
    expect(merge.unreadable.map((u) => u.shard)).toEqual([corrupt]);
    const judged = detectNight(history, { night: date });
    const issues = await publishNightIssues(history, { night: date });
    const saved = await saveHistory(remote, history.historyPath, history.log);
    expect(saved.data.changed).toBe(true);
    const summary = await summarizeNight(history, { night: date, expectedShards: planned.count, detect: true });
    return { planned, shardRepeats: shardFiles.flatMap(repeats), judged, issues, summary, issueFiles: path.join(path.dirname(history.historyPath), 'reports/issues') };
  }

  it('lands every night whole in the stored history, and files the slowdown of the fourth as an issue', async () => {
    target.a.commit({ 'cheapa.py': cheapa(0.1) }, 'Add cheapa', ada, '2026-10-30T10:00:00Z');
    target.b.commit({ 'cheapb.py': cheapb(0) }, 'Add cheapb', ada, '2026-10-30T09:00:00Z');
    const first = await night('2026-11-01');
    // The cheap suite has one workload: the plan asks for 2 shards and makes 1.
    expect(first.planned.count).toBe(1);
    expect(first.shardRepeats).toHaveLength(3);
    expect(first.summary.outputs['missing-shards']).toBe('');
    await night('2026-11-02');
    await night('2026-11-03');
    target.a.commit({ 'cheapa.py': cheapa(0.3) }, 'Be thorough (#11)', ada, '2026-11-04T00:30:00Z');
    const slow = await night('2026-11-04');

    // The stored history, as the next night's first step fetches it, holds every repeat of every shard.
    const next = job('2026-11-05', 'plan', 'history.sqlite');
    const fetched = await fetchHistory(remote, next.historyPath, next.log);
    expect(fetched.data.found).toBe(true);
    const stored = repeats(next.historyPath);
    expect(stored).toHaveLength(12);
    expect(stored).toEqual(expect.arrayContaining(slow.shardRepeats));
    expect(stored.filter((k) => k.startsWith('2026-11-01'))).toEqual(first.shardRepeats);

    expect(slow.judged.activeEpisodes.filter((e) => e.kind === 'regression').map((e) => e.identity.metric)).toContain('work_time');
    expect(slow.issues.outcomes?.filter((o) => o.action.kind === 'open')).toHaveLength(1);
    expect(readdirSync(slow.issueFiles).filter((f) => f.endsWith('.md'))).toHaveLength(1);
    expect(slow.summary.outputs['regressions']).not.toBe('0');
  });
});
