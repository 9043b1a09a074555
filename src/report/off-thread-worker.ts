/**
 * The worker thread that writes beside a build's thread (`off-thread.ts`): the drill-down parts
 * first, through its own read-only connection to the history, then the workload pages' markup
 * that the build handed over meanwhile and hands over until it is done.
 *
 * @module
 */
import { openHistory } from '../history/open.js';
import { serveInThread } from '../threads.js';
import { writeDrilldownParts } from './drilldown-parts.js';
import { writeWorkloadMarkup, type OffThreadData, type WorkloadMarkupJob } from './off-thread.js';
import type { WrittenFile } from './site-files.js';

await serveInThread<OffThreadData, WrittenFile[], WorkloadMarkupJob[]>(async ({ historyFile, root, generatedAt, drilldowns }, pages) => {
  const madeDirs = new Set<string>();
  const store = openHistory(historyFile, { readonly: true });
  let written: WrittenFile[];
  try {
    written = writeDrilldownParts(root, drilldowns, (runId, workload) => store.nights.runWorkload(runId, workload), madeDirs);
  } finally {
    store.close();
  }
  for await (const jobs of pages) written.push(...writeWorkloadMarkup(root, generatedAt, jobs, madeDirs));
  return written;
});
