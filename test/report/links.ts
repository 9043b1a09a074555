/**
 * Checks over a built site's files: every href and src resolves to a file of the site or is an
 * absolute external URL (a drill-down link: the page, and the run's drill-down in the data file
 * the page loads), and no page carries inline script.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { runInNewContext } from 'node:vm';
import { drilldownParams, sitePaths } from '../../src/report/paths.js';

export function sitePages(root: string, dir = root): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sitePages(root, full);
    return entry.name.endsWith('.html') ? [full] : [];
  });
}

/**
 * The drill-down a link to the one drill-down page names, as its data file and the run and
 * workload it is kept under there: that page exists whatever run the address names, the part of
 * the run's drill-downs it loads must too, and hold that workload's.
 */
function drilldownOf(ref: string): { data: string; run: string; workload: string } | undefined {
  const [target, query] = ref.split('?', 2);
  if (target?.split('/').at(-1) !== sitePaths.drilldown || query === undefined) return undefined;
  const asked = new URLSearchParams(query);
  const [suite, workload, run] = [asked.get(drilldownParams.suite), asked.get(drilldownParams.workload), asked.get(drilldownParams.run)];
  return suite === null || workload === null || run === null ? { data: '(no run named)', run: '', workload: '' } : { data: sitePaths.drilldownData(suite, workload, run), run, workload };
}

/** The drill-downs a part of a run's drill-downs holds, by run and workload: the file run as the page runs it. */
export function drilldownsIn(file: string): Record<string, Record<string, unknown>> {
  const window: { NIGHTBENCH_DRILLDOWN?: Record<string, Record<string, unknown>> } = {};
  runInNewContext(readFileSync(file, 'utf8'), { window });
  return window.NIGHTBENCH_DRILLDOWN ?? {};
}

/** Whether a part of a run's drill-downs holds the drill-down of `run` and `workload`. */
function holdsDrilldown(file: string, run: string, workload: string): boolean {
  const drilldowns = existsSync(file) ? drilldownsIn(file)[run] : undefined;
  return drilldowns !== undefined && Object.hasOwn(drilldowns, workload);
}

/** "page: reference" for every reference that points nowhere. */
export function brokenLinks(root: string): string[] {
  return sitePages(root).flatMap((page) => {
    const html = readFileSync(page, 'utf8');
    return [...html.matchAll(/\s(?:href|src)="([^"]*)"/g)]
      .map((m) => m[1]!.replaceAll('&amp;', '&'))
      .filter((ref) => {
        if (/^https?:\/\/[^/]+/.test(ref)) return false;
        const target = ref.split(/[?#]/, 1)[0]!;
        // A link within the page must name an element of it.
        if (target === '' && ref.startsWith('#') && ref.length > 1) return !html.includes(` id="${ref.slice(1)}"`);
        const drilldown = drilldownOf(ref);
        if (drilldown !== undefined && !holdsDrilldown(path.join(root, drilldown.data), drilldown.run, drilldown.workload)) return true;
        return target === '' || /^[a-z]+:/i.test(target) || !existsSync(path.resolve(path.dirname(page), target));
      })
      .map((ref) => `${path.relative(root, page)}: ${ref}`);
  });
}

/** Pages with a script element that has no src (the site ships none, so a script there was injected). */
export function inlineScripts(root: string): string[] {
  return sitePages(root).filter((page) => /<script(?![^>]*\ssrc=)[^>]*>/i.test(readFileSync(page, 'utf8'))).map((page) => path.relative(root, page));
}
