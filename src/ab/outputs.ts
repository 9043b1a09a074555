/**
 * Where an A/B report is written besides the terminal: its Markdown, its result JSON (what
 * `ab comment` reads) and the site's A/B pages, each file announced on the log.
 *
 * @module
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Log } from '../log.js';
import { sitePages } from './page.js';
import type { AbReport } from './report.js';

/** The files wanted; each one left out is not written. */
export interface AbOutputFiles {
  markdownFile?: string;
  resultFile?: string;
  /** The site's A/B folder (reports dir/ab), with the environments the pages name. */
  pages?: { dir: string; environments: Parameters<typeof sitePages>[1] };
}

export function writeAbOutputs(report: AbReport, markdown: string, files: AbOutputFiles, log: Log): void {
  if (files.markdownFile) writeFile(files.markdownFile, markdown, log);
  if (files.resultFile) writeFile(files.resultFile, `${JSON.stringify(report, null, 2)}\n`, log);
  if (files.pages) {
    for (const page of sitePages(report, files.pages.environments)) writeFile(path.join(files.pages.dir, `${page.id}.json`), `${JSON.stringify(page, null, 2)}\n`, log);
  }
}

function writeFile(file: string, content: string, log: Log): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
  log.info(`wrote ${file}`);
}
