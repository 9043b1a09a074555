import { describe, expect, it } from 'vitest';
import { pullRequestCommentMarker, renderPullRequestComment } from '../../src/ab/pr-comment.js';
import { renderMarkdown, renderTerminal } from '../../src/ab/render.js';
import { shuffleSlowerReport as report } from './report-builder.js';

describe('renderPullRequestComment', () => {
  it('starts with the marker a re-run finds it by, and names the A/B and its summary', () => {
    const body = renderPullRequestComment(report(), 'https://github.example/runs/7');
    expect(body.startsWith(`${pullRequestCommentMarker}\n`)).toBe(true);
    expect(body).toContain('### nightbench A/B 01234567: 1 of 2 tests changed; A/A: 0 of 2 differ');
  });

  it('lists the significant change first, with its A/A band, and folds the unchanged tests away', () => {
    const body = renderPullRequestComment(report());
    const significant = body.indexOf('**Significant changes**');
    const folded = body.indexOf('<details><summary>1 test without a clear change</summary>');
    const shuffleRow = body.split('\n').find((line) => line.startsWith('| shuffle |'))!;
    expect(significant).toBeGreaterThan(0);
    expect(folded).toBeGreaterThan(significant);
    expect(body.indexOf('| shuffle |')).toBeGreaterThan(significant);
    expect(body.indexOf('| shuffle |')).toBeLessThan(folded);
    expect(body.indexOf('| sum |')).toBeGreaterThan(folded);
    expect(shuffleRow).toContain('slower');
    // The A/A band sits beside the ratio: "low-high" of the A'/A comparison, not "-".
    expect(shuffleRow.split(' | ')[6]).toMatch(/^0\.\d{3}-1\.\d{3}$/);
  });

  it('heads the interval column with the A/B\'s level, here and in the terminal and Markdown reports', () => {
    const at90 = report();
    at90.header.confidence = 0.9;
    expect(renderPullRequestComment(report())).toContain('| ratio [95% CI] |');
    expect(renderPullRequestComment(at90)).toContain('| ratio [90% CI] |');
    expect(renderTerminal(at90.header, at90.analysis)).toMatch(/ratio \[90% CI\]/);
    expect(renderMarkdown(at90.header, at90.analysis)).toContain('| ratio to A [90% CI] |');
  });

  it('links the full report when given its address, else says how to print it', () => {
    expect(renderPullRequestComment(report(), 'https://github.example/runs/7')).toContain('[Full report](https://github.example/runs/7)');
    expect(renderPullRequestComment(report())).toContain('`nightbench ab report 01234567`');
  });

  it('says so when nothing changed, and shows no empty table', () => {
    const quiet = report();
    quiet.analysis.tests = quiet.analysis.tests.filter((t) => t.workload === 'sum');
    const body = renderPullRequestComment(quiet);
    expect(body).toContain('No significant change.');
    expect(body).not.toContain('**Significant changes**');
  });

  it('keeps a | in an environment name from breaking the table', () => {
    const piped = report();
    piped.header.groups = piped.header.groups.map((g) => ({ ...g, environment: 'a|b' }));
    expect(renderPullRequestComment(piped)).toContain('A = a\\|b');
  });
});
