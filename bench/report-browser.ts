/**
 * Time until the index, the heaviest workload page and a drill-down from the largest part of a
 * run's drill-downs are interactive in headless Chromium (from navigation to the page's charts
 * drawn and handlers attached), opened from file://.
 * Target: under 1 s each. Uses the site bench/report.ts keeps:
 *   npx tsx bench/report.ts --keep DIR && npx tsx bench/report-browser.ts --keep DIR
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { sitePaths } from '../src/report/paths.js';
import { launchChromium, siteUrl } from '../test/report/browser.js';
import { drilldownsIn } from '../test/report/links.js';

const keepAt = process.argv.indexOf('--keep');
const site = path.join(path.resolve(keepAt > 0 ? process.argv[keepAt + 1]! : '.nightbench/bench-report'), 'site');
if (!existsSync(path.join(site, 'index.html'))) {
  console.error(`no site in ${site}: run npx tsx bench/report.ts --keep ${path.dirname(site)} first`);
  process.exit(2);
}
const loads = 5;

/** The index page and its row data (split into parts of about 1 MB, `src/report/data-parts.ts`). */
function indexBytes(): number {
  const parts = path.join(site, 'data', 'index');
  const partBytes = existsSync(parts) ? readdirSync(parts).reduce((sum, file) => sum + statSync(path.join(parts, file)).size, 0) : 0;
  return statSync(path.join(site, 'index.html')).size + partBytes;
}

/** The workload page whose data file is largest: the most points to draw. */
function heaviestWorkloadPage(): { page: string; bytes: number } {
  let best = { page: '', bytes: 0 };
  for (const suite of readdirSync(path.join(site, 'data'))) {
    const dir = path.join(site, 'data', suite, 'workloads');
    // data/compare holds the compare page's files, not a suite's.
    if (!existsSync(dir)) continue;
    for (const file of readdirSync(dir)) {
      const bytes = statSync(path.join(dir, file)).size;
      if (bytes > best.bytes) best = { page: `workloads/${suite}/${file.replace(/\.js$/, '.html')}`, bytes };
    }
  }
  return best;
}

/**
 * The drill-down page of a workload in the largest part of a run's drill-downs (the most a
 * drill-down page loads), as its address.
 */
function heaviestDrilldown(): { address: string; bytes: number; entries: number } | undefined {
  let best: { file: string; suite: string; bytes: number } | undefined;
  for (const suite of readdirSync(path.join(site, 'data'))) {
    const dir = path.join(site, 'data', suite, 'drilldowns');
    if (!existsSync(dir)) continue;
    for (const run of readdirSync(dir)) {
      for (const file of readdirSync(path.join(dir, run)).filter((name) => name.endsWith('.js'))) {
        const bytes = statSync(path.join(dir, run, file)).size;
        if (best === undefined || bytes > best.bytes) best = { file: path.join(dir, run, file), suite, bytes };
      }
    }
  }
  if (best === undefined) return undefined;
  const [run, drilldowns] = Object.entries(drilldownsIn(best.file))[0]!;
  const workloads = Object.keys(drilldowns);
  return { address: sitePaths.drilldownPage(best.suite, workloads[0]!, run), bytes: best.bytes, entries: workloads.length };
}

async function timeToInteractive(page: Page, relative: string): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < loads; i++) {
    await page.goto('about:blank');
    await page.goto(siteUrl(site, relative));
    await page.waitForSelector('body[data-ready="true"]', { timeout: 30_000 });
    times.push(Number(await page.getAttribute('body', 'data-ready-at')));
  }
  return times;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  const index = await timeToInteractive(page, 'index.html');
  // The index draws only the rows in view (and a margin); #shown counts every series that matches.
  const rows = Number.parseInt((await page.textContent('#shown')) ?? '0', 10);
  const filterStarted = Date.now();
  await page.selectOption('select[name="status"]', 'stable');
  const filterMs = Date.now() - filterStarted;
  console.log(`index (${rows} rows, ${(indexBytes() / 1e6).toFixed(2)} MB with its data parts): interactive after ${median(index)} ms (median of ${loads}: ${index.join(', ')}); a status filter applied in ${filterMs} ms`);

  const heaviest = heaviestWorkloadPage();
  const workload = await timeToInteractive(page, heaviest.page);
  const points = await page.$$eval('.chart-box[data-points]', (boxes) => boxes.reduce((n, b) => n + Number((b as HTMLElement).dataset['points']), 0));
  console.log(`heaviest workload page ${heaviest.page} (${(heaviest.bytes / 1e6).toFixed(2)} MB of data, ${points} points): interactive after ${median(workload)} ms (median of ${loads}: ${workload.join(', ')})`);
  const drilldown = heaviestDrilldown();
  const drilldownTimes = drilldown === undefined ? [] : await timeToInteractive(page, drilldown.address);
  if (drilldown !== undefined) console.log(`drill-down ${drilldown.address} (its run's part: ${(drilldown.bytes / 1e6).toFixed(2)} MB, ${drilldown.entries} drill-downs, the largest part): interactive after ${median(drilldownTimes)} ms (median of ${loads}: ${drilldownTimes.join(', ')})`);
  console.log(`target (< 1000 ms each): ${[index, workload, drilldownTimes].every((times) => times.length === 0 || median(times) < 1000) ? 'met' : 'NOT met'}`);

  // The compare page: one change of selection (a week against the week before it, then one night
  // against another), from the change event to the table redrawn, nights' files loading included.
  await page.goto(pathToFileURL(path.join(site, 'compare.html')).href);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30_000 });
  const nights = await page.evaluate(() => window.NIGHTBENCH_COMPARE!.nights);
  const series = await page.evaluate(() => window.NIGHTBENCH_COMPARE!.series.length);
  const changeTimes: number[] = [];
  for (const [base, next] of [[nights.length - 14, nights.length - 7], [nights.length - 3, nights.length - 2], [nights.length - 30, nights.length - 1]] as const) {
    await page.evaluate(([b, n, all]) => {
      const form = document.getElementById('compare') as HTMLFormElement;
      // No helper function in here: the bench runs under tsx, whose name helpers do not exist in the page.
      for (const [name, value] of [['base-kind', 'range'], ['base-from', all[b]!], ['base-to', all[b + 6] ?? all[b]!], ['new-kind', 'range'], ['new-from', all[n]!], ['new-to', all[n + 6] ?? all[n]!]]) {
        (form.elements.namedItem(name!) as HTMLInputElement).value = value!;
      }
      form.dispatchEvent(new Event('change'));
    }, [base, next, nights] as const);
    await page.waitForSelector('#compare-table[data-state="ready"]', { timeout: 60_000 });
    changeTimes.push(Number(await page.getAttribute('#compare-table', 'data-ms')));
  }
  console.log(`compare page (${series} series): a change of selection (two 7-night ranges) answered in ${median(changeTimes)} ms (median of ${changeTimes.join(', ')}, night files loading included); target < 300 ms: ${median(changeTimes) < 300 ? 'met' : 'NOT met'}`);
} finally {
  await browser.close();
}
