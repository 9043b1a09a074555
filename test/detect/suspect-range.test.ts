import { describe, expect, it } from 'vitest';
import { clearLevel, suspectNights } from '../../src/detect/suspect-range.js';

const old = 0;
const shifted = 0.3;
const noise = 0.05;

describe('clearLevel', () => {
  it('calls a night clearly at a level only when it is far likelier there than at the other', () => {
    expect(clearLevel(0.01, old, shifted, noise)).toBe('old');
    expect(clearLevel(0.29, old, shifted, noise)).toBe('new');
    expect(clearLevel(0.15, old, shifted, noise)).toBeUndefined();
  });

  it('reads a step down the same way', () => {
    expect(clearLevel(-0.3, 0, -0.3, noise)).toBe('new');
    expect(clearLevel(0.02, 0, -0.3, noise)).toBe('old');
  });
});

describe('suspectNights', () => {
  it('starts the range at the first clearly shifted night when the night before it is clearly old', () => {
    expect(suspectNights([0, 0.01, -0.01, 0.3, 0.31, 0.29], old, shifted, noise, 30)).toEqual({ lastGood: 2, firstBad: 3, uncertainNights: 0 });
  });

  it('reaches back over an ambiguous first night to the last night clearly at the old level', () => {
    // The step began on night 3, which measured half way.
    expect(suspectNights([0, 0.01, -0.01, 0.16, 0.31, 0.29], old, shifted, noise, 30)).toEqual({ lastGood: 2, firstBad: 4, uncertainNights: 1 });
  });

  it('bounds the search to the nights it is given', () => {
    expect(suspectNights([0.15, 0.16, 0.14, 0.3], old, shifted, noise, 2)).toEqual({ lastGood: 1, firstBad: 3, uncertainNights: 1 });
  });
});
