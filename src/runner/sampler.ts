import type { SampleTarget } from '../cluster/types.js';
import type { ProcessSamples } from '../history/types.js';
import { processTree, readProcStat } from './proc.js';

interface TargetState {
  target: SampleTarget;
  samples: ProcessSamples;
  /** Last CPU reading of every process ever seen in this tree: a process that ends keeps its CPU. */
  cpuByPid: Map<number, number>;
  initialPids: Set<number>;
  reportedGone: Set<number>;
  /** The tree as last walked; walking it reads a file per thread, so it is redone only now and then. */
  tree: number[];
  treeTick: number;
}

/** Ticks between walks of a process tree: new processes show up within about a second. */
const treeRefreshTicks = 4;

export interface SamplerResult {
  processes: ProcessSamples[];
  /** Processes present when sampling began that vanished during it: the cluster changed. */
  disappeared: string[];
  ticks: number;
}

/**
 * Samples RSS and CPU of every cluster process tree at a fixed rate from /proc while a repeat runs.
 * Reading a few /proc files per process per tick keeps the cost far below 1% of a core.
 */
export class Sampler {
  private readonly states = new Map<string, TargetState>();
  private timer?: NodeJS.Timeout;
  private startedAt = 0;
  private ticks = 0;
  private readonly disappeared: string[] = [];

  constructor(
    private readonly targets: () => SampleTarget[],
    private readonly intervalMs: number,
  ) {}

  start(): void {
    this.startedAt = performance.now();
    this.sample();
    this.timer = setInterval(() => this.sample(), this.intervalMs);
  }

  stop(): SamplerResult {
    clearInterval(this.timer);
    this.sample();
    return { processes: [...this.states.values()].map((s) => s.samples), disappeared: this.disappeared, ticks: this.ticks };
  }

  private sample(): void {
    const t = (performance.now() - this.startedAt) / 1000;
    this.ticks++;
    const alive = new Set<string>();
    for (const target of this.targets()) {
      alive.add(target.name);
      const state = this.stateOf(target);
      let rss = 0;
      const present = new Set<number>();
      if (this.ticks - state.treeTick >= treeRefreshTicks || state.tree.length === 0) {
        state.tree = processTree(target.pid);
        state.treeTick = this.ticks;
      }
      for (const pid of state.tree) {
        const stat = readProcStat(pid);
        if (!stat) {
          // A process ended: walk the tree again next tick to find what replaced it.
          state.treeTick = -treeRefreshTicks;
          continue;
        }
        present.add(pid);
        rss += stat.rssBytes;
        state.cpuByPid.set(pid, stat.cpuSeconds);
      }
      if (this.ticks === 1) for (const pid of present) state.initialPids.add(pid);
      this.noteGone(state, present);
      this.push(state, t, rss);
    }
    // A target that is no longer listed (its root exited) still gets a zero-RSS point, so every
    // process has one value per tick and cluster-wide sums line up.
    for (const state of this.states.values()) {
      if (alive.has(state.target.name)) continue;
      this.noteGone(state, new Set());
      this.push(state, t, 0);
    }
  }

  private stateOf(target: SampleTarget): TargetState {
    let state = this.states.get(target.name);
    if (!state) {
      state = {
        target,
        samples: { process: target.name, host: target.host, t: [], rss: [], cpu: [] },
        cpuByPid: new Map(),
        initialPids: new Set(),
        reportedGone: new Set(),
        tree: [],
        treeTick: 0,
      };
      // Targets that appear late get zeros for the ticks they missed.
      for (let i = 1; i < this.ticks; i++) this.pushValues(state, Number.NaN, 0);
      this.states.set(target.name, state);
    }
    return state;
  }

  private noteGone(state: TargetState, present: Set<number>): void {
    for (const pid of state.initialPids) {
      if (present.has(pid) || state.reportedGone.has(pid)) continue;
      state.reportedGone.add(pid);
      this.disappeared.push(`${state.target.name}: process ${pid} ended during the repeat`);
    }
  }

  private push(state: TargetState, t: number, rss: number): void {
    let cpu = 0;
    for (const value of state.cpuByPid.values()) cpu += value;
    this.pushValues(state, t, rss, cpu);
  }

  private pushValues(state: TargetState, t: number, rss: number, cpu = 0): void {
    state.samples.t.push(Number.isNaN(t) ? 0 : Math.round(t * 1000) / 1000);
    state.samples.rss.push(rss);
    state.samples.cpu.push(Math.round(cpu * 100) / 100);
  }
}
