import { describe, expect, it } from 'vitest';
import { suspectNights } from '../../src/detect/suspect-range.js';

const old = 0;
const shifted = 0.3;
const noise = 0.05;

describe('suspectNights', () => {
  it('starts the range at the first shifted night when the nights before it are surely old', () => {
    expect(suspectNights([0, 0.01, -0.01, 0.3, 0.31, 0.29], old, shifted, noise, 30)).toEqual({ lastGood: 2, firstBad: 3, uncertainNights: 0 });
  });

  it('reaches back over a first night measured half way to the last night surely at the old level', () => {
    // The step began on night 3, which measured half way.
    expect(suspectNights([0, 0.01, -0.01, 0.16, 0.31, 0.29], old, shifted, noise, 30)).toEqual({ lastGood: 2, firstBad: 4, uncertainNights: 1 });
  });

  it('keeps a first night that measured low inside the range while the data leave it more than 0.5% likely to be the first', () => {
    // Night 3 is about 90 times likelier at the old level than at the new one, and that is not
    // sure enough: one such night among the split's neighbours is what made ranges miss the culprit.
    expect(suspectNights([0, 0.01, -0.01, 0.11, 0.31, 0.29], old, shifted, noise, 30)).toEqual({ lastGood: 2, firstBad: 4, uncertainNights: 1 });
    // A night at the old level itself is surely there.
    expect(suspectNights([0, 0.01, -0.01, 0.02, 0.31, 0.29], old, shifted, noise, 30)).toEqual({ lastGood: 3, firstBad: 4, uncertainNights: 0 });
  });

  it('reads a step down the same way', () => {
    expect(suspectNights([0, 0.02, -0.01, -0.3, -0.31], 0, -0.3, noise, 30)).toEqual({ lastGood: 2, firstBad: 3, uncertainNights: 0 });
  });

  it('bounds the search to the nights it is given', () => {
    expect(suspectNights([0.15, 0.16, 0.14, 0.3], old, shifted, noise, 2)).toEqual({ lastGood: 1, firstBad: 3, uncertainNights: 1 });
  });

  it('places a step between nights that never vary', () => {
    expect(suspectNights([1, 1, 1, 2, 2], 1, 2, 0, 30)).toEqual({ lastGood: 2, firstBad: 3, uncertainNights: 0 });
  });
});
