import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { writeJobSummary } from '../../src/job-summary/job-summary.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp-dir.js';
import { writeNight } from '../history-sync/helpers.js';

const summary = {
  markdown: '## nightbench: night 2026-12-01\n',
  annotations: [{ level: 'warning' as const, title: 'Regression: dask/groupby wall_time +14.8%', message: 'night 2026-12-01: +14.8%' }],
  outputs: { regressions: '1', night: '2026-12-01' },
};

let dir: string;
const saved = { summary: process.env.GITHUB_STEP_SUMMARY, output: process.env.GITHUB_OUTPUT };
beforeEach(() => {
  dir = tempDir('nightbench-summary-');
});
afterEach(() => {
  process.env.GITHUB_STEP_SUMMARY = saved.summary;
  process.env.GITHUB_OUTPUT = saved.output;
  if (saved.summary === undefined) delete process.env.GITHUB_STEP_SUMMARY;
  if (saved.output === undefined) delete process.env.GITHUB_OUTPUT;
  vi.restoreAllMocks();
});

describe('writeJobSummary', () => {
  it('writes the summary, the annotations and the outputs where GitHub Actions reads them', async () => {
    process.env.GITHUB_STEP_SUMMARY = path.join(dir, 'summary.md');
    process.env.GITHUB_OUTPUT = path.join(dir, 'output');
    writeFileSync(process.env.GITHUB_STEP_SUMMARY, '');
    writeFileSync(process.env.GITHUB_OUTPUT, '');
    const printed: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (printed.push(String(chunk)), true));

    expect(await writeJobSummary(summary)).toBe(true);
    expect(readFileSync(process.env.GITHUB_STEP_SUMMARY, 'utf8')).toBe('## nightbench: night 2026-12-01\n\n');
    expect(printed.join('')).toContain('::warning title=Regression%3A dask/groupby wall_time +14.8%25::night 2026-12-01: +14.8%25');
    const output = readFileSync(process.env.GITHUB_OUTPUT, 'utf8');
    expect(output).toMatch(/^regressions<<ghadelimiter_[\w-]+\n1\n/m);
    expect(output).toMatch(/^night<<ghadelimiter_[\w-]+\n2026-12-01\n/m);
  });

  it('does nothing outside a workflow', async () => {
    delete process.env.GITHUB_STEP_SUMMARY;
    const write = vi.spyOn(process.stdout, 'write');
    expect(await writeJobSummary(summary)).toBe(false);
    expect(write).not.toHaveBeenCalled();
  });
});

describe('nightbench summary in a workflow whose summary file cannot be written', () => {
  it('says so in one line, exit 2 (bad input), not as an internal error', async () => {
    const dir = tempDir('nightbench-summary-cli-');
    const db = path.join(dir, 'history.sqlite');
    writeNight(db, '2026-11-01');
    const result = await runCli(['summary', '--db', db], { cwd: dir, env: { GITHUB_STEP_SUMMARY: path.join(dir, 'no-such-folder', 'summary.md') } });
    expect(result.code).toBe(2);
    expect(result.stderr.trimEnd().split('\n')).toEqual([
      expect.stringMatching(/^nightbench: cannot hand the job summary to GitHub Actions \(GITHUB_STEP_SUMMARY, GITHUB_OUTPUT\): Unable to access summary file: '.*no-such-folder\/summary\.md'/),
    ]);
  });
});
