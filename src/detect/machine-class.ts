/**
 * The machine a run ran on, and its class: what decides how fast a benchmark runs. Shared CI
 * runners come on several CPU types, and the same commit measures 0.78, 1.0, 1.25 or 1.5 times
 * as long depending on which one it got (issue 30); a detector that compares across them follows
 * the runner mix, not the code. Pure: facts in, the key out (src/runner/machine.ts reads the facts).
 *
 * @module
 */
import type { MachineFacts } from '../history/types.js';

export type { MachineFacts };


/** How a night's machine stands to its baseline's. */
export interface MachineComparison {
  /** The class the night ran on. */
  machineClass: string;
  /** The class of the last good night it was compared with, when known. */
  baselineClass?: string;
  /** The classes differ: the machine, not only the code, changed since the baseline. */
  changed: boolean;
  /** Compared only with nights of its own class (how many ok ones the lookback held), or with every class. */
  sameClassNights?: number;
}

const gib = 2 ** 30;

/**
 * The class of a machine: CPU model, cores and memory rounded to the GiB (two VMs of one size
 * report a few MiB apart). The hostname, the kernel and the runner image are left out: a runner
 * pool gives a new name to every machine, and kernel or image updates move speed far less than
 * the CPU does (they are recorded, and shown, all the same). A cluster of EC2 instances is
 * classed by its instance type instead ({@link instanceMachineClass}): it fixes CPU, cores and memory.
 */
export function machineClass(facts: Pick<MachineFacts, 'cpuModel' | 'cores' | 'memory'>): string {
  const memory = Math.max(1, Math.round(facts.memory / gib));
  return `${facts.cpuModel.replace(/\s+/g, ' ').trim() || 'unknown CPU'}, ${facts.cores} cores, ${memory}GiB`;
}

/** The class of a cluster of EC2 instances (known once it started: EC2 falls back across types). */
export function instanceMachineClass(instanceType: string): string {
  return `instance ${instanceType}`;
}

/** One line for a page or an issue: the class, then the runner image and kernel when known. */
export function describeMachine(facts: MachineFacts, machineClassKey: string): string {
  const image = facts.runnerImage === undefined ? '' : `, runner image ${facts.runnerImage}${facts.runnerImageVersion ? ` ${facts.runnerImageVersion}` : ''}`;
  return `${machineClassKey}${image}, kernel ${facts.kernel}`;
}
