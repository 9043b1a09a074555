import { describe, expect, it } from 'vitest';
import type { RangeContext } from '../../src/git/range.js';
import { githubSchema } from '../../src/config/github-section.js';
import { buildLinks } from '../../src/issues/links.js';
import { readFingerprint, readNights, closedByNightbench } from '../../src/issues/markers.js';
import { daysBetween } from '../../src/night.js';
import { renderIssue, renderPersistComment, renderRecoveryComment, renderTitle, type RenderContext } from '../../src/issues/render.js';
import { badSha, goodSha, group, otherSha, series } from './builders.js';

const range: RangeContext = {
  repo: 'pkg',
  from: goodSha,
  to: badSha,
  commitCount: 2,
  commits: [
    { sha: badSha, subject: 'Add a sleep to `compute` (#42)', authorName: 'Linus Slow', authorEmail: 'linus@example.org', authoredAt: '2026-12-02T21:00:00+00:00', pullRequest: 42 },
    { sha: otherSha, subject: 'Tidy up', authorName: 'Grace Hopper', authorEmail: 'grace@example.org', authoredAt: '2026-12-02T20:00:00+00:00' },
  ],
  files: [
    { path: 'pkg/core.py', added: 1, removed: 1 },
    { path: 'logo.bin' },
  ],
  blame: [{ path: 'pkg/core.py', authors: [{ name: 'Ada Lovelace', email: 'ada@example.org', lines: 5, sha: goodSha }] }],
};

function context(overrides: Partial<RenderContext> = {}): RenderContext {
  const github = githubSchema.parse({ repository: 'acme/perf', targetRepositories: { pkg: 'acme/pkg' }, siteUrl: 'https://acme.example/nightbench' });
  return {
    night: '2026-12-03',
    ranges: { pkg: range },
    people: { logins: { [badSha]: 'linus', [goodSha]: 'ada' }, pulls: { [otherSha]: 41 } },
    links: buildLinks(github),
    mention: 'authors',
    cli: 'npx nightbench',
    // A nightly that ran every night.
    nightsRun: (_suite, after, through) => daysBetween(after, through),
    ...overrides,
  };
}

/** Golden files keep the shape of the text; the ids and dates the fixture invents are scrubbed. */
function scrub(text: string): string {
  return text
    .replace(/[0-9a-f]{40}/g, '<sha>')
    .replace(/\b[0-9a-f]{7}\b/g, '<short-sha>')
    .replace(/fingerprint=[0-9a-f]{16}/g, 'fingerprint=<fingerprint>')
    .replace(/\d{4}-\d{2}-\d{2}/g, '<date>');
}

describe('renderIssue', () => {
  const basis = { repeats: 3, noise: 0.03, persistNoise: 0.03, repeatSpread: 0.03, baselineNights: 7, sinceNights: 20, threshold: 0.1 };
  const detectable = { repeats: 3, noise: 0.03, persistNoise: 0.03, firstNight: 0.1, persistent: 0.1, nights: 3, basis };
  const regressed = group([
    series('sum', 'open', { detectable }),
    series('shuffle', 'open', { detectable: { ...detectable, noise: 0.11, persistNoise: 0.11, firstNight: 0.45, persistent: 0.18 } }),
    // Judged at one repeat that night: only the persistence path can catch its changes.
    series('shuffle', 'open', { metric: 'peak_memory', unit: 'bytes', baselineMedian: 2 ** 30, newMedian: 1.5 * 2 ** 30, change: 0.5, pValue: 0.004, detectable: { repeats: 1, noise: 0.05, persistNoise: 0.05, persistent: 0.12, nights: 3, basis } }),
  ]);

  it('matches the golden issue', async () => {
    const issue = renderIssue(regressed, context());
    await expect(scrub(`# ${issue.title}\n\n${issue.body}`)).toMatchFileSnapshot('fixtures/issue.md');
  });

  it('carries the fingerprint and night markers that find it again', () => {
    const { body } = renderIssue(regressed, context());
    expect(readFingerprint(body)).toBe(regressed.fingerprint);
    expect(readNights([body])).toEqual(['2026-12-03']);
    expect(closedByNightbench([body])).toBe(false);
  });

  it('names workloads and every changed repository in the title', () => {
    expect(renderTitle(regressed)).toBe('Performance regression: 2 workloads worse since f00dfac (2026-12-03)');
    expect(renderTitle(group([series('sum')], [{ repo: 'a', from: goodSha, to: goodSha }, { repo: 'b', from: goodSha, to: badSha }]))).toBe('Performance regression: 1 workload slower since b f00dfac (2026-12-03)');
    expect(renderTitle(group([series('sum')], [{ repo: 'a', from: badSha, to: goodSha }, { repo: 'b', from: goodSha, to: badSha }]))).toBe(`Performance regression: 1 workload slower since a ${goodSha.slice(0, 7)}, b f00dfac (2026-12-03)`);
  });

  it('says of a late find how many nights it took, and that its first night is uncertain when the range reaches over nights between', () => {
    const late = { ...regressed, lastGoodNight: '2026-11-29', firstBadNight: '2026-12-01' };
    const { title, body } = renderIssue(late, context({ night: '2026-12-03' }));
    expect(title).toBe('Performance regression: 2 workloads worse since f00dfac (2026-12-01, found 2 nights later)');
    expect(body).toContain('It took 3 nights to be sure (found on 2026-12-03); the first night is uncertain: 1 night between the last good and the first bad night was within noise of both levels or not run, and the range reaches back over it.');
    expect(renderIssue(regressed, context()).body).not.toContain('to be sure');
  });

  it('counts the nights the suite ran, not calendar days: a nightly that skipped nights, an imported history\'s commits', () => {
    const ran = new Set(['2026-11-20', '2026-11-26', '2026-11-30', '2026-12-01', '2026-12-03']);
    const nightsRun = (_suite: string, after: string, through: string) => [...ran].filter((night) => night > after && night <= through).length;
    const late = { ...regressed, lastGoodNight: '2026-11-20', firstBadNight: '2026-11-30' };
    const { title, body } = renderIssue(late, context({ night: '2026-12-03', nightsRun }));
    expect(title).toBe('Performance regression: 2 workloads worse since f00dfac (2026-11-30, found 2 nights later)');
    expect(body).toContain('It took 3 nights to be sure (found on 2026-12-03); the first night is uncertain: 1 night between the last good and the first bad night was within noise of both levels or not run');
  });

  it('says why an issue that began on a machine night was filed a night later, and says nothing of it when filed on the night', () => {
    const reason = 'canary compute_seconds +155.3%; 2 of 6 timed series moved slower together';
    const held = { ...regressed, lastGoodNight: '2026-12-01', firstBadNight: '2026-12-02' };
    expect(renderIssue(held, context({ night: '2026-12-03', firstBadMachineReason: reason })).body).toContain(
      `It took 2 nights to be sure (found on 2026-12-03). Its first bad night was a machine night (${reason}), so the issue waited until 2026-12-03 showed the change on its own.`,
    );
    expect(renderIssue(held, context({ night: '2026-12-02', firstBadMachineReason: reason })).body).not.toContain('machine night');
  });

  it.each([
    ['authors', 'cc @linus'],
    ['authors-and-blame', 'cc @ada @linus'],
    ['none', undefined],
  ] as const)('mentions by policy %s', (mention, line) => {
    const { body } = renderIssue(regressed, context({ mention }));
    const cc = body.split('\n').filter((l) => l.startsWith('cc '));
    expect(cc).toEqual(line ? [line] : []);
    // Nobody else is @-mentioned anywhere in the body.
    expect(body.match(/@[a-z]+\b/g) ?? []).toEqual(line ? line.split(' ').slice(1) : []);
  });

  it("shows each judged series' noise and the smallest change it catches, one line each", () => {
    const { body } = renderIssue(regressed, context());
    expect(body).toContain('- `shuffle` wall_time: 3 repeats, 11% nightly noise: changes of 18% or more within 3 nights (45% on their first night)\n');
    expect(body).toContain('- `shuffle` peak_memory: 1 repeat, 5% nightly noise: changes of 12% or more within 3 nights, none on their first night alone\n');
    const unjudged = renderIssue(group([series('sum'), series('join', 'open', { detectable })]), context()).body;
    expect(unjudged.split('\n').filter((line) => line.startsWith('- `') && line.includes('nightly noise'))).toEqual(['- `join` wall_time: 3 repeats, 3% nightly noise: changes of 10% or more within 3 nights (10% on their first night)']);
  });

  it('says so when no repository changed between the nights: the cause is outside the code', () => {
    const { body } = renderIssue(group(regressed.series, [{ repo: 'pkg', from: badSha, to: badSha }]), context());
    expect(body).toContain('No commit changed between the last good and the first bad night in any repository');
    expect(renderIssue(regressed, context()).body).not.toContain('No commit changed');
  });

  it('says where the last good and first bad nights ran, and that the machine changed since the baseline when it did', () => {
    const fast = 'AMD EPYC 7763 64-Core Processor, 4 cores, 16GiB';
    const slow = 'Intel(R) Xeon(R) Platinum 8272CL CPU @ 2.60GHz, 4 cores, 16GiB';
    const same = renderIssue({ ...regressed, lastGoodMachineClass: fast, firstBadMachineClass: fast }, context()).body;
    expect(same).toContain(`- Last good night 2026-12-02: pkg@\`a1b2c3d\`; ran on ${fast}\n- First bad night 2026-12-03: pkg@\`f00dfac\`; ran on ${fast}\n`);
    expect(same).not.toContain('machine changed');
    const changed = renderIssue({ ...regressed, lastGoodMachineClass: fast, firstBadMachineClass: slow }, context()).body;
    expect(changed).toContain(`The machine changed since the baseline: the first bad night ran on ${slow}, the last good night on ${fast}; filed once a night on ${fast} still showed it.`);
    expect(renderIssue(regressed, context()).body).not.toContain('ran on');
  });

  it('reproduces an imported asv history with asv itself, each benchmark selected exactly, and other imports in words', () => {
    const imported = (workload: string, provider: string) => {
      const one = series(workload);
      return group([{ ...one, environment: { ...one.environment, provider, clusterShape: `${provider}:box` } }]);
    };
    const asv = renderIssue(imported("bench_orm.QuerySet.time_bulk_create(10, 'sqlite')", 'asv'), context()).body;
    expect(asv).toContain(`asv continuous --bench '^bench_orm\\.QuerySet\\.time_bulk_create\\(10, '\\''sqlite'\\''\\)$' ${goodSha} ${badSha}`);
    expect(asv).not.toContain('nightbench nightly');
    const bmf = renderIssue(imported('parse', 'bmf'), context()).body;
    expect(bmf).toContain(`These values were imported from bmf: run the project's benchmarks at the last good commit (${goodSha.slice(0, 7)}) and at the first bad one (${badSha.slice(0, 7)})`);
    expect(bmf).not.toContain('nightbench nightly');
  });

  it('says which cluster and environment each row ran on when the series ran on several, and only then', () => {
    const on = (environmentName: string) => {
      const one = series('sum', 'open', { detectable });
      return { ...one, environment: { ...one.environment, environmentName } };
    };
    const { body } = renderIssue(group([on('conda-py3.12'), on('conda-py3.13')]), context());
    expect(body).toContain('| Workload | Metric | Cluster · environment | Baseline median |');
    expect(body).toMatch(/\| wall_time \| local:2x1:2GiB · conda-py3\.12 \| /);
    expect(body).toMatch(/\| wall_time \| local:2x1:2GiB · conda-py3\.13 \| /);
    expect(body).toContain('`sum` wall_time (local:2x1:2GiB · conda-py3.13): ');
    expect(renderIssue(group([on('conda-py3.12')]), context()).body).not.toContain('Cluster · environment');
  });

  it('quotes a workload name the shell would split in the nightbench command', () => {
    const { body } = renderIssue(group([series('read csv')]), context());
    expect(body).toContain("--workload 'read csv' --provider local");
  });

  it('says when git could not read a range and still renders the rest', () => {
    const { body } = renderIssue(regressed, context({ ranges: { pkg: { error: 'pkg: commit a1b2c3d4e5f6 no longer exists' } } }));
    expect(body).toContain('git context unavailable: pkg: commit a1b2c3d4e5f6 no longer exists');
    expect(body).not.toContain('### Commits');
    expect(body).toContain('## Reproduce');
  });
});

describe('comments', () => {
  it('a persist comment carries its night and the table', () => {
    const text = renderPersistComment(group([series('sum', 'still-regressed'), series('shuffle', 'recovered')]), { night: '2026-12-04', links: context().links });
    expect(readNights([text])).toEqual(['2026-12-04']);
    expect(text).toContain('Still regressed on 2026-12-04: 1 series of 2.');
    expect(text).toContain('| recovered |');
  });

  it('a recovery comment marks nightbench as the closer', () => {
    const text = renderRecoveryComment(group([series('sum', 'recovered')]), { night: '2026-12-06', links: context().links });
    expect(closedByNightbench([text])).toBe(true);
    expect(text).toContain('Recovered on 2026-12-06');
  });

  it('closes an issue some of whose series are no longer measured, saying which, as nightbench', () => {
    const text = renderRecoveryComment(group([series('sum', 'retired'), series('shuffle', 'recovered')]), { night: '2026-12-06', links: context().links });
    expect(closedByNightbench([text])).toBe(true);
    expect(text).toContain('No longer measured on 2026-12-06: 1 of 2 series has no result in the nights detection reads (the workload removed or renamed, its environment retired, or failing since); the others are back within noise of their baseline. Closing;');
    expect(text).toContain('| no longer measured |');
    expect(renderPersistComment(group([series('sum', 'retired'), series('shuffle', 'still-regressed')]), { night: '2026-12-06', links: context().links })).toContain('Still regressed on 2026-12-06: 1 series of 2.');
  });
});
