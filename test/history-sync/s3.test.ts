import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLog } from '../../src/log.js';
import { S3Backend, s3OptionsSchema } from '../../src/history-sync/s3.js';
import { mergeRunsInto } from '../../src/history/files.js';
import { nightsIn, scratchDir, writeNight } from './helpers.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function s3Error(status: number, name: string): Error {
  return Object.assign(new Error(name), { name, $metadata: { httpStatusCode: status } });
}

/** An in-memory bucket that honours If-Match / If-None-Match as S3 does; `beforePut` lets a test write first. */
function fakeBucket() {
  const bucket = { object: undefined as { bytes: Uint8Array; etag: string } | undefined, version: 0, puts: 0, beforePut: undefined as (() => void) | undefined };
  const store = (bytes: Uint8Array) => (bucket.object = { bytes, etag: `"v${++bucket.version}"` });
  const send = async (command: GetObjectCommand | PutObjectCommand): Promise<unknown> => {
    if (command instanceof GetObjectCommand) {
      if (!bucket.object) throw s3Error(404, 'NoSuchKey');
      const { bytes, etag } = bucket.object;
      return { Body: { transformToByteArray: async () => bytes }, ETag: etag };
    }
    bucket.puts += 1;
    const hook = bucket.beforePut;
    bucket.beforePut = undefined;
    hook?.();
    const { IfMatch, IfNoneMatch, Body } = command.input;
    if ((IfNoneMatch === '*' && bucket.object) || (IfMatch !== undefined && IfMatch !== bucket.object?.etag)) throw s3Error(412, 'PreconditionFailed');
    return { ETag: store(Body as Uint8Array).etag };
  };
  return { bucket, send, store };
}

function setup() {
  const dir = scratchDir();
  dirs.push(dir);
  const fake = fakeBucket();
  const backend = new S3Backend(s3OptionsSchema.parse({ bucket: 'perf', retryDelayMs: 1 }), { log: silentLog, send: fake.send });
  return { ...fake, backend, file: (name: string) => path.join(dir, name) };
}

describe('S3 history store', () => {
  it('finds nothing at first, then saves and fetches a night back', async () => {
    const { backend, file, bucket } = setup();
    expect(await backend.fetch(file('fetched.sqlite'))).toEqual({ found: false });
    writeNight(file('night1.sqlite'), '2026-12-01');
    expect(await backend.save(file('night1.sqlite'))).toMatchObject({ changed: true, attempts: 1, revision: '"v1"' });
    expect(await backend.save(file('night1.sqlite'))).toMatchObject({ changed: false, revision: '"v1"' });
    expect(bucket.puts).toBe(1);
    expect(await backend.fetch(file('fetched.sqlite'))).toMatchObject({ found: true, revision: '"v1"' });
    expect(nightsIn(file('fetched.sqlite'))).toEqual(['2026-12-01']);
  });

  it('keeps both nights when another writer put the object between our read and our put', async () => {
    const { backend, file, bucket, store } = setup();
    writeNight(file('night1.sqlite'), '2026-12-01');
    await backend.save(file('night1.sqlite'));
    // The other writer: night 1 plus its night 2, put just before our put lands.
    writeFileSync(file('other.sqlite'), bucket.object!.bytes);
    writeNight(file('night2.sqlite'), '2026-12-02');
    mergeRunsInto(file('other.sqlite'), file('night2.sqlite'));
    bucket.beforePut = () => store(readFileSync(file('other.sqlite')));

    writeNight(file('night3.sqlite'), '2026-12-03');
    expect((await backend.save(file('night3.sqlite'))).attempts).toBe(2);
    await backend.fetch(file('fetched.sqlite'));
    expect(nightsIn(file('fetched.sqlite'))).toEqual(['2026-12-01', '2026-12-02', '2026-12-03']);
  });

  it('reports any other failure at once', async () => {
    const { file } = setup();
    const backend = new S3Backend(s3OptionsSchema.parse({ bucket: 'perf' }), { log: silentLog, send: async () => Promise.reject(s3Error(403, 'AccessDenied')) });
    writeNight(file('night1.sqlite'), '2026-12-01');
    await expect(backend.save(file('night1.sqlite'))).rejects.toThrow('history store (s3://perf/nightbench/history.sqlite): AccessDenied');
  });
});
