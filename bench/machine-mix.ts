/**
 * Runners of several speeds (issue 30): shared CI runners come on several CPU types, and the same
 * commit measures 0.78, 1.0, 1.25 or 1.5 times as long depending on which one ran it. Replays a
 * synthetic suite night by night through what the nightly does after recording (detection's
 * `planNight`, the episodes, the issue plan and its holds, all pure and in memory), once with the
 * nights' machine classes recorded and once without (today's histories), and prints the issues
 * each would open: false ones (no planted change) and the planted steps found.
 *
 *   npx tsx bench/machine-mix.ts [--series 50] [--planted 10] [--repeats 3] [--cv 0.03] [--seed 1]
 *
 * Scenarios: `shift` (the pool moves from mostly the two fast classes to mostly the two slow ones
 * on night 60), `even` (every class a quarter of the nights), `two` (the two middle classes, half
 * each), `arrives` (one class only, then from night 60 the slowest class on half the nights: its
 * first nights have no baseline of their own, and what they open is held). Planted: +30% on
 * `--planted` series from night 90.
 *
 * @module
 */
import { Command } from 'commander';
import { activeStates, type Episode } from '../src/detect/episodes.js';
import { defaultDetectionPolicy as policy } from '../src/detect/policy.js';
import { lookbackResults, planNight } from '../src/detect/run.js';
import { groupSeries, seriesOfLastResults } from '../src/detect/series.js';
import { detectableBySeries, groupEpisodes, tonightMachineBySeries } from '../src/issues/group.js';
import { holdOpenings } from '../src/issues/machine-hold.js';
import { planIssues } from '../src/issues/plan.js';
import type { TrackedIssue } from '../src/issues/tracker.js';
import type { ResultRow } from '../src/history/types.js';
import { createRandom } from '../src/stats/index.js';
import { nightAt, seriesRows } from '../test/detect/helpers.js';
import { formatCount } from '../src/format/index.js';

const classes = [
  { name: 'runner A, 4 cores, 16GiB', speed: 0.78 },
  { name: 'runner B, 4 cores, 16GiB', speed: 1.0 },
  { name: 'runner C, 4 cores, 16GiB', speed: 1.25 },
  { name: 'runner D, 4 cores, 16GiB', speed: 1.5 },
];
const nights = 120;
const firstJudged = 30;
const shiftNight = 60;
const plantedNight = 90;
const plantedFactor = 1.3;

/** Each scenario's weights of the four classes on a night. */
const scenarios: Record<string, (night: number) => number[]> = {
  shift: (night) => (night < shiftNight ? [0.45, 0.45, 0.05, 0.05] : [0.05, 0.05, 0.45, 0.45]),
  even: () => [0.25, 0.25, 0.25, 0.25],
  two: () => [0, 0.5, 0.5, 0],
  arrives: (night) => (night < shiftNight ? [0, 1, 0, 0] : [0, 0.5, 0, 0.5]),
};

interface Options {
  series: number;
  planted: number;
  repeats: number;
  cv: number;
  seed: number;
}

/** Every series of the suite; one runner per night runs them all, its class drawn from the scenario's weights. */
function suiteRows(weightsOf: (night: number) => number[], options: Options): ResultRow[] {
  const random = createRandom(options.seed);
  const classOf = Array.from({ length: nights }, (_, night) => {
    const weights = weightsOf(night);
    let draw = random() * weights.reduce((a, b) => a + b, 0);
    return classes[weights.findIndex((w) => (draw -= w) < 0)] ?? classes.at(-1)!;
  });
  const nightIndex = new Map(Array.from({ length: nights }, (_, i) => [nightAt(i), i]));
  return Array.from({ length: options.series }, (_, k) =>
    seriesRows({
      seed: options.seed * 1000 + k, nights, repeats: options.repeats, cv: options.cv, workload: `w${String(k).padStart(3, '0')}`,
      steps: k < options.planted ? [{ from: plantedNight, factor: plantedFactor }] : [],
    }),
  )
    .flat()
    .map((row) => {
      const machine = classOf[nightIndex.get(row.night)!]!;
      // One target for the whole suite: every series of a night tests the same commits.
      return { ...row, commits: { pkg: `sha-${row.night}` }, machineClass: machine.name, value: row.value === null ? null : row.value * machine.speed };
    })
    .sort((a, b) => (a.night < b.night ? -1 : a.night > b.night ? 1 : 0));
}

interface Outcome {
  issues: number;
  falseIssues: number;
  falseSeries: number;
  /** Planted series filed, and the nights each took from the step. */
  plantedFound: number[];
  heldOpenings: number;
}

/** Detection then issues, night by night, as the nightly runs them. */
function replay(rows: readonly ResultRow[], options: Options): Outcome {
  const episodes: Episode[] = [];
  const machineNights = new Set<string>();
  const tracked: TrackedIssue[] = [];
  const outcome: Outcome = { issues: 0, falseIssues: 0, falseSeries: 0, plantedFound: [], heldOpenings: 0 };
  const planted = (workload: string) => Number(workload.slice(1)) < options.planted;
  const series = groupSeries(rows);
  for (let i = firstJudged; i < nights; i++) {
    const night = nightAt(i);
    const report = planNight(seriesOfLastResults(series, night, lookbackResults(policy)), episodes, policy, { night, machineNights });
    for (const change of report.changes) {
      if (change.action === 'open') episodes.push({ ...change.episode, id: episodes.length + 1 });
      else Object.assign(episodes.find((e) => e.id === change.id)!, { state: change.to, lastNight: change.lastNight, latestMedian: change.latestMedian, nightsBack: change.nightsBack, recoveredNight: change.recoveredNight });
    }
    if (report.machine?.machine) machineNights.add(night);
    const reported = episodes.filter((e) => e.kind === 'regression' && (activeStates.includes(e.state) || e.recoveredNight === night));
    const groups = groupEpisodes(reported, ['pkg'], detectableBySeries(report.verdicts), tonightMachineBySeries(report.verdicts));
    const actions = holdOpenings(planIssues(groups, tracked, night), { night, machine: report.machine, machineNights, episodes: reported, rerunConfirms: false });
    for (const action of actions) {
      if (action.kind === 'skip' && action.reason.startsWith('waiting')) outcome.heldOpenings++;
      if (action.kind !== 'open') continue;
      const number = tracked.length + 1;
      tracked.push({ fingerprint: action.group.fingerprint, number, ref: `#${number}`, state: 'open', closedByNightbench: false, reportedNights: [night], notedImprovements: [] });
      const ids = new Set(action.group.series.map((s) => s.episodeId));
      for (const episode of episodes) if (ids.has(episode.id)) episode.issueNumber = number;
      outcome.issues++;
      const real = action.group.series.filter((s) => planted(s.workload) && action.group.firstBadNight >= nightAt(plantedNight));
      if (real.length === 0) outcome.falseIssues++;
      outcome.falseSeries += action.group.series.length - real.length;
      outcome.plantedFound.push(...real.map(() => i - plantedNight));
    }
  }
  return outcome;
}

function describe(outcome: Outcome, options: Options): string {
  const found = [...outcome.plantedFound].sort((a, b) => a - b);
  const within3 = found.filter((n) => n <= 2).length;
  const median = found.length === 0 ? '-' : String(found[Math.floor(found.length / 2)]! + 1);
  return `| ${outcome.issues} | ${outcome.falseIssues} | ${outcome.falseSeries} | ${found.length} of ${options.planted} | ${within3} | ${median} | ${outcome.heldOpenings} |`;
}

const program = new Command('machine-mix')
  .option('--series <n>', 'series in the suite', '50')
  .option('--planted <n>', 'of which get +30% from night 90', '10')
  .option('--repeats <n>', 'repeats a night', '3')
  .option('--cv <x>', 'noise of one repeat', '0.03')
  .option('--seed <n>', 'seed', '1')
  .parse();
const raw = program.opts<Record<string, string>>();
const options: Options = { series: Number(raw['series']), planted: Number(raw['planted']), repeats: Number(raw['repeats']), cv: Number(raw['cv']), seed: Number(raw['seed']) };
const began = Date.now();
process.stdout.write(`${options.series} series (${options.planted} with +30% from night ${plantedNight}), ${formatCount(options.repeats, 'repeat')}, CV ${options.cv * 100}%, nights ${firstJudged}..${nights - 1} judged; classes at ${classes.map((c) => c.speed).join(' / ')}x\n`);
process.stdout.write('| scenario | machine classes | issues | false issues | false series filed | planted filed | within 3 nights | median nights | openings held |\n|---|---|--:|--:|--:|--:|--:|--:|--:|\n');
for (const [name, weights] of Object.entries(scenarios)) {
  const rows = suiteRows(weights, options);
  const blind = rows.map(({ machineClass: _unknown, ...row }) => row);
  process.stdout.write(`| ${name} | not recorded | ${describe(replay(blind, options), options).slice(2)}\n`);
  process.stdout.write(`| ${name} | recorded | ${describe(replay(rows, options), options).slice(2)}\n`);
}
process.stdout.write(`(${Math.round((Date.now() - began) / 1000)} s)\n`);
