/**
 * What a run leaves behind when its runner dies without stopping its clusters (SIGKILL, an
 * out-of-memory kill): each process group a run starts is recorded with what identifies it
 * beyond its pid, and the next start ends the ones still alive. The supervisors of
 * src/process/processes.ts end them within seconds already; this is the net under them.
 *
 * @module
 */
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type { LaunchedProcess } from '../cluster/types.js';
import { firstLine } from '../errors.js';
import type { ProcessStore } from '../history/process-store.js';
import type { HistoryStore } from '../history/store.js';
import type { RunProcess } from '../history/types.js';
import type { Log } from '../log.js';
import { processIdentity, recordedProcessIsAlive } from './proc.js';
import { formatCount } from '../format/index.js';

/** Where a run records the process groups it starts. */
export interface ProcessLedger {
  recordProcess(process: RunProcess): void;
}

/** The `onLaunch` of a run's cluster requests: records each group with its boot and start time. */
export function processRecorder(ledger: ProcessLedger, runId: string, log: Log): (process: LaunchedProcess) => void {
  const host = hostname();
  return ({ name, pid }) => {
    const identity = processIdentity(pid);
    // Already gone: it cannot be left behind.
    if (!identity) return;
    try {
      ledger.recordProcess({ runId, name, host, pid, pgid: pid, ...identity, startedAt: new Date().toISOString() });
    } catch (error) {
      log.warn(`${name} (pid ${pid}) could not be recorded, so a later start could not end it if this run died: ${firstLine(error)}`);
    }
  };
}

/**
 * Cleans up after runs whose runner died on this machine: their runs and A/B tests are marked
 * incomplete (what they recorded stays), and their processes still alive are ended, each only if
 * it is still the very process recorded (same boot, same start time), never a recycled pid.
 * Says on stderr what it did; says nothing when there was nothing to do. Returns what it ended.
 */
export async function recoverAbandoned(store: Pick<HistoryStore, 'runs' | 'ab' | 'bisects' | 'processes'>, log: Log, options: { graceMs?: number } = {}): Promise<RunProcess[]> {
  for (const id of store.runs.markAbandonedRuns(recordedProcessIsAlive)) log.warn(`run ${id} had stopped before it finished; marked incomplete`);
  for (const id of store.ab.markAbandonedAbTests(recordedProcessIsAlive)) log.warn(`A/B ${id} had stopped before it finished; marked incomplete (\`nightbench ab report ${id.slice(0, 8)}\` analyses what it recorded)`);
  for (const id of store.bisects.markAbandonedBisects(recordedProcessIsAlive)) log.warn(`bisect ${id} had stopped before it finished; marked incomplete (its repeats stay recorded)`);
  return endLeftoverProcesses(store.processes, log, options.graceMs ?? 5000);
}

async function endLeftoverProcesses(processes: ProcessStore, log: Log, graceMs: number): Promise<RunProcess[]> {
  const alive: RunProcess[] = [];
  for (const process of processes.unsettledProcesses()) {
    if (recordedProcessIsAlive(process)) alive.push(process);
    else processes.settleProcess(process, 'gone');
  }
  if (alive.length === 0) return [];
  const runs = [...new Set(alive.map((p) => p.runId.slice(0, 8)))];
  log.warn(
    `ending ${formatCount(alive.length, 'process', 'processes')} left behind by run${runs.length === 1 ? '' : 's'} ${runs.join(', ')} ` +
      `whose runner died: ${alive.map((p) => `${p.name} (pid ${p.pid})`).join(', ')}`,
  );
  // As a normal stop does: TERM to each whole group, then KILL to the groups once their leader is
  // gone or the grace period is over. A group's id is not handed out again while a member of it
  // lives, so the KILL meets only what is left of the same group.
  for (const process of alive) signalGroup(process.pgid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (alive.some(recordedProcessIsAlive) && Date.now() < deadline) await sleep(100);
  for (const process of alive) {
    signalGroup(process.pgid, 'SIGKILL');
    processes.settleProcess(process, 'ended');
  }
  return alive;
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // The group ended meanwhile.
  }
}
