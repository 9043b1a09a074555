import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { silentLog } from '../../src/log.js';
import { S3Backend, s3OptionsSchema } from '../../src/history-sync/s3.js';
import { mergeRunsInto } from '../../src/history/files.js';
import { nightsIn, scratchDir, writeNight } from './helpers.js';


function s3Error(status: number, name: string): Error {
  return Object.assign(new Error(name), { name, $metadata: { httpStatusCode: status } });
}

const historyKey = 'nightbench/history.sqlite';

/**
 * An in-memory bucket that honours If-Match / If-None-Match as S3 does, or ignores them as some
 * S3-compatible stores do; `beforePut` lets a test write the history first. `puts` counts the history's puts.
 */
function fakeBucket(options: { honoursConditions?: boolean } = {}) {
  const objects = new Map<string, { bytes: Uint8Array; etag: string }>();
  const bucket = {
    get object() {
      return objects.get(historyKey);
    },
    puts: 0,
    beforePut: undefined as (() => void) | undefined,
  };
  const versions = new Map<string, number>();
  const put = (key: string, bytes: Uint8Array) => {
    versions.set(key, (versions.get(key) ?? 0) + 1);
    const object = { bytes, etag: `"v${versions.get(key)}"` };
    objects.set(key, object);
    return object;
  };
  const store = (bytes: Uint8Array) => put(historyKey, bytes);
  const send = async (command: GetObjectCommand | PutObjectCommand): Promise<unknown> => {
    const key = command.input.Key!;
    if (command instanceof GetObjectCommand) {
      const object = objects.get(key);
      if (!object) throw s3Error(404, 'NoSuchKey');
      return { Body: { transformToByteArray: async () => object.bytes }, ETag: object.etag };
    }
    if (key === historyKey) {
      bucket.puts += 1;
      const hook = bucket.beforePut;
      bucket.beforePut = undefined;
      hook?.();
    }
    const { IfMatch, IfNoneMatch, Body } = command.input;
    const current = objects.get(key);
    if ((options.honoursConditions ?? true) && ((IfNoneMatch === '*' && current) || (IfMatch !== undefined && IfMatch !== current?.etag))) throw s3Error(412, 'PreconditionFailed');
    return { ETag: put(key, Body as Uint8Array).etag };
  };
  return { bucket, send, store };
}

function setup() {
  const dir = scratchDir();
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

  it('refuses to save through a store that ignores conditional writes, and leaves the stored history alone', async () => {
    const { file } = setup();
    const careless = fakeBucket({ honoursConditions: false });
    careless.store(new TextEncoder().encode('the stored history'));
    const backend = new S3Backend(s3OptionsSchema.parse({ bucket: 'perf', retryDelayMs: 1 }), { log: silentLog, send: careless.send });
    writeNight(file('night1.sqlite'), '2026-12-01');
    await expect(backend.save(file('night1.sqlite'))).rejects.toThrow(
      /^remote history \(s3:\/\/perf\/nightbench\/history\.sqlite\) does not honour conditional writes: it accepted a put whose If-Match did not hold/,
    );
    expect(careless.bucket.puts).toBe(0);
    expect(new TextDecoder().decode(careless.bucket.object!.bytes)).toBe('the stored history');
  });

  it('tries again a put answered 503 and a read whose connection was reset, and loses nothing', async () => {
    const { file, send, bucket } = setup();
    let putRefused = false;
    let readReset = false;
    const flaky = async (command: GetObjectCommand | PutObjectCommand) => {
      if (command.input.Key === historyKey && command instanceof PutObjectCommand && !putRefused) {
        putRefused = true;
        throw s3Error(503, 'SlowDown');
      }
      if (command.input.Key === historyKey && command instanceof GetObjectCommand && putRefused && !readReset) {
        readReset = true;
        throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
      }
      return send(command);
    };
    const backend = new S3Backend(s3OptionsSchema.parse({ bucket: 'perf', retryDelayMs: 1 }), { log: silentLog, send: flaky });
    writeNight(file('night1.sqlite'), '2026-12-01');
    // Try 1: the put is refused; try 2: the read is reset; try 3 saves.
    expect(await backend.save(file('night1.sqlite'))).toMatchObject({ changed: true, attempts: 3 });
    expect([putRefused, readReset, bucket.puts]).toEqual([true, true, 1]);
    await backend.fetch(file('fetched.sqlite'));
    expect(nightsIn(file('fetched.sqlite'))).toEqual(['2026-12-01']);
  });

  it('reports any other failure at once', async () => {
    const { file } = setup();
    const backend = new S3Backend(s3OptionsSchema.parse({ bucket: 'perf' }), { log: silentLog, send: async () => Promise.reject(s3Error(403, 'AccessDenied')) });
    writeNight(file('night1.sqlite'), '2026-12-01');
    await expect(backend.save(file('night1.sqlite'))).rejects.toThrow('remote history (s3://perf/nightbench/history.sqlite): AccessDenied');
  });
});
