/**
 * The worker thread that writes a build's drill-down parts (`drilldown-parts.ts`): its own
 * read-only connection to the history, so the build's thread goes on with the other pages.
 *
 * @module
 */
import { openHistory } from '../history/open.js';
import { serveInThread } from '../threads.js';
import { writeDrilldownPartsHere, type DrilldownWorkerData } from './drilldown-parts.js';

await serveInThread(({ historyFile, root, jobs }: DrilldownWorkerData) => {
  const store = openHistory(historyFile, { readonly: true });
  try {
    return writeDrilldownPartsHere(root, jobs, (runId, workload) => store.nights.runWorkload(runId, workload));
  } finally {
    store.close();
  }
});
