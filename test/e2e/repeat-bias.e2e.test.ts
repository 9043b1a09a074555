import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openHistory } from '../../src/history/open.js';
import { runCli } from '../helpers/cli.js';
import { leftoverClusterProcesses } from '../helpers/processes.js';
import { tempDir } from '../helpers/temp-dir.js';

/**
 * The first repeat after a cluster starts must run on what later repeats run on. Measured on this
 * (shared, loaded) machine at scale 0.05 before the fix, repeat 1 spent 2.9 and 4.4 s in
 * serialization (fresh workers importing pandas and dask while deserializing its first tasks)
 * against 0.00-0.03 s for repeats 2-6, and used +46% CPU; after it, 0.00-0.01 s and +10-20%, with
 * repeat-to-repeat spread of cpu_time of about +/-20% under load. Hence the bound: serialization
 * within 0.5 s of the later repeats' highest (the fault was 3-4 s). CPU time is not asserted: one
 * repeat's CPU on a loaded machine spreads by as much as the fault added (a whole-suite run beside
 * two busy loops gave repeat 1 +43% over the median of three later repeats, and another run on a
 * loaded machine +41% over their highest, with no import in it and serialization within bounds).
 */
describe('the first repeat on a real local Dask cluster', () => {
  it('runs on what the later repeats run on: no imports inside it', async () => {
    const dir = tempDir('nb-bias-');
    const db = path.join(dir, 'history.sqlite');
    const result = await runCli(
      ['run', '--db', db, '--workers', '2', '--memory', '1GiB', '--repeats', '4', '--warmup-repeats', '0', '--scale', '0.05', '--workload', 'array_reduction', '--json'],
      { cwd: dir },
    );
    expect(result.code, result.stderr).toBe(0);
    const store = openHistory(db);
    const rows = store.runs.resultRows({});
    store.close();
    expect(rows.filter((r) => r.metric === 'wall_time' && r.status === 'ok')).toHaveLength(4);
    const serialization = (repeat: number) => rows.find((r) => r.repeat === repeat && r.metric === 'serialization_seconds')!.value!;
    expect(serialization(1)).toBeLessThan(Math.max(serialization(2), serialization(3), serialization(4)) + 0.5);
    expect(leftoverClusterProcesses(dir)).toEqual([]);
  });
});
