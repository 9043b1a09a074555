import { describe, expect, it } from 'vitest';
import { tAsZ } from '../../src/stats/student-t.js';

describe('tAsZ', () => {
  it.each([
    // t, degrees of freedom, z of the same one-sided tail (from tables of t and the normal)
    { t: 4, nu: 10, z: 3.02 },
    { t: 2.228, nu: 10, z: 1.96 },
    { t: 2.042, nu: 30, z: 1.96 },
    { t: 3.646, nu: 17, z: 3.09 },
  ])('reads t = $t with $nu degrees of freedom as z = $z', ({ t, nu, z }) => {
    expect(tAsZ(t, nu)).toBeCloseTo(z, 1);
    expect(tAsZ(-t, nu)).toBeCloseTo(-z, 1);
  });

  it('tends to t itself as the degrees of freedom grow', () => {
    expect(tAsZ(4, 10_000)).toBeCloseTo(4, 2);
  });

  it('refuses degrees of freedom that are not positive', () => {
    expect(() => tAsZ(1, 0)).toThrow(RangeError);
  });
});
