/**
 * A small stateful GitHub on node:http that speaks the REST shapes nightbench uses: the
 * repository (its default branch), issues (list with label/state filters and Link pagination,
 * create, get, update, add labels), comments (with author and time; one by id; edited by id), collaborator
 * permissions, workflow dispatches, workflow runs and their artifacts (listed, and downloaded as a
 * zip through a redirect, as GitHub does), commits/{sha} (author login) and commits/{sha}/pulls, and
 * `GET /user` (refused with 403 as for a workflow's token, unless told the token's login). It
 * records every request and can be told to answer 502 or a rate limit to the next N requests,
 * or to the next N requests of one method and path.
 * Tests point Octokit's baseUrl at it.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeIssue {
  number: number;
  title: string;
  body: string;
  state: 'open' | 'closed';
  state_reason: string | null;
  labels: string[];
  comments: FakeComment[];
  closedBy?: string;
  createdAt: string;
  /** Who opened it: the token's bot for issues nightbench opened. */
  login?: string;
}

export interface FakeComment {
  id: number;
  body: string;
  /** Who wrote it: the token's bot for nightbench's own comments. */
  login: string;
  createdAt: string;
}

/** A repository role, as a collaborator is given it; `role_name` in GitHub's answer. */
export type FakeRole = 'admin' | 'maintain' | 'write' | 'triage' | 'read';

/** A workflow_dispatch request as the server received it. */
export interface FakeDispatch {
  workflow: string;
  ref: string;
  inputs: Record<string, string>;
}

export interface FakeCommit {
  login?: string;
  pulls?: { number: number; title: string; login: string }[];
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
  authorization?: string;
}

/** A finished (or running) workflow run and the artifacts it uploaded. */
export interface FakeWorkflowRun {
  id: number;
  workflowId: number;
  runNumber: number;
  status: 'completed' | 'in_progress';
  conclusion: 'success' | 'failure' | 'cancelled' | null;
  createdAt: string;
  artifacts: FakeArtifact[];
}

export interface FakeArtifact {
  id: number;
  name: string;
  /** The artifact's zip, as GitHub serves it. */
  zip: Uint8Array;
  expired?: boolean;
}

interface FakeRepository {
  issues: FakeIssue[];
  runs: FakeWorkflowRun[];
  labels: Set<string>;
  commits: Map<string, FakeCommit>;
  roles: Map<string, FakeRole>;
  dispatches: FakeDispatch[];
}

/** The login nightbench's own comments carry (the workflow token's bot). */
export const fakeBotLogin = 'github-actions[bot]';

type Failure = 'bad-gateway' | 'rate-limit' | 'secondary-rate-limit';

/** Status, JSON body and extra headers of an answer. */
type Answer = [number, unknown, Record<string, string>?];

interface Route {
  method: string;
  pattern: RegExp;
  handle(repo: FakeRepository, match: RegExpExecArray, request: RecordedRequest, url: string): Answer;
}

const perPageDefault = 30;

export class FakeGitHub {
  readonly requests: RecordedRequest[] = [];
  private readonly repositories = new Map<string, FakeRepository>();
  private readonly failures: Failure[] = [];
  private readonly targetedFailures: { method: string; path: RegExp; failure: Failure }[] = [];
  private server?: Server;
  private nextId = 1;
  baseUrl = '';
  /**
   * Who `GET /user` says the token is. Undefined (the default) answers 403 "Resource not
   * accessible by integration", as GitHub does for a workflow's GITHUB_TOKEN and app tokens.
   */
  tokenLogin?: string;
  /** The server's clock: issues and comments are stamped with it; tests move it. */
  now = new Date('2026-12-03T06:00:00Z');

  /** Starts listening on a free port of 127.0.0.1. */
  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.serve(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.baseUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve, reject) => (this.server ? this.server.close((e) => (e ? reject(e) : resolve())) : resolve()));
  }

  /** A repository that exists; any other answers 404 as GitHub does. */
  addRepository(fullName: string): this {
    this.repositories.set(fullName, { issues: [], runs: [], labels: new Set(), commits: new Map(), roles: new Map(), dispatches: [] });
    return this;
  }

  /** What commits/{sha} and commits/{sha}/pulls answer for a commit of `fullName`. */
  addCommit(fullName: string, sha: string, commit: FakeCommit): this {
    this.repository(fullName).commits.set(sha, commit);
    return this;
  }

  /** Makes `login` a collaborator with this role; anyone else reads as GitHub answers for an outsider. */
  setRole(fullName: string, login: string, role: FakeRole): this {
    this.repository(fullName).roles.set(login, role);
    return this;
  }

  /** What a person does in the web page: comment on an issue. Returns the comment (its id is the event's). */
  addComment(fullName: string, issueNumber: number, login: string, body: string): FakeComment {
    const comment: FakeComment = { id: this.nextId++, body, login, createdAt: this.now.toISOString() };
    this.issue(fullName, issueNumber).comments.push(comment);
    return comment;
  }

  /** A workflow run with its artifacts (ids given by the test: artifact ids must be unique in the repository). */
  addWorkflowRun(fullName: string, run: FakeWorkflowRun): this {
    this.repository(fullName).runs.push(run);
    return this;
  }

  /** workflow_dispatch requests received, in order. */
  dispatches(fullName: string): FakeDispatch[] {
    return this.repository(fullName).dispatches;
  }

  /** The next `count` requests fail this way, then the server answers normally again. */
  failNext(count: number, failure: Failure = 'bad-gateway'): this {
    for (let i = 0; i < count; i++) this.failures.push(failure);
    return this;
  }

  /** Ends every failure `failOn` set up that no request met yet; returns how many there were. */
  clearTargetedFailures(): number {
    return this.targetedFailures.splice(0).length;
  }

  /** The next `count` requests of `method` whose path matches `path` fail this way; others are answered. */
  failOn(method: string, path: RegExp, count: number, failure: Failure = 'bad-gateway'): this {
    for (let i = 0; i < count; i++) this.targetedFailures.push({ method, path, failure });
    return this;
  }

  issues(fullName: string): FakeIssue[] {
    return this.repository(fullName).issues;
  }

  labels(fullName: string): string[] {
    return [...this.repository(fullName).labels].sort();
  }

  /** What a maintainer does by hand: close the issue (not through nightbench). */
  closeByMaintainer(fullName: string, issueNumber: number): void {
    const issue = this.issue(fullName, issueNumber);
    Object.assign(issue, { state: 'closed', state_reason: 'not_planned', closedBy: 'maintainer' });
  }

  /** Requests that changed something (not GETs). */
  writes(): RecordedRequest[] {
    return this.requests.filter((r) => r.method !== 'GET');
  }

  issue(fullName: string, issueNumber: number): FakeIssue {
    const issue = this.issues(fullName).find((i) => i.number === issueNumber);
    if (!issue) throw new Error(`no issue #${issueNumber} in ${fullName}`);
    return issue;
  }

  private repository(fullName: string): FakeRepository {
    const repo = this.repositories.get(fullName);
    if (!repo) throw new Error(`fake GitHub has no repository ${fullName}`);
    return repo;
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.baseUrl);
    const text = await readBody(req);
    const request: RecordedRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      body: text ? (JSON.parse(text) as unknown) : undefined,
      ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}),
    };
    this.requests.push(request);
    const targeted = this.targetedFailures.findIndex((f) => f.method === request.method && f.path.test(request.path));
    const failure = targeted >= 0 ? this.targetedFailures.splice(targeted, 1)[0]!.failure : this.failures.shift();
    if (failure) return failureResponse(res, failure);
    if (request.method === 'GET' && url.pathname === '/user') {
      return this.tokenLogin === undefined
        ? send(res, 403, { message: 'Resource not accessible by integration', documentation_url: 'https://docs.github.com/rest/users/users#get-the-authenticated-user', status: '403' })
        : send(res, 200, { login: this.tokenLogin, id: 1, type: this.tokenLogin.endsWith('[bot]') ? 'Bot' : 'User' });
    }
    const blob = /^\/_blobs\/([^/]+)\/(\d+)\.zip$/.exec(url.pathname);
    if (request.method === 'GET' && blob) {
      // Where artifacts/{id}/zip redirects: storage outside the API, as GitHub's is.
      const repo = this.repositories.get(decodeURIComponent(blob[1]!));
      const artifact = repo && findArtifact(repo, Number(blob[2]));
      if (!artifact) return send(res, 404, { message: 'Not Found' });
      res.writeHead(200, { 'content-type': 'application/zip', 'content-length': String(artifact.zip.length) });
      return void res.end(artifact.zip);
    }
    const repoMatch = /^\/repos\/([^/]+\/[^/]+)(\/.*)?$/.exec(url.pathname);
    const repo = repoMatch ? this.repositories.get(repoMatch[1]!) : undefined;
    if (!repoMatch || !repo) return send(res, 404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' });
    for (const route of this.routes) {
      const match = route.method === request.method ? route.pattern.exec(repoMatch[2] ?? '') : null;
      if (!match) continue;
      const [status, body, headers] = route.handle(repo, match, request, `${this.baseUrl}${url.pathname}`);
      return send(res, status, body, headers);
    }
    send(res, 404, { message: `fake GitHub does not speak ${request.method} ${url.pathname}` });
  }

  private readonly routes: Route[] = [
    {
      method: 'GET',
      pattern: /^$/,
      handle: (_repo, _match, request) => [200, { full_name: request.path.slice('/repos/'.length), default_branch: 'main', private: false }],
    },
    {
      method: 'GET',
      pattern: /^\/issues$/,
      handle: (repo, _match, request, url) => {
        const state = request.query.state ?? 'open';
        const wanted = (request.query.labels ?? '').split(',').filter(Boolean);
        const matching = repo.issues
          .filter((i) => state === 'all' || i.state === state)
          .filter((i) => wanted.every((label) => i.labels.includes(label)))
          .sort((a, b) => b.number - a.number);
        return paginate(matching.map(issueJson), request, url);
      },
    },
    {
      method: 'POST',
      pattern: /^\/issues$/,
      handle: (repo, _match, request) => {
        const body = request.body as { title?: string; body?: string; labels?: string[] };
        if (!body.title) return [422, { message: 'Validation Failed', errors: [{ field: 'title', code: 'missing_field' }] }];
        const issue: FakeIssue = { number: repo.issues.length + 1, title: body.title, body: body.body ?? '', state: 'open', state_reason: null, labels: body.labels ?? [], comments: [], createdAt: this.now.toISOString(), login: this.tokenLogin ?? fakeBotLogin };
        for (const label of issue.labels) repo.labels.add(label);
        repo.issues.push(issue);
        return [201, issueJson(issue)];
      },
    },
    {
      method: 'GET',
      pattern: /^\/issues\/(\d+)$/,
      handle: (repo, match) => withIssue(repo, match, (issue) => [200, issueJson(issue)]),
    },
    {
      method: 'PATCH',
      pattern: /^\/issues\/(\d+)$/,
      handle: (repo, match, request) =>
        withIssue(repo, match, (issue) => {
          const body = request.body as Partial<Pick<FakeIssue, 'title' | 'body' | 'state' | 'state_reason' | 'labels'>>;
          Object.assign(issue, body);
          return [200, issueJson(issue)];
        }),
    },
    {
      method: 'GET',
      pattern: /^\/issues\/(\d+)\/comments$/,
      handle: (repo, match, request, url) => withIssue(repo, match, (issue) => paginate(issue.comments.map(commentJson), request, url)),
    },
    {
      method: 'POST',
      pattern: /^\/issues\/(\d+)\/comments$/,
      handle: (repo, match, request) =>
        withIssue(repo, match, (issue) => {
          const comment: FakeComment = { id: this.nextId++, body: (request.body as { body: string }).body, login: this.tokenLogin ?? fakeBotLogin, createdAt: this.now.toISOString() };
          issue.comments.push(comment);
          return [201, commentJson(comment)];
        }),
    },
    {
      method: 'GET',
      pattern: /^\/issues\/comments\/(\d+)$/,
      handle: (repo, match) => {
        const comment = repo.issues.flatMap((i) => i.comments).find((c) => c.id === Number(match[1]));
        return comment ? [200, commentJson(comment)] : [404, { message: 'Not Found' }];
      },
    },
    {
      method: 'PATCH',
      pattern: /^\/issues\/comments\/(\d+)$/,
      handle: (repo, match, request) => {
        const comment = repo.issues.flatMap((i) => i.comments).find((c) => c.id === Number(match[1]));
        if (!comment) return [404, { message: 'Not Found' }];
        comment.body = (request.body as { body: string }).body;
        return [200, commentJson(comment)];
      },
    },
    {
      method: 'POST',
      pattern: /^\/issues\/(\d+)\/labels$/,
      handle: (repo, match, request) =>
        withIssue(repo, match, (issue) => {
          for (const label of (request.body as { labels: string[] }).labels) {
            if (!issue.labels.includes(label)) issue.labels.push(label);
            repo.labels.add(label);
          }
          return [200, issue.labels.map((name) => ({ name }))];
        }),
    },
    {
      method: 'GET',
      pattern: /^\/collaborators\/([^/]+)\/permission$/,
      handle: (repo, match) => {
        const login = decodeURIComponent(match[1]!);
        // GitHub folds maintain into write and triage into read; role_name keeps the role.
        const role = repo.roles.get(login) ?? 'read';
        const permission = role === 'maintain' ? 'write' : role === 'triage' ? 'read' : role;
        return [200, { permission, role_name: role, user: { login } }];
      },
    },
    {
      method: 'POST',
      pattern: /^\/actions\/workflows\/([^/]+)\/dispatches$/,
      handle: (repo, match, request) => {
        const body = request.body as { ref?: string; inputs?: Record<string, string> };
        if (!body.ref) return [422, { message: 'Invalid request: "ref" wasn\'t supplied.' }];
        repo.dispatches.push({ workflow: decodeURIComponent(match[1]!), ref: body.ref, inputs: body.inputs ?? {} });
        return [204, undefined];
      },
    },
    {
      method: 'GET',
      pattern: /^\/actions\/runs\/(\d+)$/,
      handle: (repo, match) => {
        const run = repo.runs.find((r) => r.id === Number(match[1]));
        return run ? [200, runJson(run)] : [404, { message: 'Not Found' }];
      },
    },
    {
      method: 'GET',
      pattern: /^\/actions\/workflows\/(\d+)\/runs$/,
      handle: (repo, match, request, url) => {
        // `created` as the workflow pages use it here: >=YYYY-MM-DD.
        const since = /^>=(\d{4}-\d{2}-\d{2})$/.exec(request.query.created ?? '')?.[1];
        const runs = repo.runs
          .filter((r) => r.workflowId === Number(match[1]) && (!since || r.createdAt.slice(0, 10) >= since))
          .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
        return paginateUnder('workflow_runs', runs.map(runJson), request, url);
      },
    },
    {
      method: 'GET',
      pattern: /^\/actions\/runs\/(\d+)\/artifacts$/,
      handle: (repo, match, request, url) => {
        const run = repo.runs.find((r) => r.id === Number(match[1]));
        if (!run) return [404, { message: 'Not Found' }];
        return paginateUnder('artifacts', run.artifacts.map((a) => ({ id: a.id, name: a.name, expired: a.expired ?? false, size_in_bytes: a.zip.length })), request, url);
      },
    },
    {
      method: 'GET',
      pattern: /^\/actions\/artifacts\/(\d+)\/zip$/,
      handle: (repo, match, request) => {
        const artifact = findArtifact(repo, Number(match[1]));
        if (!artifact) return [404, { message: 'Not Found' }];
        if (artifact.expired) return [410, { message: 'Artifact has expired' }];
        const fullName = request.path.split('/').slice(2, 4).join('/');
        return [302, undefined, { location: `${this.baseUrl}/_blobs/${encodeURIComponent(fullName)}/${artifact.id}.zip` }];
      },
    },
    {
      method: 'GET',
      pattern: /^\/commits\/([0-9a-f]+)$/,
      handle: (repo, match) => {
        const commit = repo.commits.get(match[1]!);
        if (!commit) return [422, { message: `No commit found for SHA: ${match[1]}` }];
        return [200, { sha: match[1], author: commit.login ? { login: commit.login } : null }];
      },
    },
    {
      method: 'GET',
      pattern: /^\/commits\/([0-9a-f]+)\/pulls$/,
      handle: (repo, match) => [200, (repo.commits.get(match[1]!)?.pulls ?? []).map((p) => ({ number: p.number, title: p.title, user: { login: p.login }, html_url: `https://github.example/pull/${p.number}` }))],
    },
  ];
}

function issueJson(issue: FakeIssue) {
  const login = issue.login ?? fakeBotLogin;
  return { number: issue.number, title: issue.title, body: issue.body, user: { login, type: login.endsWith('[bot]') ? 'Bot' : 'User' }, state: issue.state, state_reason: issue.state_reason, labels: issue.labels.map((name) => ({ name })), comments: issue.comments.length, created_at: issue.createdAt, html_url: `https://github.example/issues/${issue.number}` };
}

function commentJson(comment: FakeComment) {
  return { id: comment.id, body: comment.body, user: { login: comment.login, type: comment.login.endsWith('[bot]') ? 'Bot' : 'User' }, created_at: comment.createdAt, html_url: `https://github.example/issues/comments/${comment.id}` };
}

function findArtifact(repo: FakeRepository, id: number): FakeArtifact | undefined {
  return repo.runs.flatMap((r) => r.artifacts).find((a) => a.id === id);
}

function runJson(run: FakeWorkflowRun) {
  return { id: run.id, workflow_id: run.workflowId, run_number: run.runNumber, status: run.status, conclusion: run.conclusion, created_at: run.createdAt };
}

function withIssue(repo: FakeRepository, match: RegExpExecArray, handle: (issue: FakeIssue) => Answer): Answer {
  const issue = repo.issues.find((i) => i.number === Number(match[1]));
  return issue ? handle(issue) : [404, { message: 'Not Found' }];
}

/** GitHub's page/per_page with a Link header, so Octokit's paginate walks every page. */
function paginate(items: unknown[], request: RecordedRequest, url: string): Answer {
  const perPage = Number(request.query.per_page ?? perPageDefault);
  const page = Number(request.query.page ?? 1);
  const pages = Math.max(1, Math.ceil(items.length / perPage));
  const link = (p: number) => `<${url}?${new URLSearchParams({ ...request.query, page: String(p) })}>`;
  const links = [...(page < pages ? [`${link(page + 1)}; rel="next"`, `${link(pages)}; rel="last"`] : [])];
  return [200, items.slice((page - 1) * perPage, page * perPage), links.length ? { link: links.join(', ') } : {}];
}

/** {@link paginate} for the endpoints that wrap their page in an object with `total_count` (workflow runs, artifacts). */
function paginateUnder(key: string, items: unknown[], request: RecordedRequest, url: string): Answer {
  const [status, page, headers] = paginate(items, request, url);
  return [status, { total_count: items.length, [key]: page }, headers];
}

function failureResponse(res: ServerResponse, failure: Failure): void {
  if (failure === 'bad-gateway') return send(res, 502, { message: 'Server Error' });
  if (failure === 'secondary-rate-limit') return send(res, 403, { message: 'You have exceeded a secondary rate limit.' }, { 'retry-after': '1' });
  send(res, 403, { message: 'API rate limit exceeded' }, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(Math.floor(Date.now() / 1000)) });
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(status === 204 || status === 302 ? undefined : JSON.stringify(body));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
