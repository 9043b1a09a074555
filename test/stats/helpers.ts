/**
 * Test-only helpers for the statistics tests: seeded samplers and
 * brute-force reference implementations that share no code with src/stats.
 */
import type { RandomSource } from '../../src/stats/index.js';

/** Standard normal draw (Box-Muller, cosine branch only: simple and seeded). */
export function gaussian(random: RandomSource): number {
  let u = 0;
  while (u === 0) u = random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

/** n lognormal draws with the given median and coefficient of variation. */
export function lognormalSample(random: RandomSource, n: number, median: number, cv: number): number[] {
  const sigma = Math.sqrt(Math.log(1 + cv * cv));
  return Array.from({ length: n }, () => median * Math.exp(sigma * gaussian(random)));
}

/** n normal draws with the given mean and coefficient of variation. */
export function normalSample(random: RandomSource, n: number, mean: number, cv: number): number[] {
  return Array.from({ length: n }, () => mean * (1 + cv * gaussian(random)));
}

/** U of `a` by direct pair counting (ties count 1/2). */
export function bruteU(a: readonly number[], b: readonly number[]): number {
  let u = 0;
  for (const x of a) for (const y of b) u += x > y ? 1 : x === y ? 0.5 : 0;
  return u;
}

/** All k-subsets of {0..n-1} as index arrays. */
export function* subsets(n: number, k: number): Generator<number[]> {
  const idx = Array.from({ length: k }, (_, i) => i);
  for (;;) {
    yield idx.slice();
    let i = k - 1;
    while (i >= 0 && idx[i] === n - k + i) i--;
    if (i < 0) return;
    idx[i]! += 1;
    for (let j = i + 1; j < k; j++) idx[j] = idx[j - 1]! + 1;
  }
}

/**
 * Permutation p-values of U by enumerating every way to split the pooled
 * sample into groups of sizes n1 and n2 (conditional on ties, if any).
 */
export function brutePermutationP(
  a: readonly number[],
  b: readonly number[],
): { less: number; greater: number; twoSided: number } {
  const pooled = [...a, ...b];
  const observed = bruteU(a, b);
  let total = 0;
  let le = 0;
  let ge = 0;
  for (const chosen of subsets(pooled.length, a.length)) {
    const inA = new Set(chosen);
    const xa = chosen.map((i) => pooled[i]!);
    const xb = pooled.filter((_, i) => !inA.has(i));
    const u = bruteU(xa, xb);
    total++;
    if (u <= observed + 1e-9) le++;
    if (u >= observed - 1e-9) ge++;
  }
  const less = le / total;
  const greater = ge / total;
  return { less, greater, twoSided: Math.min(1, 2 * Math.min(less, greater)) };
}

/** Binomial standard error of a proportion p over n trials. */
export function binomialSe(p: number, n: number): number {
  return Math.sqrt((p * (1 - p)) / n);
}

/**
 * Null distribution of U without ties, P(U = k) for k = 0..n1*n2, by the
 * classic recurrence f(m, n, k) = f(m - 1, n, k - n) + f(m, n - 1, k)
 * (the largest pooled value is either in the first sample, where it beats
 * all n values of the second, or in the second). Independent of the
 * q-binomial product used in src/stats.
 */
export function uNullDistribution(n1: number, n2: number): number[] {
  const memo = new Map<string, number[]>();
  const f = (m: number, n: number): number[] => {
    const key = `${m},${n}`;
    const hit = memo.get(key);
    if (hit) return hit;
    let out: number[];
    if (m === 0 || n === 0) out = [1];
    else {
      const left = f(m - 1, n);
      const right = f(m, n - 1);
      out = new Array<number>(m * n + 1).fill(0);
      left.forEach((c, k) => (out[k + n]! += c));
      right.forEach((c, k) => (out[k]! += c));
    }
    memo.set(key, out);
    return out;
  };
  const counts = f(n1, n2);
  const total = counts.reduce((s, c) => s + c, 0);
  return counts.map((c) => c / total);
}

/**
 * Actual size of the exact two-sided Mann-Whitney test that rejects when
 * p <= alpha: the null probability of all U values whose p-value is <= alpha.
 */
export function exactTwoSidedSize(n1: number, n2: number, alpha: number): number {
  const pmf = uNullDistribution(n1, n2);
  const cdf: number[] = [];
  pmf.reduce((s, x, k) => (cdf[k] = s + x), 0);
  const max = n1 * n2;
  let size = 0;
  for (let u = 0; u <= max; u++) {
    const p = Math.min(1, 2 * Math.min(cdf[u]!, cdf[max - u]!));
    if (p <= alpha) size += pmf[u]!;
  }
  return size;
}
