import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { z } from 'zod';
import { NightbenchError, firstLine } from '../errors.js';
import { mergeRunsInto } from '../history/files.js';
import { backendFactory, type BackendDeps, type FetchOutcome, type HistoryBackend, type SaveOutcome } from './backend.js';
import { defaultRetryPolicy, retry, retryPolicyOf, retryTransient, type AttemptResult, type RetryDeps } from '../retry.js';
import { addedRows, fileBytes, prepareDestination } from './sqlite-file.js';

export const s3OptionsSchema = z.strictObject({
  bucket: z.string().min(1),
  key: z.string().min(1).default('nightbench/history.sqlite'),
  /** Default: the usual AWS environment (AWS_REGION). */
  region: z.string().min(1).optional(),
  /** An S3-compatible endpoint instead of AWS's. */
  endpoint: z.url().optional(),
  attempts: z.number().int().min(1).max(50).default(defaultRetryPolicy.attempts),
  retryDelayMs: z.number().int().min(0).default(defaultRetryPolicy.baseDelayMs),
});
export type S3Options = z.output<typeof s3OptionsSchema>;

/** The only calls the backend makes, so a test can hand it a fake. */
export type S3Send = (command: GetObjectCommand | PutObjectCommand) => Promise<unknown>;

/**
 * The history as one object in an S3 bucket. A save reads the object and its ETag, merges our
 * runs into it and writes it back only if the ETag is unchanged (a conditional put); when
 * another writer got there first S3 answers 412 and the save reads and merges again.
 * S3-compatible stores may ignore If-Match and overwrite silently, so before its first put a
 * backend checks, on a probe object beside the history, that a put with a wrong ETag is refused.
 */
export class S3Backend implements HistoryBackend {
  readonly description: string;
  private conditionalWritesChecked = false;

  constructor(
    private readonly options: S3Options,
    private readonly deps: RetryDeps & { send: S3Send },
  ) {
    this.description = `s3://${options.bucket}/${options.key}`;
  }

  async fetch(file: string): Promise<FetchOutcome> {
    const stored = await retryTransient(retryPolicyOf(this.options), this.deps, () => this.read());
    if (!stored) return { found: false };
    prepareDestination(file);
    writeFileSync(file, stored.bytes);
    return { found: true, revision: stored.etag, bytes: stored.bytes.length };
  }

  async save(file: string): Promise<SaveOutcome> {
    if (!existsSync(file)) throw new NightbenchError('remote', `cannot save ${file} to ${this.description}: no such file`);
    const { value, attempts } = await retry(`saving to ${this.description}`, retryPolicyOf(this.options), this.deps, async () => {
      await this.checkConditionalWrites();
      return this.trySave(file);
    });
    return { ...value, attempts };
  }

  /** Refuses to save through a backend that would let two writers overwrite each other. */
  private async checkConditionalWrites(): Promise<void> {
    if (this.conditionalWritesChecked) return;
    const probe = { Bucket: this.options.bucket, Key: `${this.options.key}.conditional-write-check`, Body: new TextEncoder().encode('nightbench checks that this store honours If-Match and If-None-Match\n') };
    try {
      await this.deps.send(new PutObjectCommand(probe));
    } catch (error) {
      throw this.remoteError(error);
    }
    for (const condition of [{ IfMatch: '"nightbench-not-the-etag"' }, { IfNoneMatch: '*' }]) {
      const header = Object.keys(condition)[0] === 'IfMatch' ? 'If-Match' : 'If-None-Match';
      try {
        await this.deps.send(new PutObjectCommand({ ...probe, ...condition }));
      } catch (error) {
        if (httpStatus(error) === 412 || httpStatus(error) === 409) continue;
        if (httpStatus(error) === 501 || httpStatus(error) === 400) throw this.unsafe(`it refused a put with ${header} (HTTP ${httpStatus(error)})`);
        throw this.remoteError(error);
      }
      throw this.unsafe(`it accepted a put whose ${header} did not hold`);
    }
    this.conditionalWritesChecked = true;
  }

  private unsafe(what: string): NightbenchError {
    return new NightbenchError(
      'remote',
      `remote history (${this.description}) does not honour conditional writes: ${what}, so two writers saving at once would overwrite each other's nights. Use a remote that does (AWS S3, or an S3-compatible one that supports If-Match on PUT), or --remote git`,
    );
  }

  private async trySave(file: string): Promise<AttemptResult<Omit<SaveOutcome, 'attempts'>>> {
    const work = mkdtempSync(path.join(tmpdir(), 'nightbench-s3-'));
    try {
      const stored = await this.read();
      const copy = path.join(work, 'history.sqlite');
      if (stored) writeFileSync(copy, stored.bytes);
      const merged = mergeRunsInto(copy, file);
      const bytes = fileBytes(copy);
      if (stored && addedRows(merged) === 0) return { kind: 'done', value: { changed: false, revision: stored.etag, merged, bytes } };
      try {
        const put = (await this.deps.send(
          new PutObjectCommand({ Bucket: this.options.bucket, Key: this.options.key, Body: readFileSync(copy), ...(stored ? { IfMatch: stored.etag } : { IfNoneMatch: '*' }) }),
        )) as { ETag?: string };
        return { kind: 'done', value: { changed: true, revision: put.ETag, merged, bytes } };
      } catch (error) {
        const status = httpStatus(error);
        // 412: the ETag changed (or the object appeared); 409: a concurrent conditional write.
        if (status === 412 || status === 409) return { kind: 'moved', detail: `${this.description} changed while we merged (HTTP ${status})` };
        throw this.remoteError(error);
      }
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }

  private async read(): Promise<{ bytes: Uint8Array; etag?: string } | undefined> {
    try {
      const got = (await this.deps.send(new GetObjectCommand({ Bucket: this.options.bucket, Key: this.options.key }))) as { Body?: { transformToByteArray(): Promise<Uint8Array> }; ETag?: string };
      return { bytes: (await got.Body?.transformToByteArray()) ?? new Uint8Array(), etag: got.ETag };
    } catch (error) {
      if (httpStatus(error) === 404 || (error as { name?: string }).name === 'NoSuchKey') return undefined;
      throw this.remoteError(error);
    }
  }

  /** An S3 failure as the remote's; one that may pass stays marked so, and is tried again after the SDK's own quick retries. */
  private remoteError(error: unknown): NightbenchError {
    return new NightbenchError('remote', `remote history (${this.description}): ${firstLine(error)}`, { cause: error, transient: isTransientS3Failure(error) });
  }
}

function httpStatus(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
}

/** Network errors that reach us without an HTTP status: the endpoint did not answer, or stopped answering. */
const passingNetworkCodes = new Set(['ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'EPIPE', 'EAI_AGAIN', 'ENOTFOUND', 'TimeoutError', 'RequestTimeout']);

/** A 5xx, a 429 (slow down) or a connection that failed: the same request may succeed a little later. */
function isTransientS3Failure(error: unknown): boolean {
  const status = httpStatus(error);
  if (status !== undefined) return status >= 500 || status === 429;
  const { code, name } = error as { code?: string; name?: string };
  return passingNetworkCodes.has(code ?? '') || passingNetworkCodes.has(name ?? '');
}

export const s3Backend = backendFactory('s3', s3OptionsSchema, (options, deps: BackendDeps) => {
  const client = new S3Client({ region: options.region, endpoint: options.endpoint, forcePathStyle: options.endpoint !== undefined });
  return new S3Backend(options, { log: deps.log, send: (command) => client.send(command as never) });
});
