/**
 * How long `nightbench --help` takes to start, interleaved in one run so the machine's noise falls
 * on every entry alike:
 * - node: a bare `node -e 0`, the floor no CLI gets under on this machine;
 * - baseline: the compiled CLI of an earlier commit (default main), built from `git archive` in
 *   a throw-away folder: what this change is measured against;
 * - compiled: this checkout's dist/ (what bin/nightbench.js runs after `npm run build`);
 * - sources: the TypeScript sources through tsx's loader (what every start cost before the build).
 *   npx tsx bench/cli-startup.ts [rounds] [baseline-ref]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, quantile } from 'simple-statistics';

const rounds = Number(process.argv[2] ?? 15);
const baselineRef = process.argv[3] ?? 'main';
const root = fileURLToPath(new URL('../', import.meta.url));
const baseline = mkdtempSync(path.join(tmpdir(), 'nb-startup-'));
process.on('exit', () => rmSync(baseline, { recursive: true, force: true }));

execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
execFileSync('sh', ['-c', `git -C "${root}" archive "${baselineRef}" | tar -x -C "${baseline}"`], { stdio: 'inherit' });
symlinkSync(path.join(root, 'node_modules'), path.join(baseline, 'node_modules'));
execFileSync(process.execPath, ['bin/build.js'], { cwd: baseline, stdio: 'inherit' });

const runCompiled = "const { main } = await import('./dist/cli.js'); process.exitCode = await main(['--help']);";
const entries: Record<string, { cwd: string; args: string[] }> = {
  node: { cwd: root, args: ['-e', '0'] },
  baseline: { cwd: baseline, args: ['--input-type=module', '-e', runCompiled] },
  compiled: { cwd: root, args: ['--input-type=module', '-e', runCompiled] },
  sources: { cwd: root, args: ['--input-type=module', '-e', "(await import('tsx/esm/api')).register(); const { main } = await import('./src/cli.ts'); process.exitCode = await main(['--help']);"] },
};

const seconds: Record<string, number[]> = Object.fromEntries(Object.keys(entries).map((name) => [name, []]));
for (let round = 0; round < rounds; round++) {
  for (const [name, { cwd, args }] of Object.entries(entries)) {
    const start = process.hrtime.bigint();
    execFileSync(process.execPath, args, { cwd, stdio: 'ignore' });
    seconds[name]!.push(Number(process.hrtime.bigint() - start) / 1e9);
  }
  process.stderr.write(`round ${round + 1}/${rounds}\n`);
}
console.log(`nightbench --help, ${rounds} interleaved starts each (seconds; baseline: ${baselineRef})`);
console.log('entry     median   p10    p90');
for (const [name, values] of Object.entries(seconds)) {
  console.log(`${name.padEnd(9)} ${median(values).toFixed(3)}  ${quantile(values, 0.1).toFixed(3)}  ${quantile(values, 0.9).toFixed(3)}`);
}
const ratio = (a: string, b: string) => (median(seconds[a]!) / median(seconds[b]!)).toFixed(2);
console.log(`baseline / compiled: x${ratio('baseline', 'compiled')}; sources / compiled: x${ratio('sources', 'compiled')}`);
