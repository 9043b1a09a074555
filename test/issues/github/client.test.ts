import { createServer, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createGitHubClient } from '../../../src/issues/github/client.js';
import { gitHubError } from '../../../src/issues/github/errors.js';
import type { Log } from '../../../src/log.js';
import { FakeGitHub } from '../../helpers/fake-github.js';
import { fastGitHubConfig } from '../settings.js';

function recordingLog(): Log & { lines: string[] } {
  const lines: string[] = [];
  return { lines, info: (m) => lines.push(m), warn: (m) => lines.push(m), debug: (m) => lines.push(m) };
}

describe('createGitHubClient against the fake GitHub', () => {
  const fake = new FakeGitHub();
  beforeAll(async () => {
    await fake.start();
  });
  afterEach(() => {
    fake.requests.length = 0;
  });
  afterAll(() => fake.stop());

  it('sends the token and never logs it', async () => {
    fake.addRepository('acme/perf');
    const log = recordingLog();
    const client = createGitHubClient(fastGitHubConfig(fake.baseUrl), 's3cret-token', log);
    fake.failNext(1, 'bad-gateway');
    await client.rest.issues.create({ owner: 'acme', repo: 'perf', title: 'x' });
    expect(fake.requests.at(-1)?.authorization).toBe('token s3cret-token');
    expect(log.lines.join('\n')).not.toContain('s3cret-token');
  });

  it.each(['bad-gateway', 'rate-limit', 'secondary-rate-limit'] as const)('retries after %s answers', async (failure) => {
    fake.addRepository('acme/retry');
    const client = createGitHubClient(fastGitHubConfig(fake.baseUrl), 't', recordingLog());
    fake.failNext(2, failure);
    const created = await client.rest.issues.create({ owner: 'acme', repo: 'retry', title: 'survives' });
    expect(created.data.number).toBe(1);
    expect(fake.requests.filter((r) => r.method === 'POST')).toHaveLength(3);
    expect(fake.issues('acme/retry')).toHaveLength(1);
  });

  it('gives up after the configured retries with the status', async () => {
    fake.addRepository('acme/down');
    const client = createGitHubClient(fastGitHubConfig(fake.baseUrl, { retries: 2 }), 't', recordingLog());
    fake.failNext(5, 'bad-gateway');
    await expect(client.rest.issues.create({ owner: 'acme', repo: 'down', title: 'lost?' })).rejects.toMatchObject({ status: 502 });
    expect(fake.requests).toHaveLength(3);
    await client.rest.issues.create({ owner: 'acme', repo: 'down', title: 'the server is back' });
    expect(fake.issues('acme/down')).toHaveLength(1);
  });

  it('walks every page of a listing', async () => {
    fake.addRepository('acme/many');
    const client = createGitHubClient(fastGitHubConfig(fake.baseUrl), 't', recordingLog());
    for (let i = 0; i < 5; i++) await client.rest.issues.create({ owner: 'acme', repo: 'many', title: `#${i}`, labels: ['performance'] });
    const all = await client.paginate(client.rest.issues.listForRepo, { owner: 'acme', repo: 'many', state: 'all', labels: 'performance', per_page: 2 });
    expect(all.map((i) => i.title).sort()).toEqual(['#0', '#1', '#2', '#3', '#4']);
    expect(fake.requests.filter((r) => r.method === 'GET')).toHaveLength(3);
  });
});

describe('createGitHubClient against a GitHub that accepts connections and never answers', () => {
  it('gives up on each request after github.requestTimeoutMs, as no answer, instead of waiting minutes', async () => {
    const held: Socket[] = [];
    const server = createServer((socket) => void held.push(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    try {
      const client = createGitHubClient(fastGitHubConfig(`http://127.0.0.1:${port}`, { retries: 1, requestTimeoutMs: 200 }), 't', recordingLog());
      const began = Date.now();
      const error = await client.rest.issues.listForRepo({ owner: 'acme', repo: 'perf' }).then(() => undefined, (failure: unknown) => failure);
      expect(Date.now() - began).toBeLessThan(3_000);
      expect(gitHubError('finding issues', 'acme/perf', error).message).toMatch(/^finding issues in acme\/perf: no answer from GitHub: .*timeout/);
    } finally {
      for (const socket of held) socket.destroy();
      server.close();
    }
  });
});
