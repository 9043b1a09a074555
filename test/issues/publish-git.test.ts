/**
 * publishIssues with a git target: the issue carries the range's commits, files and blame from
 * the nightly's own clone, and a range that no longer exists (force-push) still opens the issue.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LoadedConfig } from '../../src/config/load.js';
import { configSchema } from '../../src/config/schema.js';
import type { DetectionReport } from '../../src/detect/index.js';
import { publishIssues } from '../../src/issues/publish.js';
import { openHistory } from '../../src/history/open.js';
import type { HistoryStore } from '../../src/history/store.js';
import type { Log } from '../../src/log.js';
import { createScratchRepo, gitIn, numberedLines, type ScratchRepo } from '../git/scratch-repo.js';
import { tempDir } from '../helpers/temp-dir.js';

const warnings: string[] = [];
const log: Log = { info: () => {}, debug: () => {}, warn: (m) => warnings.push(m) };

describe('publishIssues with a git target', () => {
  let dir: string;
  let store: HistoryStore;
  let upstream: ScratchRepo;
  let good: string;
  let bad: string;

  beforeEach(() => {
    dir = tempDir('nightbench-publish-git-');
    store = openHistory(path.join(dir, 'history.sqlite'));
    upstream = createScratchRepo();
    good = upstream.commit({ 'pkg/core.py': numberedLines(10) }, 'Initial', { name: 'Ada Lovelace', email: 'ada@example.org' }, '2026-12-01T10:00:00Z');
    bad = upstream.commit({ 'pkg/core.py': numberedLines(10).replace('line 5\n', 'slow 5\n') }, 'Slow down line 5 (#2)', { name: 'Linus Slow', email: 'linus@example.org' }, '2026-12-02T10:00:00Z');
    // The nightly's clone, where it always is: <workdir>/checkouts/<repo>.
    mkdirSync(path.join(dir, '.nightbench', 'checkouts'), { recursive: true });
    gitIn(dir, ['clone', '--quiet', '--depth', '1', `file://${upstream.dir}`, path.join(dir, '.nightbench', 'checkouts', 'pkg')]);
    warnings.length = 0;
  });
  afterEach(() => {
    store.close();
  });

  const loaded = (): LoadedConfig => ({
    config: configSchema.parse({ target: { kind: 'git', name: 'pkg', repositories: [{ name: 'pkg', url: upstream.dir }] }, suites: ['tiny'] }),
    baseDir: dir,
  });

  function plantEpisode(from: string, to: string): DetectionReport {
    store.episodes.recordNight([
      {
        action: 'open',
        episode: {
          kind: 'regression', fingerprint: 'e1', seriesKey: 'k', unit: 's', direction: 'lower',
          identity: { suite: 'tiny', workload: 'target_work', workloadVersion: '1', metric: 'wall_time', environmentName: 'default', environmentFingerprint: 'f', provider: 'local', clusterShape: 'local:2x1:1GiB' },
          lastGood: { night: '2026-12-01', runId: 'r1', commits: { pkg: from } }, firstBad: { night: '2026-12-02', runId: 'r2', commits: { pkg: to } },
          baselineMedian: 2, baselineNoise: 0.02, newMedian: 4, ratio: 2, pValue: 0.001, state: 'open', lastNight: '2026-12-02', latestMedian: 4, nightsBack: 0,
        },
      },
    ], undefined);
    return { night: '2026-12-02', dryRun: false, verdicts: [], counts: {} as DetectionReport['counts'], changes: [], openedIds: [1], activeEpisodes: store.episodes.episodes(), unconfirmedEpisodes: [] };
  }

  it('collects commits, files and blame from a shallow clone, fetching what it lacks', async () => {
    const result = await publishIssues({ report: plantEpisode(good, bad), store, loaded: loaded(), env: {}, log });
    expect(result.failed).toBe(0);
    const body = readFileSync(path.join(dir, 'reports', 'issues', `${result.actions[0]!.group.fingerprint}.md`), 'utf8');
    expect(body).toContain('Slow down line 5 #2 — Linus Slow, 2026-12-02');
    expect(body).toContain('| `pkg/core.py` | 1 | 1 |');
    expect(body).toContain('- `pkg/core.py`: Ada Lovelace, 7 lines');
    expect(warnings).toEqual([]);
  });

  it('still opens the issue when the range was force-pushed away, and says so', async () => {
    const gone = 'badc0ffee'.padEnd(40, '0');
    const result = await publishIssues({ report: plantEpisode(good, gone), store, loaded: loaded(), env: {}, log });
    expect(result.failed).toBe(0);
    const body = readFileSync(path.join(dir, 'reports', 'issues', `${result.actions[0]!.group.fingerprint}.md`), 'utf8');
    expect(body).toMatch(/git context unavailable: pkg: commit badc0ffee000 no longer exists .*force-pushed/);
    expect(warnings.join('\n')).toMatch(/no git context for pkg/);
    expect(store.episodes.episodes()).toHaveLength(1);
  });
});
