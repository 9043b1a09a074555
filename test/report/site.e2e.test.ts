/**
 * The published site in headless Chromium: built from a generated history (with a planted
 * regression, failures and commit text that tries to inject markup) through the real detection
 * and `buildSite`, opened from file:// as a maintainer would open a downloaded artifact.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultDetectionPolicy } from '../../src/detect/index.js';
import { shortSha } from '../../src/format/index.js';
import { openHistory } from '../../src/history/open.js';
import type { HistoryStore } from '../../src/history/store.js';
import { silentLog } from '../../src/log.js';
import { buildSite, type BuildSummary } from '../../src/report/build.js';
import { sitePaths } from '../../src/report/paths.js';
import { detectEachNight, hostileAuthor, hostileSubject, writeSyntheticHistory, type SyntheticHistory } from '../helpers/synthetic-history.js';
import { launchChromium, screenshot } from './browser.js';
import { brokenLinks, inlineScripts } from './links.js';

const plantedNight = 30;
const hostileNight = 36;
let dir: string;
let site: string;
let store: HistoryStore;
let history: SyntheticHistory;
let summary: BuildSummary;
let buildOptions: Parameters<typeof buildSite>[0];
let browser: Browser;
let page: Page;
const dialogs: string[] = [];

const url = (relative: string) => pathToFileURL(path.join(site, relative)).href;

async function open(relative: string): Promise<void> {
  await page.goto(url(relative));
  await page.waitForSelector('body[data-ready="true"]', { timeout: 10_000 });
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'nightbench-site-'));
  site = path.join(dir, 'site');
  store = openHistory(path.join(dir, 'history.sqlite'));
  history = writeSyntheticHistory(store, {
    seed: 7, workloads: ['shuffle', 'groupby', 'join', 'rechunk', 'tree_reduce', 'dataframe_sum'], nights: 40, repeats: 3,
    clusterShapes: ['local:2x1:2GiB', 'local:4x1:2GiB'], noise: 0.02, hostileNight,
    changes: [{ workload: 'shuffle', metric: 'wall_time', night: plantedNight, factor: 1.5 }],
    failures: [{ workload: 'join', nights: [38, 39], error: 'Traceback (most recent call last):\n  <b>KilledWorker</b>: worker-1 died' }],
  });
  detectEachNight(store, defaultDetectionPolicy, history.nights.slice(10));
  const planted = store.episodes().filter((e) => e.identity.workload === 'shuffle' && e.identity.metric === 'wall_time');
  store.setEpisodeIssue(planted.map((e) => e.id), 412);
  const abDir = path.join(dir, 'ab');
  mkdirSync(abDir);
  writeFileSync(path.join(abDir, 'ab-1.json'), JSON.stringify({
    id: 'ab-1', title: 'saturation 1.1 vs inf', createdAt: '2026-02-10T08:00:00Z', baseline: { name: 'default' }, candidate: { name: 'saturation-1.1' },
    comparisons: [{ workload: 'shuffle', metric: 'wall_time', unit: 's', baselineMedian: 10, candidateMedian: 8, ratio: 0.8, low: 0.75, high: 0.85, p: 0.001, verdict: 'faster' }],
  }));
  buildOptions = {
    store, outDir: site, abDir, policy: defaultDetectionPolicy, now: new Date('2026-02-10T06:00:00Z'), log: silentLog,
    commitUrl: (repo, sha) => `https://github.com/${repo}/commit/${sha}`, issueUrl: (n) => `https://github.com/dask/dask/issues/${n}`,
  };
  summary = await buildSite(buildOptions);
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
});

afterAll(async () => {
  await browser?.close();
  store?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the published site', () => {
  it('lists every workload of every cluster shape on the index, regressions first', async () => {
    await open(sitePaths.index);
    const rows = await page.$$eval('#series tbody tr', (trs) => trs.map((tr) => ({ workload: tr.dataset['workload'], status: tr.dataset['status'], metric: tr.dataset['metric'], shape: tr.dataset['shape'] })));
    expect(new Set(rows.map((r) => r.workload))).toEqual(new Set(history.workloads));
    expect(rows).toHaveLength(history.workloads.length * history.metrics.length * history.clusterShapes.length);
    expect(rows[0]).toMatchObject({ workload: 'shuffle', metric: 'wall_time', status: 'regressed' });
    expect(await page.getAttribute('#series tbody tr:first-child a.issue', 'href')).toBe('https://github.com/dask/dask/issues/412');
    expect(rows.filter((r) => r.workload === 'join').every((r) => r.status === 'failing')).toBe(true);
    await screenshot(page, 'index');
  });

  it('filters the index by status and by cluster shape on the client', async () => {
    await open(sitePaths.index);
    await page.selectOption('select[name="status"]', 'regressed');
    const visible = () => page.$$eval('#series tbody tr:not([hidden])', (trs) => trs.map((tr) => `${tr.dataset['workload']} ${tr.dataset['metric']} ${tr.dataset['status']} ${tr.dataset['shape']}`));
    const regressed = await visible();
    expect(regressed.length).toBeGreaterThan(0);
    expect(regressed.every((r) => r.includes(' regressed '))).toBe(true);
    expect(regressed).toContain('shuffle wall_time regressed local:2x1:2GiB');
    await page.selectOption('select[name="shape"]', 'local:4x1:2GiB');
    expect((await visible()).every((r) => r.endsWith('local:4x1:2GiB'))).toBe(true);
    expect(await page.textContent('#shown')).toBe(`${(await visible()).length} shown`);
    await screenshot(page, 'index-filtered');
  });

  it('opens a workload whose chart has one point per ok repeat and the regression marker at the planted night', async () => {
    await open(sitePaths.index);
    await page.click('#series tbody tr[data-workload="shuffle"][data-metric="wall_time"] a');
    await page.waitForSelector('body[data-ready="true"]');
    expect(page.url()).toBe(url(sitePaths.workloadPage('dask', 'shuffle')));
    const chart = page.locator('.chart-box[data-metric="wall_time"]');
    expect(Number(await chart.getAttribute('data-points'))).toBe(history.okRepeats('shuffle', 'wall_time', 'local:2x1:2GiB'));
    expect(await chart.locator('canvas').count()).toBe(1);
    const marker = chart.locator('.marker-regression');
    await expect.poll(() => marker.count()).toBe(1);
    expect(await marker.getAttribute('data-night')).toBe(history.nights[plantedNight]);
    expect(await marker.getAttribute('href')).toBe('https://github.com/dask/dask/issues/412');
    // The marker sits where the chart puts the planted night.
    const expected = await page.evaluate((night) => {
      const plot = window.nightbench!.charts.find((c) => c.name === 'wall_time')!.plot;
      return plot.valToPos(Date.parse(`${night}T00:00:00Z`) / 1000, 'x');
    }, history.nights[plantedNight]!);
    expect(Number.parseFloat((await marker.evaluate((m: HTMLElement) => m.style.left)) || 'NaN')).toBeCloseTo(expected, 0);
    await screenshot(page, 'workload');
  });

  it('shows the commit of a point on hover, and markup in commit text stays text', async () => {
    await open(sitePaths.workloadPage('dask', 'shuffle'));
    for (const night of [plantedNight, hostileNight]) {
      await hoverNight(page, 'wall_time', history.nights[night]!);
      const details = page.locator('#details');
      await expect.poll(() => details.textContent()).toContain(history.nights[night]);
      const commit = history.commits[night]![0]!;
      expect(await details.textContent()).toContain(shortSha(commit.sha));
      expect(await details.textContent()).toContain(commit.subject);
      expect(await details.textContent()).toContain(commit.authorName);
      expect(await details.locator(`a[href="https://github.com/${commit.repo}/commit/${commit.sha}"]`).count()).toBe(1);
    }
    const details = page.locator('#details');
    expect(await details.textContent()).toContain(hostileSubject);
    expect(await details.textContent()).toContain(hostileAuthor);
    expect(await details.locator('script, img').count()).toBe(0);
    expect(dialogs).toEqual([]);
    await screenshot(page, 'workload-hover-hostile');
  });

  it('switches between cluster shapes without mixing them', async () => {
    await open(sitePaths.workloadPage('dask', 'shuffle'));
    const options = await page.$$eval('select[name="variant"] option', (os) => os.map((o) => ({ value: (o as HTMLOptionElement).value, label: o.textContent })));
    expect(options.map((o) => o.label)).toEqual(['local:2x1:2GiB · default', 'local:4x1:2GiB · default']);
    await page.selectOption('select[name="variant"]', options[1]!.value);
    const chart = page.locator('.chart-box[data-metric="wall_time"]');
    expect(Number(await chart.getAttribute('data-points'))).toBe(history.okRepeats('shuffle', 'wall_time', 'local:4x1:2GiB'));
    expect(await chart.locator('.marker-regression').count()).toBe(1);
  });

  it('scrolls to the chart an issue links to', async () => {
    await page.goto('about:blank');
    await page.goto(`${url(sitePaths.workloadPage('dask', 'shuffle'))}#metric-wall_time`);
    await page.waitForSelector('body[data-ready="true"]');
    // The page scrolls as far as it can towards the chart: down from the top, with the chart in view.
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    expect(await page.locator('#metric-wall_time').isVisible()).toBe(true);
    const top = await page.locator('#metric-wall_time').evaluate((e) => e.getBoundingClientRect().top);
    expect(top).toBeGreaterThanOrEqual(0);
    expect(top).toBeLessThan(1000);
  });

  it('zooms every chart to a date range', async () => {
    await open(sitePaths.workloadPage('dask', 'shuffle'));
    await page.click('button[data-days="30"]');
    const ranges = await page.evaluate(() => window.nightbench!.charts.map((c) => [c.plot.scales['x']!.min, c.plot.scales['x']!.max]));
    const last = Date.parse(`${history.nights.at(-1)}T00:00:00Z`) / 1000;
    for (const [min, max] of ranges) {
      expect(max! - min!).toBeCloseTo(31 * 86_400, -3);
      expect(max).toBeCloseTo(last + 43_200, -2);
    }
    expect(await page.inputValue('input[name="to"]')).toBe(history.nights.at(-1));
  });

  it('drills down into a run: memory and CPU of every cluster process over time', async () => {
    await open(sitePaths.workloadPage('dask', 'shuffle'));
    await page.click('table.runs a >> nth=0');
    await page.waitForSelector('body[data-ready="true"]');
    const memory = page.locator('#memory');
    expect(await memory.getAttribute('data-series')).toBe('3');
    expect(await memory.locator('canvas').count()).toBe(1);
    expect(await page.locator('#memory .u-legend').textContent()).toContain('worker-2');
    expect(await page.locator('table.metrics').first().textContent()).toContain('wall_time');
    await page.selectOption('select[name="repeat"]', '2');
    expect(await page.locator('section.repeat[data-repeat="2"]').isVisible()).toBe(true);
    expect(await page.locator('#cpu canvas').count()).toBe(1);
    await screenshot(page, 'drilldown');
  });

  it('escapes an error tail on the index and lists failed repeats on the workload page', async () => {
    await open(sitePaths.index);
    const tail = page.locator('#series tbody tr[data-workload="join"] .error-tail').first();
    expect(await tail.textContent()).toContain('<b>KilledWorker</b>');
    expect(await page.locator('#series b').count()).toBe(0);
    await open(sitePaths.workloadPage('dask', 'join'));
    expect(await page.locator('table.failures tbody tr').count()).toBe(2 * 3 * 2);
  });

  it('has an A/B section in the navigation with the published reports', async () => {
    await open(sitePaths.index);
    await page.click('header nav a:text("A/B")');
    expect(page.url()).toBe(url(sitePaths.abIndex));
    await page.click('table.ab a');
    expect(await page.locator('h1').textContent()).toBe('saturation 1.1 vs inf');
    expect(await page.locator('table.ab tbody tr').count()).toBe(1);
  });

  it('has a Detection quality page whose precision follows the verdicts maintainers give', async () => {
    await open(sitePaths.index);
    await page.click('header nav a:text("Detection quality")');
    expect(page.url()).toBe(url(sitePaths.quality));
    expect(await page.getAttribute('header nav a[aria-current="page"]', 'href')).toBe('quality.html');
    expect(await page.textContent('#quality-all')).toMatch(/^1 issue opened · precision — \(0 true, 0 false positives\) · 0 closed without a verdict · 1 open$/);
    expect(await page.getAttribute('#open-by-age tr[data-bucket="1 to 4 weeks"] a.issue', 'href')).toBe('https://github.com/dask/dask/issues/412');
    expect(await page.locator('#no-false-alarms').count()).toBe(1);

    const planted = store.episodes().filter((e) => e.issueNumber === 412);
    const verdict = (command: 'false-alarm' | 'accept', at: string) =>
      store.recordTriageEvent({ key: `comment:${command}`, issueNumber: 412, episodes: planted.map((e) => e.fingerprint), command, author: 'mia', issueOpenedAt: `${history.nights[plantedNight]}T06:00:00Z`, at });
    verdict('false-alarm', `${history.nights[plantedNight]}T18:00:00Z`);
    await buildSite(buildOptions);
    await page.reload();
    expect(await page.textContent('#quality-all')).toMatch(/precision 0% \(0 true, 1 false positive\)/);
    expect(await page.getAttribute('#by-suite tr[data-key="dask"]', 'data-precision')).toBe('0');
    expect(await page.locator('#by-suite tr[data-key="dask"] td').nth(7).textContent()).toBe('12.0 h');
    const falseAlarm = page.locator('#false-alarms tr[data-workload="shuffle"]');
    expect(await falseAlarm.count()).toBe(1);
    expect(await falseAlarm.textContent()).toMatch(/(more repeats|a higher threshold): /);
    await screenshot(page, 'quality');

    verdict('accept', `${history.nights[plantedNight]}T20:00:00Z`);
    await buildSite(buildOptions);
    await page.reload();
    expect(await page.textContent('#quality-all')).toMatch(/precision 100% \(1 true, 0 false positives\)/);
    expect(await page.locator('#no-false-alarms').count()).toBe(1);
  });

  it('has no broken links, no inline script and no page or data file over 2 MB', () => {
    expect(brokenLinks(site)).toEqual([]);
    expect(inlineScripts(site)).toEqual([]);
    expect(summary.largest.bytes).toBeLessThan(2 * 2 ** 20);
    expect(summary.drilldowns.written).toBeGreaterThan(0);
  });
});

/** Moves the mouse onto the given night of a metric's chart (where uPlot places it). */
async function hoverNight(page: Page, metric: string, night: string): Promise<void> {
  await page.locator(`.chart-box[data-metric="${metric}"]`).scrollIntoViewIfNeeded();
  const point = await page.evaluate(
    ({ metric, night }) => {
      const plot = window.nightbench!.charts.find((c) => c.name === metric)!.plot;
      const rect = plot.over.getBoundingClientRect();
      return { x: rect.left + plot.valToPos(Date.parse(`${night}T00:00:00Z`) / 1000, 'x'), y: rect.top + rect.height / 2 };
    },
    { metric, night },
  );
  await page.mouse.move(point.x - 20, point.y);
  await page.mouse.move(point.x, point.y, { steps: 4 });
}
