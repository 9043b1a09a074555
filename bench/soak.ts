/**
 * A month of faults: `--nights` simulated nights (default 30) driven through the same CLI steps
 * the workflows run (shard, merge, detect, issues, history save to a git branch, triage, other
 * writers saving at once), against the fake GitHub and a throw-away bare repository served over
 * git's smart HTTP, with the cheap suite. Faults are injected on a fixed schedule, each kind every
 * eight nights from night 2: a shard killed mid-workload, GitHub 502s on issue writes, 403
 * secondary rate limits on issue writes and closes, a triage comment racing the nightly's save,
 * two writers saving at once, a corrupt shard database, an EC2 worker host reclaimed under a
 * repeat (moto), the history's remote answering 502 (a fetch refused twice, a save's push landing
 * with its answer lost). The target slows down 2x on the night a third of the way in and comes
 * back two thirds of the way in, so a regression issue opens and closes. Prints a table of the
 * nights and of the invariants: nothing lost, every failure the machine's and said so, no broken
 * issue, no duplicate issue, no issue opened by a fault, every issue in the state its series says.
 * Exit 1 when an invariant is violated.
 *   npx tsx bench/soak.ts [--nights 30] [--quiet]
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { allFaults, renderSoak, runSoak, type Fault } from '../test/helpers/soak.js';

const { values: flags } = parseArgs({ options: { nights: { type: 'string', default: '30' }, quiet: { type: 'boolean', default: false } } });
const nights = Number(flags.nights);
if (!Number.isInteger(nights) || nights < 3) {
  process.stderr.write('soak: --nights must be an integer of at least 3\n');
  process.exit(2);
}

// The workflows run the compiled CLI, and bin/nightbench.js runs it only when it is newer than src/.
execFileSync('npm', ['run', '--silent', 'build'], { cwd: fileURLToPath(new URL('../', import.meta.url)), stdio: 'inherit' });

/** Each kind of fault every eight nights (one per kind), the kinds offset by one night, from night 2 on. */
const faults = new Map<number, Fault[]>();
for (let night = 1; night < nights; night++) {
  const kind = allFaults[(night - 1) % allFaults.length]!;
  faults.set(night, [kind]);
}
const began = Date.now();
const result = await runSoak({
  nights,
  faults,
  slowFrom: Math.floor(nights / 3),
  fastFrom: Math.floor((2 * nights) / 3),
  log: flags.quiet ? undefined : (line) => process.stderr.write(`${line}\n`),
});
process.stdout.write(renderSoak(result));
process.stdout.write(`${((Date.now() - began) / 1000).toFixed(0)} s in all\n`);
process.exit(result.invariants.some((i) => i.violations.length > 0) ? 1 : 0);
