/**
 * Writes a recorded history's nightly values of a few metrics as a gzipped JSON fixture for the
 * tests (databases are never committed):
 *   npx tsx bench/export-history-fixture.ts HISTORY.sqlite OUT.json.gz [--metrics wall_time,compute_seconds]
 */
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openHistory } from '../src/history/open.js';
import { encodeFixture, historyFixture } from '../test/helpers/history-fixture.js';

const [file, out] = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && all[i - 1] !== '--metrics');
if (!file || !out) {
  process.stderr.write('usage: npx tsx bench/export-history-fixture.ts HISTORY.sqlite OUT.json.gz [--metrics wall_time,compute_seconds]\n');
  process.exit(2);
}
const at = process.argv.indexOf('--metrics');
const metrics = at >= 0 ? process.argv[at + 1]!.split(',') : ['wall_time', 'compute_seconds'];
// A copy: opening brings the schema up to date, and the recorded file must stay as it is.
const dir = mkdtempSync(path.join(tmpdir(), 'nb-fixture-'));
const copy = path.join(dir, 'history.sqlite');
copyFileSync(file, copy);
const store = openHistory(copy, { migrate: true });
const fixture = historyFixture(store.runs.resultRows({ kind: 'nightly' }), metrics, path.basename(file));
store.close();
rmSync(dir, { recursive: true, force: true });
const bytes = encodeFixture(fixture);
writeFileSync(out, bytes);
process.stderr.write(`${out}: ${fixture.runs.length} runs, ${fixture.runs.at(0)?.night} .. ${fixture.runs.at(-1)?.night}, ${(bytes.length / 1024).toFixed(1)} KiB\n`);
