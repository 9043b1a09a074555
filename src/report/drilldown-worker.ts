/**
 * The worker thread that writes a build's drill-down parts (`drilldown-parts.ts`): its own
 * read-only connection to the history, so the build's thread goes on with the other pages.
 *
 * @module
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openHistory } from '../history/open.js';
import { writeDrilldownPartsHere, type DrilldownWorkerData } from './drilldown-parts.js';

const { historyFile, root, jobs } = workerData as DrilldownWorkerData;
const store = openHistory(historyFile, { readonly: true });
try {
  parentPort!.postMessage(writeDrilldownPartsHere(root, jobs, (runId, workload) => store.nights.runWorkload(runId, workload)));
} finally {
  store.close();
}
