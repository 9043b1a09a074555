/**
 * How good the bisect's answers are, on a SIMULATED runner (src/bisect/simulated.ts: seeded
 * lognormal noise, 17 states = 16 commits across two repositories, a slowdown planted in the
 * 11th), so 20 trials take a second instead of cluster hours. The end-to-end tests
 * (test/e2e/bisect.e2e.test.ts) run the same search on real checkouts and processes.
 * Prints, per scenario: right culprit, wrong culprit, other outcomes, and the median steps,
 * repeats and cluster minutes (at --seconds-per-repeat, default 60: one repeat of a nightly
 * workload with its cluster start).
 *   npx tsx bench/bisect-quality.ts [--trials 20] [--cv 0.1] [--slowdown 0.3] [--seconds-per-repeat 60]
 */
import { median } from 'simple-statistics';
import { bisect, type BisectResult } from '../src/bisect/search.js';
import { simulatedPort } from '../src/bisect/simulated.js';

const option = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
};
const trials = option('trials', 20);
const cv = option('cv', 0.1);
const slowdown = option('slowdown', 0.3);
const secondsPerRepeat = option('seconds-per-repeat', 60);
const last = 16;
const culprit = 11;

async function scenario(name: string, steps: Record<number, number>, drift = 0): Promise<void> {
  const results: BisectResult[] = [];
  for (let seed = 1; seed <= trials; seed++) {
    results.push(await bisect(simulatedPort({ base: 10, steps, cv, seed, drift }), { mode: 'metric', last, priorNoise: cv, seed }));
  }
  const named = (r: BisectResult) => (r.outcome.kind === 'culprit' ? r.outcome.state : undefined);
  const planted = Object.keys(steps).map(Number);
  const right = results.filter((r) => planted.length === 1 && named(r) === planted[0]).length;
  const wrong = results.filter((r) => named(r) !== undefined && !planted.includes(named(r)!)).length;
  const outcomes = new Map<string, number>();
  for (const r of results) outcomes.set(r.outcome.kind, (outcomes.get(r.outcome.kind) ?? 0) + 1);
  const stepCounts = results.map((r) => r.steps.filter((s) => s.kind === 'step').length);
  const repeats = results.map((r) => r.repeats);
  console.log(
    `${name.padEnd(34)} right ${String(right).padStart(2)}/${trials}  wrong ${String(wrong).padStart(2)}/${trials}  outcomes ${[...outcomes].map(([k, n]) => `${k} ${n}`).join(', ').padEnd(34)}` +
      `  median steps ${median(stepCounts)}, repeats ${median(repeats)}, cluster minutes ${((median(repeats) * secondsPerRepeat) / 60).toFixed(0)}`,
  );
}

console.log(`${trials} seeded trials, ${last} commits, CV ${cv * 100}% per repeat, simulated runner (${secondsPerRepeat} s per repeat)`);
await scenario(`+${slowdown * 100}% at commit ${culprit}`, { [culprit]: slowdown });
await scenario(`+${slowdown * 100}% at ${culprit}, drift 0.2%/repeat`, { [culprit]: slowdown }, 0.002);
await scenario('no regression', {});
await scenario(`spread: +${(slowdown * 50).toFixed(0)}% at 9 and at 12`, { 9: slowdown / 2, 12: slowdown / 2 });
