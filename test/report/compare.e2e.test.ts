/**
 * The compare page in headless Chromium, from file://: built from a generated history with a
 * planted slowdown and an A/B report through the real `buildSite`; the numbers on the page are
 * checked against `compareTable` run here on the same repeats.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultDetectionPolicy } from '../../src/detect/index.js';
import { formatChange } from '../../src/format/index.js';
import { openHistory } from '../../src/history/open.js';
import type { HistoryStore } from '../../src/history/store.js';
import { silentLog } from '../../src/log.js';
import { episodeIssueFingerprint } from '../../src/issues/group.js';
import { buildSite } from '../../src/report/build.js';
import { sitePaths } from '../../src/report/paths.js';
import { writeSyntheticHistory, type SyntheticHistory } from '../helpers/synthetic-history.js';
import { launchChromium, screenshot } from './browser.js';
import { tempDir } from '../helpers/temp-dir.js';

const plantedNight = 12;
let dir: string;
let site: string;
let store: HistoryStore;
let history: SyntheticHistory;
let browser: Browser;
let page: Page;

const url = (fragment = '') => `${pathToFileURL(path.join(site, sitePaths.compare)).href}${fragment}`;

async function open(fragment = ''): Promise<void> {
  await page.goto('about:blank');
  await page.goto(url(fragment));
  await page.waitForSelector('body[data-ready="true"]', { timeout: 10_000 });
}

/** After a change of sets: the page loads the nights' files, then draws the table. */
const settled = () => page.waitForSelector('#compare-table[data-state="ready"]', { timeout: 10_000 });
const rowOf = (workload: string, metric: string) => page.locator(`#compare-table tbody tr[data-workload="${workload}"][data-metric="${metric}"]`);

beforeAll(async () => {
  dir = tempDir('nightbench-compare-');
  site = path.join(dir, 'site');
  store = openHistory(path.join(dir, 'history.sqlite'));
  history = writeSyntheticHistory(store, {
    seed: 11, workloads: ['shuffle', 'groupby', 'join'], nights: 20, repeats: 5, noise: 0.02,
    changes: [{ workload: 'shuffle', metric: 'wall_time', night: plantedNight, factor: 1.4 }],
  });
  const abDir = path.join(dir, 'ab');
  mkdirSync(abDir);
  writeFileSync(path.join(abDir, 'ab-7.json'), JSON.stringify({
    id: 'ab-7', title: 'saturation 1.1 vs inf', createdAt: '2026-02-10T08:00:00Z', baseline: { name: 'default' }, candidate: { name: 'saturation-1.1' },
    comparisons: [
      { workload: 'shuffle', metric: 'wall_time', unit: 's', baselineMedian: 10, candidateMedian: 8, ratio: 0.8, verdict: 'faster', bandLow: 0.97, bandHigh: 1.03,
        baselineValues: [10, 10.1, 9.9, 10.2, 10, 9.8, 10.1, 10], candidateValues: [8, 8.1, 7.9, 8.2, 8, 7.8, 8.1, 8] },
      { workload: 'join', metric: 'wall_time', unit: 's', baselineMedian: 5, candidateMedian: 5, ratio: 1, verdict: 'no change', bandLow: 0.97, bandHigh: 1.03,
        baselineValues: [5, 5.1, 4.9, 5, 5.05, 4.95, 5, 5], candidateValues: [5.02, 5.08, 4.92, 5.01, 5.03, 4.97, 5.01, 4.99] },
    ],
  }));
  await buildSite({
    store, outDir: site, abDir, policy: defaultDetectionPolicy, now: new Date('2026-02-10T06:00:00Z'), log: silentLog,
    commitUrl: () => undefined, issueUrl: () => undefined, episodeIssueFingerprint,
  });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
});

afterAll(async () => {
  await browser?.close();
  store?.close();
});

describe('the compare page', () => {
  it('opens from the navigation on the last night against the week before it', async () => {
    await page.goto(pathToFileURL(path.join(site, sitePaths.index)).href);
    await page.click('header nav a:text("Compare")');
    await page.waitForSelector('body[data-ready="true"]');
    expect(await page.inputValue('select[name="base-kind"]')).toBe('range');
    expect(await page.inputValue('input[name="base-from"]')).toBe(history.nights.at(-8));
    expect(await page.inputValue('input[name="base-to"]')).toBe(history.nights.at(-2));
    expect(await page.inputValue('input[name="new-night"]')).toBe(history.nights.at(-1));
    expect(await page.locator('#compare-table tbody tr').count()).toBe(history.workloads.length * history.metrics.length);
    expect(await page.locator('#compare-table tbody tr[data-status="too few values"]').count()).toBe(0);
    expect(new URL(page.url()).hash).toBe(`#base=${encodeURIComponent(`range:${history.nights.at(-8)}..${history.nights.at(-2)}`)}&new=night%3A${history.nights.at(-1)}`);
  });

  it('compares the week before a slowdown with the week after it, a regression beyond the nightly noise', async () => {
    const before = `range:${history.nights[plantedNight - 7]}..${history.nights[plantedNight - 1]}`;
    const after = `range:${history.nights[plantedNight]}..${history.nights[plantedNight + 6]}`;
    await open(`#base=${encodeURIComponent(before)}&new=${encodeURIComponent(after)}`);
    expect(await page.inputValue('select[name="base-kind"]')).toBe('range');
    const row = rowOf('shuffle', 'wall_time');
    expect(await row.getAttribute('data-status')).toBe('regression');
    const change = await row.locator('td.change').textContent();
    expect(Number.parseFloat(change!)).toBeGreaterThan(30);
    expect(Number.parseFloat(change!)).toBeLessThan(50);
    // The bootstrap interval is drawn once the row is in view, beside the same ratio.
    await expect.poll(() => row.locator('td.interval').textContent()).toMatch(/^x1\.[34]\d* \(1\.\d+\.\.1\.\d+\)$/);
    expect(await rowOf('groupby', 'wall_time').getAttribute('data-status')).not.toBe('regression');
    // The workload's link opens its page on the compared series' own cluster shape.
    expect(await row.locator('a').getAttribute('href')).toMatch(/^workloads\/dask\/shuffle[^?]*\.html\?variant=\w+$/);
    await page.selectOption('select[name="status"]', 'regression');
    const shown = await page.$$eval('#compare-table tbody tr', (trs) => trs.map((tr) => `${tr.getAttribute('data-workload')} ${tr.getAttribute('data-metric')}`));
    expect(shown).toContain('shuffle wall_time');
    expect(page.url()).toContain('status=regression');
    await screenshot(page, 'compare-ranges');
  });

  it('expands a row to the raw repeats of both sets', async () => {
    await open(`#base=night%3A${history.nights[plantedNight - 1]}&new=night%3A${history.nights[plantedNight]}`);
    await rowOf('shuffle', 'wall_time').locator('td').first().click();
    const repeats = page.locator('#compare-table tr.repeats');
    expect(await repeats.locator('.base-repeats').textContent()).toMatch(/^base \(5\): /);
    expect(await repeats.locator('.new-repeats').textContent()).toMatch(/^new \(5\): /);
  });

  it('compares the nights of two commits picked from the lists', async () => {
    await open();
    await page.selectOption('select[name="base-kind"]', 'commit');
    await settled();
    const options = await page.$$eval('select[name="base-commit"] option', (os) => os.map((o) => (o as HTMLOptionElement).value));
    expect(options.length).toBeGreaterThanOrEqual(history.nights.length);
    const baseCommit = history.commits[plantedNight - 1]![0]!;
    const newCommit = history.commits[plantedNight]![0]!;
    await page.selectOption('select[name="base-commit"]', `${baseCommit.repo}@${baseCommit.sha}`);
    await settled();
    await page.selectOption('select[name="new-kind"]', 'commit');
    await settled();
    await page.selectOption('select[name="new-commit"]', `${newCommit.repo}@${newCommit.sha}`);
    await settled();
    expect(decodeURIComponent(page.url())).toContain(`new=commit:${newCommit.repo}@${newCommit.sha}`);
    const change = await rowOf('shuffle', 'wall_time').locator('td.change').textContent();
    expect(Number.parseFloat(change!)).toBeGreaterThan(25);
  });

  it('shows an A/B test\'s groups against its A/A band, shared by the address', async () => {
    await open('#ab=ab-7');
    expect(await page.inputValue('select[name="mode"]')).toBe('ab');
    expect(await page.locator('#set-base').isVisible()).toBe(false);
    expect(await rowOf('shuffle', 'wall_time').getAttribute('data-status')).toBe('improvement');
    expect(await rowOf('shuffle', 'wall_time').locator('td.change').textContent()).toBe(formatChange(8 / 10.0 - 1));
    expect(await rowOf('join', 'wall_time').getAttribute('data-status')).toMatch(/^(no change|within noise)$/);
    await screenshot(page, 'compare-ab');
  });

  it('shows the A/B suite as a heatmap whose cells open their test', async () => {
    await page.goto(pathToFileURL(path.join(site, sitePaths.abReport('ab-7'))).href);
    const cell = page.locator('#heatmap tr[data-workload="shuffle"] td.heat');
    expect(await cell.getAttribute('class')).toBe('heat heat-better');
    expect(Number(await cell.getAttribute('data-bands'))).toBeLessThan(-3);
    expect(Number(await page.locator('#heatmap tr[data-workload="join"] td.heat').getAttribute('data-bands'))).toBeGreaterThan(-1);
    await cell.locator('a').click();
    expect(await page.evaluate(() => document.querySelector(':target')?.querySelector('td')?.textContent)).toBe('shuffle');
    await screenshot(page, 'ab-heatmap');
  });

  it('sorts by change, largest first', async () => {
    await open(`#base=night%3A${history.nights[plantedNight - 1]}&new=night%3A${history.nights[plantedNight]}`);
    await page.click('th button[data-sort="change"]');
    expect(await page.locator('#compare-table tbody tr').first().getAttribute('data-workload')).toBe('shuffle');
    expect(await page.getAttribute('th button[data-sort="change"]', 'aria-sort')).toBe('descending');
  });
});
