/**
 * What `github.confirm: "rerun"` buys and costs (issue 12), on detection's synthetic suite
 * (bench/synthetic-suite.ts) with the rerun played by the simulated runner: every regression
 * episode detection opens is rerun, last good against first bad at the series' own noise and
 * true step (none for the unchanged series), exactly as the nightly does before filing.
 *   npx tsx bench/confirm-quality.ts [--overhead S] [--durations 30,120,600]
 */
import { confirmationOf } from '../src/bisect/confirm.js';
import { rerun } from '../src/bisect/search.js';
import { simulatedPort } from '../src/bisect/simulated.js';
import type { Episode } from '../src/detect/episodes.js';
import { defaultDetectionPolicy } from '../src/detect/policy.js';
import { nightAt, runNights } from '../test/detect/helpers.js';
import { stepCases, stepNight, stepRows, stepTrials, unchangedCv, unchangedNights, unchangedRows, unchangedSeries } from './synthetic-suite.js';
import { formatCount } from '../src/format/index.js';

const argument = (name: string) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
};
/** Seconds of cluster start-up around each repeat (a fresh cluster per repeat, as bisect runs them). */
const overhead = Number(argument('--overhead') ?? 10);
const durations = (argument('--durations') ?? '30,120,600').split(',').map(Number);
const policy = defaultDetectionPolicy;

let seed = 0;
const repeatsSpent: number[] = [];

/** Whether the rerun of `episode` reproduces it, when the truth is `step` at noise `cv`. */
async function reproduces(episode: Episode, step: number, cv: number): Promise<boolean> {
  const port = simulatedPort({ base: episode.baselineMedian, steps: { 1: step }, cv, seed: ++seed });
  const result = await rerun(port, { mode: 'metric', last: 1, priorNoise: episode.baselineNoise });
  repeatsSpent.push(port.measured.length);
  return confirmationOf(result, episode, 0).reproduced;
}

const regressions = (episodes: readonly Episode[]) => episodes.filter((e) => e.kind === 'regression');
const rows: string[][] = [];

for (const repeats of [1, 3]) {
  let filed = 0;
  let confirmed = 0;
  for (let s = 1; s <= unchangedSeries; s++) {
    for (const episode of regressions(runNights(unchangedRows(s, repeats), policy, 0, unchangedNights - 1).episodes)) {
      filed++;
      if (await reproduces(episode, 0, unchangedCv)) confirmed++;
    }
  }
  rows.push([`unchanged, CV 5%, ${formatCount(repeats, 'repeat')}: false alarms filed per ${unchangedSeries} series x ${unchangedNights} nights`, String(filed), String(confirmed)]);
}
// The unchanged suite opens few episodes: the share a rerun of no change wrongly confirms, from many reruns.
let falseConfirmed = 0;
const nullReruns = 1000;
const nullEpisode = { baselineMedian: 1, baselineNoise: unchangedCv, ratio: 1.15, identity: { workload: 'unchanged', metric: 'wall_time' }, unit: 's' } as Episode;
for (let i = 0; i < nullReruns; i++) if (await reproduces(nullEpisode, 0, unchangedCv)) falseConfirmed++;
rows.push([`reruns of no change (CV 5%) that confirm a +15% episode, of ${nullReruns}`, '-', `${falseConfirmed} (${((100 * falseConfirmed) / nullReruns).toFixed(1)}%)`]);

for (const step of stepCases) {
  for (const repeats of [1, 3]) {
    let found = 0;
    let kept = 0;
    for (let s = 1; s <= stepTrials; s++) {
      const run = runNights(stepRows(s, repeats, step), policy, 0, stepNight + 2);
      const caught = regressions(run.episodes).filter((e) => e.firstBad.night >= nightAt(stepNight - 2));
      for (const episode of caught) {
        found++;
        if (await reproduces(episode, step.factor - 1, step.cv)) kept++;
      }
    }
    rows.push([`+${Math.round((step.factor - 1) * 100)}% at CV ${step.cv * 100}%, ${formatCount(repeats, 'repeat')}: true regressions within 3 nights, of ${stepTrials}`, String(found), `${kept} (${found - kept} dropped)`]);
  }
}

const perConfirmation = repeatsSpent.reduce((a, b) => a + b, 0) / repeatsSpent.length;
process.stdout.write('| synthetic suite (simulated rerun) | filed without confirm | filed with confirm |\n|---|--:|--:|\n');
for (const row of rows) process.stdout.write(`| ${row.join(' | ')} |\n`);
process.stdout.write(`\nCost per confirmation: ${perConfirmation.toFixed(1)} repeats (last good and first bad interleaved), each on a fresh cluster (+${overhead} s start-up):\n`);
process.stdout.write('| workload duration | cluster minutes per confirmation |\n|--:|--:|\n');
for (const d of durations) process.stdout.write(`| ${d} s | ${((perConfirmation * (d + overhead)) / 60).toFixed(1)} |\n`);
