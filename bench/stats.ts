/**
 * Benchmark of one A/B analysis as nightbench runs it per benchmark:
 * summarize both sides + Mann-Whitney U + bootstrap CI of the ratio of
 * medians (2000 resamples). Prints the time per 1,000 analyses.
 *
 * Run: npx tsx bench/stats.ts
 */
import { bootstrapRatioOfMedians, createRandom, mannWhitneyU, summarize } from '../src/stats/index.js';

function gaussian(random: () => number): number {
  let u = 0;
  while (u === 0) u = random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

function sample(random: () => number, n: number, median: number): number[] {
  const sigma = Math.sqrt(Math.log(1 + 0.05 * 0.05));
  return Array.from({ length: n }, () => median * Math.exp(sigma * gaussian(random)));
}

function analyse(baseline: number[], candidate: number[], random: () => number): number {
  const b = summarize(baseline);
  const c = summarize(candidate);
  const mw = mannWhitneyU(candidate, baseline);
  const ci = bootstrapRatioOfMedians(baseline, candidate, { random, resamples: 2000 });
  return b.median + c.median + mw.p + ci.low + ci.high; // keep results live
}

function bench(n: number, analyses: number, rounds: number): void {
  const data = createRandom(n);
  const inputs = Array.from({ length: analyses }, (_, i) => ({
    baseline: sample(data, n, 1),
    candidate: sample(data, n, i % 2 === 0 ? 1 : 1.1),
  }));
  const random = createRandom(1);
  let sink = 0;
  for (const { baseline, candidate } of inputs.slice(0, 200)) sink += analyse(baseline, candidate, random); // warm-up
  const times: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const t0 = performance.now();
    for (const { baseline, candidate } of inputs) sink += analyse(baseline, candidate, random);
    times.push(performance.now() - t0);
  }
  times.sort((x, y) => x - y);
  const median = times[Math.floor(times.length / 2)]!;
  const best = times[0]!;
  console.log(
    `n=${String(n).padStart(2)} per side: ${median.toFixed(0).padStart(5)} ms per 1,000 A/B analyses ` +
      `(median of ${rounds} rounds, best ${best.toFixed(0)} ms; ${(median / analyses).toFixed(3)} ms each)` +
      (Number.isFinite(sink) ? '' : ' [non-finite result!]'),
  );
}

console.log('A/B analysis = summarize x2 + Mann-Whitney U + bootstrap ratio of medians (2000 resamples)');
console.log(`node ${process.version}, ${process.platform}/${process.arch}`);
for (const n of [5, 10]) bench(n, 1000, 5);
