/**
 * How long `nightbench --help` takes to start: the compiled CLI (dist/, what bin/nightbench.js
 * runs after `npm run build`) against the TypeScript sources through tsx's loader (what every
 * start cost before the build existed), interleaved in one run so the machine's noise falls on both.
 *   npx tsx bench/cli-startup.ts [rounds]
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { median, quantile } from 'simple-statistics';

const rounds = Number(process.argv[2] ?? 15);
const root = fileURLToPath(new URL('../', import.meta.url));
const entries = {
  compiled: ['--input-type=module', '-e', "const { main } = await import('./dist/cli.js'); process.exitCode = await main(['--help']);"],
  sources: ['--input-type=module', '-e', "(await import('tsx/esm/api')).register(); const { main } = await import('./src/cli.ts'); process.exitCode = await main(['--help']);"],
};

execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
const seconds: Record<string, number[]> = { compiled: [], sources: [] };
for (let round = 0; round < rounds; round++) {
  for (const [name, args] of Object.entries(entries)) {
    const start = process.hrtime.bigint();
    execFileSync(process.execPath, args, { cwd: root, stdio: 'ignore' });
    seconds[name]!.push(Number(process.hrtime.bigint() - start) / 1e9);
  }
  process.stderr.write(`round ${round + 1}/${rounds}\n`);
}
console.log(`nightbench --help, ${rounds} interleaved starts each (seconds)`);
console.log('entry     median   p10    p90');
for (const [name, values] of Object.entries(seconds)) {
  console.log(`${name.padEnd(9)} ${median(values).toFixed(3)}  ${quantile(values, 0.1).toFixed(3)}  ${quantile(values, 0.9).toFixed(3)}`);
}
console.log(`sources / compiled: x${(median(seconds.sources!) / median(seconds.compiled!)).toFixed(2)}`);
