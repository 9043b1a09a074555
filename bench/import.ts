/**
 * How fast a real asv history goes into the SQLite history (issue 25 asks >= 200,000 values/s):
 * imports `--source` (default: the django-asv results, extracted from the mirror into a temp
 * folder) into a new temp database with `importHistory`, as `nightbench history import` does,
 * then imports it again (nothing new to write). Prints values, seconds, values/s of each pass,
 * and the time spent only reading and parsing the files, wall and CPU seconds (CPU of every
 * thread: the files are read in a worker thread while the main one writes): a line a pass on
 * stderr, and JSON on stdout with a SHA-256 of each imported table in key order, to compare what
 * two trees store.
 *   npx tsx bench/import.ts [--source DIR]
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openHistory } from '../src/history/open.js';
import { openDatabase } from '../src/history/database.js';
import { importHistory } from '../src/interchange/import.js';
import { readSource } from '../src/interchange/read-source.js';

const { values: flags } = parseArgs({ options: { source: { type: 'string' }, mirror: { type: 'string', default: '/work/.mirror/django+django-asv/repo' } } });
const work = mkdtempSync(path.join(tmpdir(), 'nb-bench-import-'));
let source = flags.source;
if (!source) {
  source = path.join(work, 'django-asv');
  execFileSync('sh', ['-c', `mkdir -p "${source}" && git -C "${flags.mirror}" archive HEAD results | tar -x -C "${source}"`]);
}

// The machine is shared: CPU seconds (user + system of this process) say what the import costs
// whatever else runs; wall seconds say what a user waits on this machine now.
const pass = (label: string, body: () => { values: number; newValues?: number }) => {
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const { values, newValues } = body();
  const cpu = process.cpuUsage(cpuBefore);
  const wall = (performance.now() - started) / 1000;
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  return {
    pass: label, values, ...(newValues === undefined ? {} : { newValues }), seconds: Number(wall.toFixed(2)), valuesPerSecond: Math.round(values / wall),
    cpuSeconds: Number(cpuSeconds.toFixed(2)), valuesPerCpuSecond: Math.round(values / cpuSeconds),
  };
};

const parseOnly = pass('read and parse only', () => {
  let values = 0;
  for (const { runs } of readSource(source, 'asv', { machine: 'default' }).runs()) for (const run of runs) values += run.values.length;
  return { values };
});
const file = path.join(work, 'history.sqlite');
const store = openHistory(file);
const first = pass('import into an empty history', () => importHistory(store, source, { suite: 'django' }));
const again = pass('import again (nothing new)', () => importHistory(store, source, { suite: 'django' }));
store.close();
const passes = [parseOnly, first, again];
const db = openDatabase(file, { readonly: true });
const tables = Object.fromEntries(
  [['runs', 'id'], ['commits', 'repo, sha'], ['run_commits', 'run_id, repo'], ['repeats', 'run_id, workload, repeat'], ['metric_directions', 'suite, workload, metric']].map(([table, key]) => {
    const hash = createHash('sha256');
    for (const row of db.prepare(`SELECT * FROM ${table} ORDER BY ${key}`).raw().iterate()) hash.update(JSON.stringify(row));
    return [table, hash.digest('hex')];
  }),
);
db.close();
// The figures as one line a pass on stderr, for reading; the JSON on stdout, for scripts.
for (const p of passes) {
  process.stderr.write(`${p.pass.padEnd(30)} ${p.values.toLocaleString('en')} values: ${p.seconds.toFixed(2)} s, ${p.valuesPerSecond.toLocaleString('en')} values/s wall; ${p.cpuSeconds.toFixed(2)} CPU s, ${p.valuesPerCpuSecond.toLocaleString('en')} values per CPU second\n`);
}
process.stdout.write(`${JSON.stringify({ source, passes, tables }, null, 2)}\n`);
rmSync(work, { recursive: true, force: true });
