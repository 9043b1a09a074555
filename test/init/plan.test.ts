import { describe, expect, it } from 'vitest';
import { adoptWorkflow } from '../../src/init/adopt-workflow.js';
import { planFiles } from '../../src/init/plan.js';
import { githubRepository } from '../../src/init/templates.js';

describe('planFiles', () => {
  const wanted = [{ path: 'a', content: 'new\n', purpose: 'p' }];
  it.each([
    ['a missing file is created', undefined, false, 'create'],
    ['a file holding what init writes is left alone', 'new\n', false, 'unchanged'],
    ['a changed file is kept', 'mine\n', false, 'keep-changed'],
    ['a changed file is overwritten with force', 'mine\n', true, 'overwrite'],
    ['force does not rewrite an unchanged file', 'new\n', true, 'unchanged'],
  ] as const)('%s', (_, current, force, action) => {
    expect(planFiles(wanted, () => current, force)[0]!.action).toBe(action);
  });
});

describe('adoptWorkflow', () => {
  it('points the local action at the pinned release and runs nightbench from PATH', () => {
    const text = 'steps:\n  - uses: ./.github/actions/nightbench\n  - uses: ./.nightbench/tool/.github/actions/nightbench\n  - run: node bin/nightbench.js report --out site\n  - uses: ./.github/workflows/bisect.yml\n';
    const adopted = adoptWorkflow(text, 'pages.yml', { repository: 'acme/nightbench', ref: 'v1.2.3' });
    expect(adopted).toContain('uses: acme/nightbench/.github/actions/nightbench@v1.2.3\n  - uses: acme/nightbench/.github/actions/nightbench@v1.2.3\n');
    expect(adopted).toContain('run: nightbench report --out site\n');
    // The project's own workflows (init writes bisect.yml too) stay local.
    expect(adopted).toContain('uses: ./.github/workflows/bisect.yml\n');
    expect(adopted.split('\n')[0]).toMatch(/^# Written by `nightbench init` from nightbench v1\.2\.3's own pages\.yml/);
  });
});

describe('githubRepository', () => {
  it.each([
    ['https://github.com/dask/distributed.git', 'dask/distributed'],
    ['https://github.com/dask/distributed', 'dask/distributed'],
    ['git@github.com:dask/dask.git', 'dask/dask'],
    ['/tmp/some/checkout', undefined],
  ])('%s', (url, expected) => {
    expect(githubRepository(url)).toBe(expected);
  });
});
