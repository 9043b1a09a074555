/**
 * Headless Chromium for the site's tests and the browser benchmark: Debian's chromium driven by
 * playwright-core (no browser download), and screenshots kept as test artifacts.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

export const artifactsDir = fileURLToPath(new URL('../../test-artifacts/report/', import.meta.url));
/** Screenshots a person looks at after a run (reports/ is output; this folder is ignored by git). */
export const reportScreenshotsDir = fileURLToPath(new URL('../../reports/screenshots/', import.meta.url));

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

/** A site address as the browser has it, from the site's folder; a query (`run.html?run=...`) stays one. */
export function siteUrl(site: string, relative: string): string {
  const [file, query] = relative.split('?', 2);
  return pathToFileURL(path.join(site, file!)).href + (query === undefined ? '' : `?${query}`);
}

/** Saves a full-page screenshot as <dir>/<name>.png (default test-artifacts/report/). */
export async function screenshot(page: Page, name: string, dir = artifactsDir): Promise<string> {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}
