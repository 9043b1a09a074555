/**
 * Mann-Whitney U test (Wilcoxon rank-sum test) for two independent samples.
 *
 * Why this test: benchmark timings are skewed, have occasional outliers and
 * come in small samples (5-10 repeats per side), so a rank test that makes
 * no normality assumption is the default significance test for A/B
 * comparisons. `simple-statistics` has `wilcoxonRankSum`, but it returns only
 * the rank sum, not a p-value, so the distribution is implemented here.
 *
 * @module
 */
import { assertFiniteSample } from './validate.js';
import { normalUpperTail } from './normal.js';

/**
 * Direction of the alternative hypothesis, from the point of view of `a`:
 * `'less'` means values in `a` tend to be smaller than values in `b`,
 * `'greater'` that they tend to be larger.
 */
export type Alternative = 'two-sided' | 'less' | 'greater';

/**
 * How the p-value is computed: `'exact'` from the permutation distribution
 * of U, `'asymptotic'` from the normal approximation, `'auto'` (default)
 * picks exact when it is available (no ties, `n1 + n2 <=` {@link MANN_WHITNEY_EXACT_MAX_N}).
 */
export type MannWhitneyMethod = 'auto' | 'exact' | 'asymptotic';

/** Options of {@link mannWhitneyU}. */
export interface MannWhitneyOptions {
  /** Alternative hypothesis; default `'two-sided'`. */
  alternative?: Alternative;
  /** p-value method; default `'auto'`. Mostly useful in tests. */
  method?: MannWhitneyMethod;
}

/** Result of {@link mannWhitneyU}. */
export interface MannWhitneyResult {
  /**
   * U statistic of `a`: the number of pairs `(a_i, b_j)` with `a_i > b_j`,
   * ties counting 1/2. Ranges from 0 to `n1 * n2`; `n1 * n2 / 2` means no
   * shift. U of `b` is `n1 * n2 - u`.
   */
  u: number;
  /** p-value for the chosen alternative, in `[0, 1]` (exact p-values are never 0). */
  p: number;
  /** True when `p` comes from the exact permutation distribution. */
  exact: boolean;
}

/**
 * Largest total sample size `n1 + n2` for which exact p-values are computed.
 * At 40 the largest permutation count, C(40, 20) ~ 1.4e11, is far below
 * 2^53, so the counts stay exact integers in doubles, and the dynamic
 * programme costs at most ~8,000 additions (cached per (n1, n2)).
 */
export const MANN_WHITNEY_EXACT_MAX_N = 40;

/**
 * The one-sided p of `m` values all beyond `n` others: one arrangement of C(m + n, m), the
 * smallest p the rank test can give these sizes (twice it two-sided). Whatever the ties within
 * each side; exact while C(m + n, m) stays below 2^53.
 */
export function allBeyondP(m: number, n: number): number {
  let arrangements = 1;
  for (let i = 1; i <= m; i++) arrangements = (arrangements * (n + i)) / i;
  return 1 / arrangements;
}

/** The smallest two-sided p the rank test can give `m` values against `n`: 2 / C(m + n, m), at most 1. */
export function smallestTwoSidedP(m: number, n: number): number {
  return Math.min(1, 2 * allBeyondP(m, n));
}

/**
 * Mann-Whitney U test of whether `a` and `b` come from the same
 * distribution, against a location-shift style alternative.
 *
 * - Exact p-value from the permutation distribution of U (counted by dynamic
 *   programming) when there are no ties and `n1 + n2 <= 40`.
 * - Otherwise the normal approximation with tie-corrected variance and a
 *   0.5 continuity correction (the same convention as SciPy's
 *   `mannwhitneyu(..., method='asymptotic', use_continuity=True)`).
 *
 * Two-sided p-values are `min(1, 2 * min(P(U <= u), P(U >= u)))`.
 *
 * Note that exact p-values are discrete: with 5 values per side the
 * attainable two-sided p-values near 0.05 are 0.032 and 0.056, so a test at
 * alpha = 0.05 actually rejects a true null 3.2% of the time.
 *
 * @param a - First sample (e.g. the candidate); non-empty, finite.
 * @param b - Second sample (e.g. the baseline); non-empty, finite.
 * @param options - {@link MannWhitneyOptions}.
 * @returns `{ u, p, exact }`, see {@link MannWhitneyResult}.
 * @throws RangeError on empty or non-finite samples, an unknown option, or
 *   `method: 'exact'` when the exact distribution is not available.
 */
export function mannWhitneyU(
  a: readonly number[],
  b: readonly number[],
  options: MannWhitneyOptions = {},
): MannWhitneyResult {
  assertFiniteSample(a, 'mannWhitneyU: a');
  assertFiniteSample(b, 'mannWhitneyU: b');
  // Each sample sorted on its own (a typed array's native numeric sort), then merged: a sort of
  // indices by a comparator cost three times as much, and the compare page tests 20,000 rows.
  return testOfSorted(Float64Array.from(a).sort(), Float64Array.from(b).sort(), options);
}

/**
 * {@link mannWhitneyU} of two samples each already sorted ascending (not checked): for callers
 * that sort a sample once for its median and its test (the compare page's 20,000 rows).
 *
 * @throws RangeError on empty or non-finite samples, an unknown option, or
 *   `method: 'exact'` when the exact distribution is not available.
 */
export function mannWhitneyUSorted(a: ArrayLike<number>, b: ArrayLike<number>, options: MannWhitneyOptions = {}): MannWhitneyResult {
  assertFiniteSample(a, 'mannWhitneyU: a');
  assertFiniteSample(b, 'mannWhitneyU: b');
  return testOfSorted(a, b, options);
}

/** The test of two checked samples, each sorted ascending: what both entry points share. */
function testOfSorted(a: ArrayLike<number>, b: ArrayLike<number>, options: MannWhitneyOptions): MannWhitneyResult {
  const alternative = options.alternative ?? 'two-sided';
  if (alternative !== 'two-sided' && alternative !== 'less' && alternative !== 'greater') {
    throw new RangeError(`mannWhitneyU: unknown alternative ${String(alternative)}`);
  }
  const method = options.method ?? 'auto';
  if (method !== 'auto' && method !== 'exact' && method !== 'asymptotic') {
    throw new RangeError(`mannWhitneyU: unknown method ${String(method)}`);
  }

  const n1 = a.length;
  const n2 = b.length;
  const { u, tieSum } = rankStatistics(a, b);
  const exactAvailable = tieSum === 0 && n1 + n2 <= MANN_WHITNEY_EXACT_MAX_N;
  if (method === 'exact' && !exactAvailable) {
    throw new RangeError(
      tieSum !== 0
        ? 'mannWhitneyU: exact p-values are not available with tied values'
        : `mannWhitneyU: exact p-values need n1 + n2 <= ${MANN_WHITNEY_EXACT_MAX_N}`,
    );
  }
  if (exactAvailable && method !== 'asymptotic') {
    return { u, p: exactPValue(u, n1, n2, alternative), exact: true };
  }
  return { u, p: asymptoticPValue(u, n1, n2, tieSum, alternative), exact: false };
}

/**
 * U of `sortedA` via mid-ranks of the pooled sample, and the tie term `sum(t^3 - t)` over groups
 * of `t` tied values, by merging the two sorted samples. O(n1 + n2).
 */
function rankStatistics(sortedA: ArrayLike<number>, sortedB: ArrayLike<number>): { u: number; tieSum: number } {
  let i = 0;
  let j = 0;
  let ranked = 0;
  let rankSumA = 0;
  let tieSum = 0;
  while (i < sortedA.length || j < sortedB.length) {
    const v = Math.min(i < sortedA.length ? sortedA[i]! : Infinity, j < sortedB.length ? sortedB[j]! : Infinity);
    let inA = 0;
    let inB = 0;
    while (i < sortedA.length && sortedA[i] === v) (i++, inA++);
    while (j < sortedB.length && sortedB[j] === v) (j++, inB++);
    // The t values equal to v share the mid-rank of ranks ranked+1..ranked+t.
    const t = inA + inB;
    rankSumA += (ranked + (t + 1) / 2) * inA;
    if (t > 1) tieSum += t * t * t - t;
    ranked += t;
  }
  return { u: rankSumA - (sortedA.length * (sortedA.length + 1)) / 2, tieSum };
}

/** Cumulative permutation counts of U per (smaller n, larger n), see {@link uCumulativeCounts}. */
const cumulativeCountCache = new Map<string, Float64Array>();

/**
 * Cumulative counts `C[k] = #{arrangements with U <= k}`, k = 0..n1*n2, of
 * the null distribution of U without ties. The last entry is C(n1+n2, n1).
 *
 * The generating function of U is the Gaussian binomial coefficient
 * `[n1+n2 choose n1]_q = prod_{i=1..s} (1 - q^(l+i)) / (1 - q^i)` with
 * s = min(n1, n2), l = max(n1, n2); each factor is applied in place as a
 * polynomial multiplication then an exact division, O(s * n1 * n2) total.
 * Results are cached: the function is pure and the table is tiny.
 */
function uCumulativeCounts(n1: number, n2: number): Float64Array {
  const s = Math.min(n1, n2);
  const l = Math.max(n1, n2);
  const key = `${s},${l}`;
  const cached = cumulativeCountCache.get(key);
  if (cached !== undefined) return cached;

  const maxU = s * l;
  const poly = new Float64Array(maxU + s + 1);
  poly[0] = 1;
  let degree = 0;
  for (let i = 1; i <= s; i++) {
    const k = l + i;
    for (let d = degree + k; d >= k; d--) poly[d] = poly[d]! - poly[d - k]!;
    degree += k;
    for (let d = i; d <= degree; d++) poly[d] = poly[d]! + poly[d - i]!;
    degree -= i;
  }
  const cumulative = new Float64Array(maxU + 1);
  let running = 0;
  for (let k = 0; k <= maxU; k++) {
    running += poly[k]!;
    cumulative[k] = running;
  }
  cumulativeCountCache.set(key, cumulative);
  return cumulative;
}

/** Exact p-value of an integer U under the permutation null (no ties). */
function exactPValue(u: number, n1: number, n2: number, alternative: Alternative): number {
  const cumulative = uCumulativeCounts(n1, n2);
  const maxU = n1 * n2;
  const total = cumulative[maxU]!;
  // P(U <= u); P(U >= u) = P(U <= maxU - u) by symmetry of the null.
  const pLess = cumulative[u]! / total;
  const pGreater = cumulative[maxU - u]! / total;
  if (alternative === 'less') return pLess;
  if (alternative === 'greater') return pGreater;
  return Math.min(1, 2 * Math.min(pLess, pGreater));
}

/** Normal-approximation p-value with tie-corrected variance and continuity correction. */
function asymptoticPValue(
  u: number,
  n1: number,
  n2: number,
  tieSum: number,
  alternative: Alternative,
): number {
  const total = n1 + n2;
  const mu = (n1 * n2) / 2;
  const variance = ((n1 * n2) / 12) * (total + 1 - (total > 1 ? tieSum / (total * (total - 1)) : 0));
  if (!(variance > 0)) return 1; // every value tied: no evidence either way
  const sigma = Math.sqrt(variance);
  if (alternative === 'greater') return normalUpperTail((u - mu - 0.5) / sigma);
  if (alternative === 'less') return normalUpperTail((mu - u - 0.5) / sigma);
  return Math.min(1, 2 * normalUpperTail((Math.abs(u - mu) - 0.5) / sigma));
}
