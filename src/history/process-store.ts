/**
 * The process groups a run started on this machine, so that a later start can end what a dead
 * runner left behind (process-queries.ts, src/runner/leftovers.ts).
 *
 * @module
 */
import { hostname } from 'node:os';
import { insertRunProcess, settleProcess, settleRunProcesses, unsettledProcessesOfEndedRuns } from './process-queries.js';
import type { StoreHandle } from './store-handle.js';
import type { ProcessFate, RunProcess } from './types.js';

export class ProcessStore {
  constructor(private readonly handle: StoreHandle) {}

  recordProcess(process: RunProcess): void {
    this.handle.write(() => insertRunProcess(this.handle.db, process));
  }

  /** Every process of the run not settled yet gets `fate`: its runner stopped them all. */
  settleRunProcesses(runId: string, fate: ProcessFate): void {
    this.handle.write(() => settleRunProcesses(this.handle.db, runId, fate));
  }

  settleProcess(process: RunProcess, fate: ProcessFate): void {
    this.handle.write(() => settleProcess(this.handle.db, process, fate));
  }

  /** Processes of this host whose run ended (or was marked dead) without stopping them. */
  unsettledProcesses(): RunProcess[] {
    return unsettledProcessesOfEndedRuns(this.handle.db, hostname());
  }
}
