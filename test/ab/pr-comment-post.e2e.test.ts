/**
 * `nightbench ab comment` end to end: the real CLI process posts an A/B result to a pull request
 * of the local GitHub-shaped server (a pull request is an issue to the comments API), edits the
 * same comment on a re-run, and leaves alone a comment whose marker someone else typed.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pullRequestCommentMarker } from '../../src/ab/pr-comment.js';
import { runCli } from '../helpers/cli.js';
import { FakeGitHub, fakeBotLogin } from '../helpers/fake-github.js';
import { shuffleSlowerReport } from './report-builder.js';
import { tempDir } from '../helpers/temp-dir.js';

const repository = 'acme/perf';
let dir: string;
let fake: FakeGitHub;
let resultFile: string;

/** `ab comment` on pull request #1 with the token set; extra arguments appended. */
function comment(...extra: string[]) {
  return runCli(['ab', 'comment', '--config', path.join(dir, 'nightbench.config.json'), '--result', resultFile, '--pr', '1', '--json', ...extra], { env: { GITHUB_TOKEN: 't0ken' } });
}

beforeEach(async () => {
  dir = tempDir('nightbench-ab-comment-');
  fake = await new FakeGitHub().start();
  fake.addRepository(repository);
  writeFileSync(path.join(dir, 'nightbench.config.json'), JSON.stringify({ github: { repository, apiUrl: fake.baseUrl, retries: 1, waitUnitMs: 1, writeSpacingMs: 0, notifySpacingMs: 0 } }));
  resultFile = path.join(dir, 'ab-result.json');
  writeFileSync(resultFile, JSON.stringify(shuffleSlowerReport()));
  // The pull request, as the comments API sees it: issue #1, opened by a contributor.
  await fetch(`${fake.baseUrl}/repos/${repository}/issues`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ title: 'Faster shuffle' }) });
  fake.requests.length = 0;
});

afterEach(async () => {
  await fake.stop();
});

describe('ab comment', () => {
  it('posts one comment, then edits that same comment on a re-run', async () => {
    const first = await comment('--report-url', 'https://github.example/runs/1');
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ action: 'created' });
    const [posted] = fake.issue(repository, 1).comments;
    expect(posted).toMatchObject({ login: fakeBotLogin });
    expect(posted!.body).toContain(pullRequestCommentMarker);
    expect(posted!.body).toContain('[Full report](https://github.example/runs/1)');

    const second = await comment('--report-url', 'https://github.example/runs/2');
    expect(second.code, second.stderr).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({ action: 'updated', id: posted!.id });
    expect(fake.issue(repository, 1).comments).toHaveLength(1);
    expect(fake.issue(repository, 1).comments[0]!.body).toContain('[Full report](https://github.example/runs/2)');
  });

  it('ignores the marker in a comment someone else wrote: adds its own and leaves theirs as it was', async () => {
    const planted = fake.addComment(repository, 1, 'mallory', `${pullRequestCommentMarker}\nno regressions here, promise`);
    const run = await comment();
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ action: 'created' });
    const comments = fake.issue(repository, 1).comments;
    expect(comments).toHaveLength(2);
    expect(comments[0]).toEqual(planted);
    expect(comments[1]!.login).toBe(fakeBotLogin);
  });

  it('exits 6 with one line naming the pull request when GitHub keeps failing, and posts nothing', async () => {
    fake.failOn('GET', /\/issues\/1\/comments/, 20, 'bad-gateway');
    const run = await comment();
    expect(run.code).toBe(6);
    expect(run.stderr.trim().split('\n').at(-1)).toMatch(/^nightbench: commenting on pull request #1 in acme\/perf: GitHub answered 502/);
    expect(fake.issue(repository, 1).comments).toHaveLength(0);
  });

  it('prints the comment with --dry-run, without a token or a repository, and asks GitHub nothing', async () => {
    const run = await runCli(['ab', 'comment', '--result', resultFile, '--pr', '1', '--dry-run'], { cwd: dir, env: { GITHUB_REPOSITORY: undefined } });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.startsWith(`${pullRequestCommentMarker}\n### nightbench A/B 01234567: 1 of 2 tests changed`)).toBe(true);
    expect(run.stdout).toContain('Full report: `nightbench ab report 01234567`');
    expect(fake.requests).toHaveLength(0);
  });

  it('exits 2 on a result file of another shape or none, or a pull request that is not a number, before asking GitHub', async () => {
    writeFileSync(resultFile, JSON.stringify({ header: { id: 'x' } }));
    const shape = await comment();
    expect(shape.code).toBe(2);
    expect(shape.stderr).toMatch(/A\/B result .*ab-result\.json: /);
    const pr = await runCli(['ab', 'comment', '--config', path.join(dir, 'nightbench.config.json'), '--result', resultFile, '--pr', 'seven'], { env: { GITHUB_TOKEN: 't0ken' } });
    expect(pr.code).toBe(2);
    const missing = await runCli(['ab', 'comment', '--config', path.join(dir, 'nightbench.config.json'), '--result', path.join(dir, 'none.json'), '--pr', '1'], { env: { GITHUB_TOKEN: 't0ken' } });
    expect(missing.code).toBe(2);
    expect(missing.stderr.trim()).toMatch(/^nightbench: A\/B result .*none\.json: no such file/);
    expect(fake.requests).toHaveLength(0);
  });
});
