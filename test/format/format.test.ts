import { describe, expect, it } from 'vitest';
import { formatBand, formatChange, formatCount, formatMiB, formatMinutes, formatMultiple, formatP, formatPercentOneDecimal, formatRatio, formatRatioInterval, formatRatioRange, formatUsd, formatValue, shortSha } from '../../src/format/index.js';

describe('formatValue', () => {
  it.each([
    [1.23456, 's', '1.23 s'],
    [1234.5, 's', '1235 s'],
    [1.5 * 2 ** 30, 'bytes', '1.5 GiB'],
    [1.52 * 2 ** 30, 'bytes', '1.52 GiB'],
    [403.5 * 2 ** 20, 'bytes', '404 MiB'],
    [512, 'bytes', '512 B'],
    [0.5, null, '0.5'],
    [42, undefined, '42'],
    [4210, 'count', '4210'],
    [0.571, 's', '571 ms'],
    [0.0000327, 'seconds', '32.7 µs'],
    [1.18e-7, 'seconds', '118 ns'],
    [3e-12, 's', '0.003 ns'],
    [0.9996, 's', '1 s'],
    [0.0009996, 'seconds', '1 ms'],
    [-0.25, 's', '-250 ms'],
    [0, 's', '0 s'],
    [3.01, 'seconds', '3.01 s'],
    [0, 'seconds', '0 s'],
  ])('%s %s -> %s', (value, unit, text) => {
    expect(formatValue(value, unit)).toBe(text);
  });

  it('reads times in the unit of a given scale, as a chart axis does for all its ticks', () => {
    expect([0, 0.2, 0.4, 1].map((v) => formatValue(v, 's', 0.4))).toEqual(['0 ms', '200 ms', '400 ms', '1000 ms']);
    expect([0.5, 1, 1.5].map((v) => formatValue(v, 'seconds', 1.5))).toEqual(['0.5 s', '1 s', '1.5 s']);
  });
});

describe('formatChange, formatP, shortSha', () => {
  it('reads the same wherever it is used', () => {
    expect(formatChange(0.148)).toBe('+14.8%');
    expect(formatChange(-0.04)).toBe('-4.0%');
    expect(formatP(0.03123)).toBe('0.031');
    expect(formatP(2.4e-6)).toBe('2.4e-6');
    expect(shortSha('0123456789abcdef0123456789abcdef01234567')).toBe('0123456');
  });
});

describe('bands, ratios, minutes, money and sizes', () => {
  it('write each figure one way, rounded as said', () => {
    expect(formatBand({ low: 0.97, high: 1.0304 })).toBe('0.970-1.030');
    expect(formatRatioRange({ ratio: 1.3104, low: 1.2, high: 1.4 })).toBe('1.310 [1.200-1.400]');
    expect(formatMinutes(240)).toBe('4.0');
    expect(formatUsd(1.255)).toBe('$1.25');
    expect(formatMiB(12.5 * 2 ** 20)).toBe('12.5 MiB');
    expect(formatPercentOneDecimal(0.1)).toBe('10.0%');
    expect(formatRatio(1.31049)).toBe('1.310');
    expect(formatRatioInterval({ ratio: 1.3104, low: 1.2, high: 1.4 })).toBe('x1.310 (95% interval 1.200..1.400)');
    expect(formatMultiple(-2.345)).toBe('-2.3');
    expect([0, 1, 2].map((n) => formatCount(n, 'shard'))).toEqual(['0 shards', '1 shard', '2 shards']);
  });
});
