/**
 * Checks over a built site's files: every href and src resolves to a file of the site or is an
 * absolute external URL (a drill-down link: the page and its run's data file), and no page carries
 * inline script.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { drilldownParams, sitePaths } from '../../src/report/paths.js';

export function sitePages(root: string, dir = root): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sitePages(root, full);
    return entry.name.endsWith('.html') ? [full] : [];
  });
}

/**
 * The data file a drill-down link loads, for a link to the one drill-down page: that page exists
 * whatever run the address names, the run's data file must too.
 */
function drilldownDataOf(ref: string): string | undefined {
  const [target, query] = ref.split('?', 2);
  if (target?.split('/').at(-1) !== sitePaths.drilldown || query === undefined) return undefined;
  const asked = new URLSearchParams(query);
  const [suite, workload, run] = [asked.get(drilldownParams.suite), asked.get(drilldownParams.workload), asked.get(drilldownParams.run)];
  return suite === null || workload === null || run === null ? '(no run named)' : sitePaths.drilldownData(suite, workload, run);
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
        const data = drilldownDataOf(ref);
        if (data !== undefined && !existsSync(path.join(root, data))) return true;
        return target === '' || /^[a-z]+:/i.test(target) || !existsSync(path.resolve(path.dirname(page), target));
      })
      .map((ref) => `${path.relative(root, page)}: ${ref}`);
  });
}

/** Pages with a script element that has no src (the site ships none, so a script there was injected). */
export function inlineScripts(root: string): string[] {
  return sitePages(root).filter((page) => /<script(?![^>]*\ssrc=)[^>]*>/i.test(readFileSync(page, 'utf8'))).map((page) => path.relative(root, page));
}
