import { describe, expect, it } from 'vitest';
import { drilldownPart, drilldownParts, relativeHref, sitePaths, slugify, variantOf } from '../../src/report/paths.js';

describe('slugify', () => {
  it('keeps file-safe names as they are', () => expect(slugify('tree_reduce-2.5')).toBe('tree_reduce-2.5'));

  it.each(['a/b', 'a?b', '../etc/passwd', '<b>', 'Shuffle', '', 'x'.repeat(200)])('makes %j file-safe', (name) => {
    expect(slugify(name)).toMatch(/^[a-z0-9_][a-z0-9_.-]*$/);
    expect(slugify(name).length).toBeLessThanOrEqual(81);
  });

  it('never gives two names one file', () => {
    const names = ['a/b', 'a?b', 'a b', 'A/B', 'a-b'];
    expect(new Set(names.map(slugify)).size).toBe(names.length);
  });
});

describe('relativeHref', () => {
  it.each([
    ['index.html', 'workloads/dask/shuffle.html', 'workloads/dask/shuffle.html'],
    ['workloads/dask/shuffle.html', 'index.html', '../../index.html'],
    ['workloads/dask/shuffle.html', 'runs/dask/shuffle/r1.html', '../../runs/dask/shuffle/r1.html'],
    ['runs/dask/shuffle/r1.html', 'workloads/dask/shuffle.html', '../../../workloads/dask/shuffle.html'],
    ['ab/index.html', 'ab/x.html', 'x.html'],
  ])('%s -> %s is %s', (from, to, expected) => expect(relativeHref(from, to)).toBe(expected));

  it('puts every data file beside its page kind', () => {
    expect(sitePaths.workloadData('dask', 'a/b')).toBe(`data/dask/workloads/${slugify('a/b')}.js`);
  });
});

describe('drill-down data files', () => {
  it("puts a run's drill-downs in parts picked by the workload's name alone", () => {
    expect(sitePaths.drilldownData('dask', 'a/b', 'r?1')).toBe(`data/dask/drilldowns/${slugify('r?1')}/${drilldownPart('a/b')}.js`);
    expect(sitePaths.drilldownData('dask', 'a/b', 'r2')).toBe(`data/dask/drilldowns/r2/${drilldownPart('a/b')}.js`);
  });

  it('spreads 5,000 workloads over the parts evenly enough that no part holds more than twice its share', () => {
    const counts = new Array<number>(drilldownParts).fill(0);
    for (let i = 0; i < 5000; i++) counts[drilldownPart(`workload_${i}`)]!++;
    expect(Math.min(...counts)).toBeGreaterThan(0);
    expect(Math.max(...counts)).toBeLessThan((2 * 5000) / drilldownParts);
  });
});

describe('variantOf', () => {
  const base = { environmentName: 'default', environmentFingerprint: 'f1', provider: 'local', clusterShape: 'local:2x1:2GiB' };
  it('tells apart everything that makes values incomparable', () => {
    const ids = [base, { ...base, environmentFingerprint: 'f2' }, { ...base, clusterShape: 'local:4x1:2GiB' }, { ...base, instanceType: 'm5.large' }, { ...base, provider: 'netns' }].map((c) => variantOf(c).id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(variantOf({ ...base, instanceType: 'm5.large' }).label).toBe('local:2x1:2GiB (m5.large) · default');
  });
});
