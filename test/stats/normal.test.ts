import { describe, expect, it } from 'vitest';
import { normalUpperTail } from '../../src/stats/normal.js';

describe('normalUpperTail', () => {
  // scipy.stats.norm.sf(z), SciPy 1.17
  it.each([
    [0, 0.5],
    [0.5, 0.3085375387259869],
    [1, 0.15865525393145707],
    [1.959963984540054, 0.025],
    [-1, 0.8413447460685429],
    [-3, 0.9986501019683699],
    [3.5, 0.00023262907903552502],
    [5, 2.866515718791933e-7],
    [10, 7.61985302416047e-24],
    [20, 2.7536241186061556e-89],
  ])('P(Z >= %d) = %d within 1.2e-7 relative', (z, expected) => {
    expect(Math.abs(normalUpperTail(z) / expected - 1)).toBeLessThan(1.2e-7);
  });
});
