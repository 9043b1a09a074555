/**
 * Git's smart HTTP protocol on node:http, served by git's own `git http-backend` (the CGI program
 * GitHub-like servers wrap), over the bare repositories in one folder: clones, fetches and pushes
 * go through the same client code as they do against GitHub. It can be told to answer the next
 * N requests (or the next N whose method and path match) with an HTTP error instead, as a
 * server having a bad minute does, either refusing them or doing what they asked and losing the
 * answer (a push that landed, reported as a 502), and it counts the requests it failed.
 */
import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface GitHttpServer {
  /** `http://127.0.0.1:PORT`; a repository `x.git` in the folder is at `${url}/x.git`. */
  url: string;
  /**
   * Answers the next `count` requests matching `match` (all, by default) with `status`; with
   * `answerLost`, after doing what they asked.
   */
  failNext(count: number, options?: { status?: number; match?: RegExp; answerLost?: boolean }): void;
  /** Requests answered with an injected error so far. */
  readonly failed: number;
  close(): Promise<void>;
}

export async function startGitHttpServer(root: string): Promise<GitHttpServer> {
  const faults: { remaining: number; status: number; match: RegExp; answerLost: boolean }[] = [];
  let failed = 0;

  const server = createServer((request, response) => {
    const line = `${request.method} ${request.url}`;
    const fault = faults.find((f) => f.remaining > 0 && f.match.test(line));
    if (fault) {
      fault.remaining -= 1;
      failed += 1;
      if (fault.answerLost) return serveWithBackend(root, request, response, fault.status);
      request.resume();
      response.writeHead(fault.status, { 'content-type': 'text/plain' }).end(`injected ${fault.status}\n`);
      return;
    }
    serveWithBackend(root, request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    failNext(count, options = {}) {
      faults.push({ remaining: count, status: options.status ?? 502, match: options.match ?? /./, answerLost: options.answerLost ?? false });
    },
    get failed() {
      return failed;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Runs `git http-backend` for one request (RFC 3875 CGI) and relays its answer, or answers `lostWith` once it is done. */
function serveWithBackend(root: string, request: IncomingMessage, response: ServerResponse, lostWith?: number): void {
  const url = new URL(request.url ?? '/', 'http://localhost');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    GIT_PROJECT_ROOT: root,
    GIT_HTTP_EXPORT_ALL: '1',
    // http-backend lets an authenticated user push; the test's server trusts everyone.
    REMOTE_USER: 'nightbench-test',
    REQUEST_METHOD: request.method,
    PATH_INFO: decodeURIComponent(url.pathname),
    QUERY_STRING: url.search.slice(1),
    CONTENT_TYPE: request.headers['content-type'] ?? '',
    ...(request.headers['content-length'] ? { CONTENT_LENGTH: request.headers['content-length'] } : {}),
    ...(request.headers['content-encoding'] ? { HTTP_CONTENT_ENCODING: request.headers['content-encoding'] } : {}),
    ...(request.headers['git-protocol'] ? { GIT_PROTOCOL: String(request.headers['git-protocol']) } : {}),
  };
  const backend = spawn('git', ['http-backend'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  request.pipe(backend.stdin);
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  backend.stdout.on('data', (chunk: Buffer) => out.push(chunk));
  backend.stderr.on('data', (chunk: Buffer) => err.push(chunk));
  backend.on('close', () => {
    if (lostWith !== undefined) {
      response.writeHead(lostWith, { 'content-type': 'text/plain' }).end(`injected ${lostWith} after serving\n`);
      return;
    }
    const whole = Buffer.concat(out);
    const split = whole.indexOf('\r\n\r\n');
    if (split < 0) {
      response.writeHead(500, { 'content-type': 'text/plain' }).end(`git http-backend: ${Buffer.concat(err).toString()}`);
      return;
    }
    const headers: Record<string, string> = {};
    let status = 200;
    for (const header of whole.subarray(0, split).toString().split('\r\n')) {
      const colon = header.indexOf(':');
      const name = header.slice(0, colon).trim();
      const value = header.slice(colon + 1).trim();
      if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
      else headers[name] = value;
    }
    response.writeHead(status, headers).end(whole.subarray(split + 4));
  });
}
