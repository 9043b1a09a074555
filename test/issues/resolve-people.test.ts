import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitHubClient } from '../../src/issues/github/client.js';
import { resolvePeople } from '../../src/issues/resolve-people.js';
import type { RangeContext } from '../../src/git/range.js';
import type { Log } from '../../src/log.js';
import { FakeGitHub } from '../helpers/fake-github.js';
import { badSha, goodSha, otherSha } from './builders.js';
import { fastGitHubConfig } from './settings.js';

const range: RangeContext = {
  repo: 'pkg', from: goodSha, to: badSha, commitCount: 2, files: [],
  commits: [
    { sha: badSha, subject: 'Slow (#9)', authorName: 'Linus', authorEmail: 'l@example.org', authoredAt: '2026-12-02T00:00:00Z', pullRequest: 9 },
    { sha: otherSha, subject: 'Pushed without a number', authorName: 'Grace', authorEmail: 'g@example.org', authoredAt: '2026-12-02T00:00:00Z' },
  ],
  blame: [{ path: 'a.py', authors: [{ name: 'Ada', email: 'a@example.org', lines: 3, sha: goodSha }] }],
};

describe('resolvePeople', () => {
  const fake = new FakeGitHub();
  const warnings: string[] = [];
  const log: Log = { info: () => {}, debug: () => {}, warn: (m) => warnings.push(m) };
  beforeAll(async () => {
    await fake.start();
    fake.addRepository('acme/pkg').addCommit('acme/pkg', badSha, { login: 'linus' }).addCommit('acme/pkg', otherSha, { login: 'grace', pulls: [{ number: 8, title: 'x', login: 'grace' }] }).addCommit('acme/pkg', goodSha, { login: 'ada' });
  });
  afterAll(() => fake.stop());

  it('finds the logins of commit and blame authors, and pull requests of commits without a number', async () => {
    const client = createGitHubClient(fastGitHubConfig(fake.baseUrl), 't', log);
    const people = await resolvePeople(client, { pkg: 'acme/pkg' }, [range], log);
    expect(people).toEqual({ logins: { [badSha]: 'linus', [otherSha]: 'grace', [goodSha]: 'ada' }, pulls: { [otherSha]: 8 } });
    expect(fake.requests.filter((r) => r.path.endsWith('/pulls')).map((r) => r.path)).toEqual([`/repos/acme/pkg/commits/${otherSha}/pulls`]);
  });

  it('skips repositories not on GitHub, and warns instead of failing when a lookup fails', async () => {
    const client = createGitHubClient(fastGitHubConfig(fake.baseUrl), 't', log);
    expect(await resolvePeople(client, {}, [range], log)).toEqual({ logins: {}, pulls: {} });
    const people = await resolvePeople(client, { pkg: 'acme/gone' }, [range], log);
    expect(people).toEqual({ logins: {}, pulls: {} });
    expect(warnings.at(-1)).toMatch(/^could not look up authors of pkg in acme\/gone on GitHub \(Not Found/);
  });
});
