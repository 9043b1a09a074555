import { describe, expect, it } from 'vitest';
import { formatChange, formatP, formatValue, shortSha } from '../../src/format/index.js';

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
  ])('%s %s -> %s', (value, unit, text) => {
    expect(formatValue(value, unit)).toBe(text);
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
