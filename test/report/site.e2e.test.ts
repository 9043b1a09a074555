/**
 * The published site in headless Chromium: built from a generated history (with a planted
 * regression, failures and commit text that tries to inject markup) through the real detection
 * and `buildSite`, opened from file:// as a maintainer would open a downloaded artifact.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultDetectionPolicy } from '../../src/detect/index.js';
import { brokenFingerprint } from '../../src/detect/failures.js';
import { shortSha } from '../../src/format/index.js';
import { episodeIssueFingerprint } from '../../src/issues/group.js';
import { openHistory } from '../../src/history/open.js';
import type { HistoryStore } from '../../src/history/store.js';
import { silentLog } from '../../src/log.js';
import { buildSite, type BuildSummary } from '../../src/report/build.js';
import { drilldownPart, sitePaths } from '../../src/report/paths.js';
import { detectEachNight, hostileAuthor, hostileSubject, writeSyntheticHistory, type SyntheticHistory } from '../helpers/synthetic-history.js';
import { launchChromium, reportScreenshotsDir, screenshot, siteUrl } from './browser.js';
import { brokenLinks, inlineScripts } from './links.js';
import { tempDir } from '../helpers/temp-dir.js';

const plantedNight = 30;
const hostileNight = 36;
/** A regression whose issue was written as a Markdown file (no token): the pages link the file. */
const fileNight = 24;
const joinFailsFrom = 38;
/** The night a shard was stopped after one repeat of rechunk (and before the workloads after it). */
const cutShortNight = 33;
let dir: string;
let site: string;
let store: HistoryStore;
let history: SyntheticHistory;
let summary: BuildSummary;
let buildOptions: Parameters<typeof buildSite>[0];
let browser: Browser;
let page: Page;
const dialogs: string[] = [];

const url = (relative: string) => siteUrl(site, relative);

async function open(relative: string): Promise<void> {
  await page.goto(url(relative));
  await page.waitForSelector('body[data-ready="true"]', { timeout: 10_000 });
}

beforeAll(async () => {
  dir = tempDir('nightbench-site-');
  site = path.join(dir, 'site');
  store = openHistory(path.join(dir, 'history.sqlite'));
  history = writeSyntheticHistory(store, {
    seed: 7, workloads: ['shuffle', 'groupby', 'join', 'rechunk', 'tree_reduce', 'dataframe_sum'], nights: 40, repeats: 3,
    clusterShapes: ['local:2x1:2GiB', 'local:4x1:2GiB'], noise: 0.02, hostileNight,
    changes: [{ workload: 'shuffle', metric: 'wall_time', night: plantedNight, factor: 1.5 }, { workload: 'groupby', metric: 'wall_time', night: fileNight, factor: 1.3 }],
    failures: [{ workload: 'join', nights: [joinFailsFrom, joinFailsFrom + 1], error: 'Traceback (most recent call last):\n  <b>KilledWorker</b>: worker-1 died' }],
    cutShort: { night: cutShortNight, workload: 'rechunk', measured: 1 },
  });
  detectEachNight(store, defaultDetectionPolicy, history.nights.slice(10));
  const planted = store.episodes.episodes().filter((e) => e.identity.workload === 'shuffle' && e.identity.metric === 'wall_time');
  store.episodes.setEpisodeIssue(planted.map((e) => e.id), 412);
  const issuesDir = path.join(dir, 'issues');
  mkdirSync(issuesDir);
  const filed = store.episodes.episodes().filter((e) => e.identity.workload === 'groupby' && e.identity.metric === 'wall_time');
  expect(filed.length).toBeGreaterThan(0);
  for (const fingerprint of new Set(filed.map((e) => episodeIssueFingerprint(e)))) writeFileSync(path.join(issuesDir, `${fingerprint}.md`), '# Regression: groupby wall_time\n');
  writeFileSync(path.join(issuesDir, `${brokenFingerprint({ suite: 'dask', workload: 'join', night: history.nights[joinFailsFrom]! })}.md`), '# Broken: join (dask) fails\n');
  const abDir = path.join(dir, 'ab');
  mkdirSync(abDir);
  writeFileSync(path.join(abDir, 'ab-1.json'), JSON.stringify({
    id: 'ab-1', title: 'saturation 1.1 vs inf', createdAt: '2026-02-10T08:00:00Z', baseline: { name: 'default' }, candidate: { name: 'saturation-1.1' },
    comparisons: [{ workload: 'shuffle', metric: 'wall_time', unit: 's', baselineMedian: 10, candidateMedian: 8, ratio: 0.8, low: 0.75, high: 0.85, p: 0.001, verdict: 'faster' }],
  }));
  buildOptions = {
    store, outDir: site, abDir, issuesDir, policy: defaultDetectionPolicy, now: new Date('2026-02-10T06:00:00Z'), log: silentLog,
    commitUrl: (repo, sha) => `https://github.com/${repo}/commit/${sha}`, issueUrl: (n) => `https://github.com/dask/dask/issues/${n}`, episodeIssueFingerprint,
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
    expect(page.url().split('?')[0]).toBe(url(sitePaths.workloadPage('dask', 'shuffle')));
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
    expect(new URL(page.url()).searchParams.get('variant')).toBe(options[1]!.value);
  });

  it('opens a workload page from the index on the row\'s own cluster shape', async () => {
    await open(sitePaths.index);
    await page.click('#series tbody tr[data-workload="shuffle"][data-metric="wall_time"][data-shape="local:4x1:2GiB"] a');
    await page.waitForSelector('body[data-ready="true"]');
    expect(await page.$eval('select[name="variant"]', (select) => (select as HTMLSelectElement).selectedOptions[0]?.textContent)).toBe('local:4x1:2GiB · default');
  });

  it('scrolls to the chart an issue links to', async () => {
    await page.goto('about:blank');
    await page.goto(`${url(sitePaths.workloadPage('dask', 'shuffle'))}#metric-wall_time`);
    await page.waitForSelector('body[data-ready="true"]');
    // The page scrolls as far as it can towards the chart: down from the top, with the chart in view.
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    expect(await page.locator('#metric-wall_time').isVisible()).toBe(true);
    const top = await page.locator('#metric-wall_time').evaluate((e) => e.getBoundingClientRect().top);
    // At the top of the viewport, give or take the sub-pixel rounding of layout.
    expect(top).toBeGreaterThanOrEqual(-1);
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
    const runId = (await page.textContent('table.runs tbody tr:first-child code'))!;
    await page.click('table.runs a >> nth=0');
    await page.waitForSelector('body[data-ready="true"]');
    expect(page.url()).toBe(url(sitePaths.drilldownPage('dask', 'shuffle', runId)));
    expect(await page.textContent('#facts')).toContain(runId);
    expect(await page.textContent('#facts')).toContain('local:2x1:2GiB');
    expect(await page.locator('#facts .commit a.sha').count()).toBeGreaterThan(0);
    expect(await page.getAttribute('#crumb-workload', 'href')).toBe(sitePaths.workloadPage('dask', 'shuffle'));
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

  it('says so on the drill-down page when the run it names has no drill-down on the site', async () => {
    await open(sitePaths.drilldownPage('dask', 'shuffle', 'no-such-run'));
    expect(await page.textContent('#facts')).toContain('No drill-down of run no-such-run of shuffle is on this site');
    expect(await page.locator('#memory canvas').count()).toBe(0);
    // A workload the run did not run whose name falls in the part that holds shuffle's: the part loads, without it.
    const runId = history.runIds[history.clusterShapes[0]!]!.at(-1)!;
    let other = 0;
    while (drilldownPart(`shuffle_${other}`) !== drilldownPart('shuffle')) other++;
    await open(sitePaths.drilldownPage('dask', `shuffle_${other}`, runId));
    expect(await page.textContent('#facts')).toBe(`No drill-down of run ${runId} of shuffle_${other} is on this site.`);
  });

  it('escapes an error tail on the index and lists failed repeats on the workload page', async () => {
    await open(sitePaths.index);
    const tail = page.locator('#series tbody tr[data-workload="join"] .error-tail').first();
    expect(await tail.textContent()).toContain('<b>KilledWorker</b>');
    expect(await page.locator('#series b').count()).toBe(0);
    await open(sitePaths.workloadPage('dask', 'join'));
    expect(await page.locator('table.failures tbody tr').count()).toBe(2 * 3 * 2);
  });

  it('links an issue written as a file from the index, the chart and the Detection quality page', async () => {
    await open(sitePaths.index);
    const link = page.locator('#series tbody tr[data-workload="groupby"][data-metric="wall_time"] a.issue-file').first();
    const href = await link.getAttribute('href');
    expect(href).toMatch(/^issues\/[0-9a-f]{16}\.md$/);
    expect(brokenLinks(site)).toEqual([]);
    await open(sitePaths.workloadPage('dask', 'groupby'));
    const marker = page.locator('.chart-box[data-metric="wall_time"] .marker-regression').first();
    await expect.poll(() => marker.count()).toBe(1);
    expect(await marker.getAttribute('href')).toBe(`../../${href}`);
    await page.goto(url(sitePaths.quality));
    expect(await page.getAttribute('#quality-all', 'data-files')).toBe('1');
    expect(await page.getAttribute('ul.file-issues a.issue-file', 'href')).toBe(href);
    await page.goto(url(href!));
    expect(await page.textContent('body')).toContain('Regression: groupby wall_time');
  });

  it('marks the nights a workload failed on its charts, with the error and the broken workload\'s issue', async () => {
    await open(sitePaths.workloadPage('dask', 'join'));
    const failed = page.locator('.chart-box[data-metric="wall_time"] .marker-failed');
    await expect.poll(() => failed.count()).toBe(2);
    expect(await failed.evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-night')))).toEqual([history.nights[joinFailsFrom], history.nights[joinFailsFrom + 1]]);
    expect(await failed.first().getAttribute('title')).toBe(`${history.nights[joinFailsFrom]}: failed: <b>KilledWorker</b>: worker-1 died`);
    const fingerprint = brokenFingerprint({ suite: 'dask', workload: 'join', night: history.nights[joinFailsFrom]! });
    expect(await failed.first().getAttribute('href')).toBe(`../../issues/${fingerprint}.md`);
    await screenshot(page, 'workload-failing-nights');
  });

  it('marks the night an incomplete run cut a workload short on every chart, in the key and on hover', async () => {
    await open(sitePaths.workloadPage('dask', 'rechunk'));
    const cut = page.locator('.chart-box[data-metric="wall_time"] .marker-cut-short');
    await expect.poll(() => cut.count()).toBe(1);
    expect(await cut.getAttribute('data-night')).toBe(history.nights[cutShortNight]);
    expect(await cut.getAttribute('title')).toBe(`${history.nights[cutShortNight]}: incomplete: run cut short (1 of 3 repeats measured; not judged)`);
    expect(await page.locator('.chart-box .marker-cut-short').count()).toBe(history.metrics.length);
    expect(await page.textContent('#chart-key')).toContain('✂ incomplete: run cut short');
    await screenshot(page, 'workload-cut-short');
  });

  it('has an A/B section in the navigation with the published reports', async () => {
    await open(sitePaths.index);
    await page.click('header nav a:text("A/B")');
    expect(page.url()).toBe(url(sitePaths.abIndex));
    await page.click('table.ab a');
    expect(await page.locator('h1').textContent()).toBe('saturation 1.1 vs inf');
    expect(await page.locator('table.ab tbody tr').count()).toBe(1);
    // In a narrow window the tests' ten columns scroll in their own box; the page stays put.
    await page.setViewportSize({ width: 700, height: 1000 });
    try {
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(700);
      expect(await page.locator('.scroll-x table.ab').count()).toBe(1);
    } finally {
      await page.setViewportSize({ width: 1400, height: 1000 });
    }
  });

  it('has a Detection quality page whose precision follows the verdicts maintainers give', async () => {
    await open(sitePaths.index);
    await page.click('header nav a:text("Detection quality")');
    expect(page.url()).toBe(url(sitePaths.quality));
    expect(await page.getAttribute('header nav a[aria-current="page"]', 'href')).toBe('quality.html');
    expect(await page.textContent('#quality-all')).toMatch(/^1 issue opened on GitHub · 1 written as Markdown file \(listed below\) · precision — \(0 true, 0 false positives\) · 0 closed without a verdict · 1 open$/);
    expect(await page.getAttribute('#open-by-age tr[data-bucket="1 to 4 weeks"] a.issue', 'href')).toBe('https://github.com/dask/dask/issues/412');
    expect(await page.locator('#no-false-alarms').count()).toBe(1);

    const planted = store.episodes.episodes().filter((e) => e.issueNumber === 412);
    const verdict = (command: 'false-alarm' | 'accept', at: string) =>
      store.triage.recordTriageEvent({ key: `comment:${command}`, issueNumber: 412, episodes: planted.map((e) => e.fingerprint), command, author: 'mia', issueOpenedAt: `${history.nights[plantedNight]}T06:00:00Z`, at });
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

/**
 * A workload like the real Dask history's array_reduction: a moderate step that only the
 * persistence path proves (its first bad night set back), a metric in "seconds" whose axis labels
 * are long, and one that is zero every night.
 */
describe('the charts of levels, units and zeros', () => {
  const stepNight = 25;
  /** An asv benchmark's name: longer than any column of the index can hold on one line. */
  const longWorkload = 'form_benchmarks.form_validate.benchmark.FormValidate.time_form_invalid';
  let levelsSite: string;
  let levelsStore: HistoryStore;
  let levelsHistory: SyntheticHistory;
  let reports: ReturnType<typeof detectEachNight>;
  const chartOf = (metric: string) => page.locator(`.chart-box[data-metric="${metric}"]`);

  beforeAll(async () => {
    levelsSite = path.join(dir, 'levels-site');
    levelsStore = openHistory(path.join(dir, 'levels.sqlite'));
    levelsHistory = writeSyntheticHistory(levelsStore, {
      seed: 4, workloads: ['array_reduction', longWorkload], nights: 40, repeats: 3, noise: 0.05,
      metrics: [{ name: 'wall_time', unit: 's' }, { name: 'compute_seconds', unit: 'seconds', level: 12.5 }, { name: 'disk_seconds', unit: 'seconds', level: 0 }],
      // +15% against 5% noise: too small for one night (4x noise), proved by the nights after it.
      changes: [{ workload: 'array_reduction', metric: 'wall_time', night: stepNight, factor: 1.15 }],
    });
    reports = detectEachNight(levelsStore, defaultDetectionPolicy, levelsHistory.nights.slice(10));
    await buildSite({ ...buildOptions, store: levelsStore, outDir: levelsSite, abDir: undefined });
    await page.goto(pathToFileURL(path.join(levelsSite, sitePaths.workloadPage('dask', 'array_reduction'))).href);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 10_000 });
  });
  afterAll(() => levelsStore?.close());

  it('draws each level of the history as a titled line across its nights, at its value', async () => {
    const levels = chartOf('wall_time').locator('.level');
    expect(await levels.count()).toBe(2);
    const [before, after] = await levels.evaluateAll((nodes) => nodes.map((n) => {
      const data = (n as HTMLElement).dataset;
      return { first: data['first']!, last: data['last']!, level: Number(data['level']), title: n.getAttribute('title')! };
    }));
    expect(before).toMatchObject({ first: levelsHistory.nights[0] });
    expect(after).toMatchObject({ last: levelsHistory.nights.at(-1) });
    // The step shows where it was planted, give or take a night of noise.
    const stepAt = levelsHistory.nights.indexOf(after!.first);
    expect(Math.abs(stepAt - stepNight)).toBeLessThanOrEqual(1);
    // From the second level on, the step into it and what detection decided.
    expect(after!.title).toMatch(new RegExp(`^level [\\d.]+ m?s, nights ${after!.first}\\.\\.${after!.last}; from the level before: \\+\\d+\\.\\d%, episode from \\d{4}-\\d\\d-\\d\\d$`));
    expect(after!.level / before!.level).toBeCloseTo(1.15, 1);
    // Each line spans its nights at its level, where the chart puts them.
    const placed = await page.evaluate(() => {
      const plot = window.nightbench!.charts.find((c) => c.name === 'wall_time')!.plot;
      const over = plot.over.getBoundingClientRect();
      return Array.from(plot.over.querySelectorAll<HTMLElement>('.level'), (node) => {
        const box = node.getBoundingClientRect();
        const x = (night: string) => plot.valToPos(Date.parse(`${night}T00:00:00Z`) / 1000, 'x');
        return { left: box.left - over.left, right: box.right - over.left, top: box.top - over.top + 1, expected: { left: x(node.dataset['first']!), right: x(node.dataset['last']!), top: plot.valToPos(Number(node.dataset['level']), 'y') } };
      });
    });
    for (const line of placed) {
      expect(line.left).toBeCloseTo(line.expected.left, 0);
      expect(line.right).toBeCloseTo(line.expected.right, 0);
      expect(Math.abs(line.top - line.expected.top)).toBeLessThanOrEqual(1.5);
    }
  });

  it('puts the episode marker at the first bad night, set back from the night that proved it', async () => {
    const episode = levelsStore.episodes.episodes().find((e) => e.identity.metric === 'wall_time' && e.kind === 'regression')!;
    const opened = reports.find((r) => r.changes.some((c) => c.action === 'open' && c.episode.identity.metric === 'wall_time'))!;
    // The suspect range holds the planted night: from the last night clearly at the old level to the first clearly at the new one.
    expect(episode.lastGood.night < levelsHistory.nights[stepNight]!).toBe(true);
    expect(episode.firstBad.night >= levelsHistory.nights[stepNight]!).toBe(true);
    expect(opened.night! > episode.firstBad.night).toBe(true);
    const marker = chartOf('wall_time').locator('.marker-regression');
    expect(await marker.getAttribute('data-night')).toBe(episode.firstBad.night);
    const expected = await page.evaluate((night) => window.nightbench!.charts.find((c) => c.name === 'wall_time')!.plot.valToPos(Date.parse(`${night}T00:00:00Z`) / 1000, 'x'), episode.firstBad.night);
    expect(Number.parseFloat(await marker.evaluate((m: HTMLElement) => m.style.left))).toBeCloseTo(expected, 0);
  });

  it('keeps every y-axis label of a metric in "seconds" inside its chart', async () => {
    // uPlot draws on a canvas: the labels are the ink left of the plot area, and a label cut off
    // on the left would touch the canvas' first column.
    const ink = await page.evaluate(() => {
      const plot = window.nightbench!.charts.find((c) => c.name === 'compute_seconds')!.plot;
      const canvas = plot.ctx.canvas;
      const left = Math.floor(plot.bbox.left);
      const pixels = plot.ctx.getImageData(0, 0, left, canvas.height).data;
      let minX = Infinity;
      let maxX = -Infinity;
      for (let i = 3; i < pixels.length; i += 4) {
        if (pixels[i]! === 0) continue;
        const x = ((i - 3) / 4) % left;
        minX = Math.min(minX, x);
        maxX = Math.max(maxX, x);
      }
      const box = canvas.getBoundingClientRect();
      const chart = canvas.closest('.chart-box')!.getBoundingClientRect();
      return { minX, maxX, left, canvasInside: box.left >= chart.left && box.right <= chart.right };
    });
    expect(ink.minX).toBeGreaterThanOrEqual(1);
    expect(ink.maxX).toBeLessThan(ink.left);
    expect(ink.canvasInside).toBe(true);
  });

  it('calls a series of zeros "zero or negative" on the index, and breaks a long workload name to keep the index and the compare table inside the page', async () => {
    await page.setViewportSize({ width: 1300, height: 1000 });
    try {
      await page.goto(pathToFileURL(path.join(levelsSite, sitePaths.index)).href);
      await page.waitForSelector('body[data-ready="true"]', { timeout: 10_000 });
      const zeros = await page.$$eval('#series tbody tr[data-metric="disk_seconds"]', (trs) => trs.map((tr) => [tr.dataset['status'], tr.querySelector('.status')?.textContent]));
      expect(zeros).toEqual([['zero', 'zero or negative'], ['zero', 'zero or negative']]);
      expect(await page.locator(`#series tbody tr[data-workload="${longWorkload}"] a wbr`).count()).toBeGreaterThan(0);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1300);
      await page.goto(pathToFileURL(path.join(levelsSite, sitePaths.compare)).href);
      await page.waitForSelector('body[data-ready="true"]', { timeout: 10_000 });
      await expect.poll(() => page.locator(`#compare-table tbody tr[data-workload="${longWorkload}"] td.interval`).first().textContent()).toMatch(/^x\d/);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1300);
    } finally {
      await page.setViewportSize({ width: 1400, height: 1000 });
      await page.goto(pathToFileURL(path.join(levelsSite, sitePaths.workloadPage('dask', 'array_reduction'))).href);
      await page.waitForSelector('body[data-ready="true"]', { timeout: 10_000 });
    }
  });

  it('draws a series that is zero every night as one line at zero, with one level', async () => {
    expect(await chartOf('disk_seconds').locator('.level').count()).toBe(1);
    expect(await chartOf('disk_seconds').locator('.level').getAttribute('title')).toBe(`level 0 s, nights ${levelsHistory.nights[0]}..${levelsHistory.nights.at(-1)}`);
    const drawn = await page.evaluate(() => {
      const plot = window.nightbench!.charts.find((c) => c.name === 'disk_seconds')!.plot;
      const left = Math.ceil(plot.bbox.left);
      const top = Math.ceil(plot.bbox.top);
      const image = plot.ctx.getImageData(left, top, Math.floor(plot.bbox.width), Math.floor(plot.bbox.height));
      const { width, height, data: pixels } = image;
      // Rows where a dark stroke covers most of the plot's width: the median, with the band's
      // edges (also at zero) drawn over it; the light grid lines do not count.
      const rows: number[] = [];
      for (let y = 0; y < height; y++) {
        let dark = 0;
        for (let x = 0; x < width; x++) {
          const i = (y * width + x) * 4;
          if (pixels[i + 3]! > 128 && pixels[i]! + pixels[i + 1]! + pixels[i + 2]! < 400) dark++;
        }
        if (dark > width * 0.5) rows.push(top + y);
      }
      const { min, max } = plot.scales['y']!;
      return { rows, zero: plot.valToPos(0, 'y', true), min: min!, max: max! };
    });
    expect(drawn.min).toBeLessThan(0);
    expect(drawn.max).toBeGreaterThan(0);
    expect(drawn.rows.length).toBeGreaterThan(0);
    // One line: its rows are contiguous, a few device pixels thick, at zero.
    expect(drawn.rows.at(-1)! - drawn.rows[0]! + 1).toBe(drawn.rows.length);
    expect(drawn.rows.length).toBeLessThanOrEqual(4);
    expect(Math.abs(drawn.rows[0]! - drawn.zero)).toBeLessThanOrEqual(3);
    await chartOf('wall_time').scrollIntoViewIfNeeded();
    await screenshot(page, 'workload-levels', reportScreenshotsDir);
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
