import { describe, expect, it } from 'vitest';
import type { PublishResult } from '../../src/issues/publish.js';
import { runNightly, type NightlyPorts } from '../../src/nightly/run-nightly.js';
import type { RunReport } from '../../src/runner/execute.js';

const report: RunReport = { runId: 'r1', suite: 'dask', night: '2026-12-02', status: 'complete', repeats: { ok: 3, failed: 0, timeout: 0, disturbed: 0 }, clusterShape: 'local:2x1:2GiB' };
const published = (failed: number): PublishResult => ({ tracker: 'files', filesDir: '/tmp/issues', night: '2026-12-02', actions: [], failed, ...(failed ? { error: 'HTTP 502' } : {}) });

/** Fake ports that record what the pipeline called, in order. */
function ports(options: { interrupted?: boolean; failed?: number } = {}) {
  const calls: string[] = [];
  const lines: string[] = [];
  const fake: NightlyPorts = {
    record: async () => (calls.push('record'), [report]),
    detectAndPublish: async () => (calls.push('detect'), published(options.failed ?? 0)),
    interrupted: () => options.interrupted ?? false,
    log: { info: (m) => lines.push(`info ${m}`), warn: (m) => lines.push(`warn ${m}`), debug: () => undefined },
  };
  return { fake, calls, lines };
}

describe('runNightly', () => {
  it('records, then detects and publishes', async () => {
    const { fake, calls, lines } = ports();
    const outcome = await runNightly(fake, { detect: true });
    expect(calls).toEqual(['record', 'detect']);
    expect(outcome).toMatchObject({ reports: [report], interrupted: false, published: { failed: 0 } });
    expect(outcome.publishFailure).toBeUndefined();
    expect(lines[0]).toMatch(/^info published to files for night 2026-12-02: 0 issue groups/);
  });

  it('records only with detection off, or when interrupted', async () => {
    for (const [options, detect] of [[{}, false], [{ interrupted: true }, true]] as const) {
      const { fake, calls } = ports(options);
      const outcome = await runNightly(fake, { detect });
      expect(calls).toEqual(['record']);
      expect(outcome.published).toBeUndefined();
    }
  });

  it('returns a GitHub failure as an error with its exit code, after warning', async () => {
    const { fake, lines } = ports({ failed: 2 });
    const outcome = await runNightly(fake, { detect: true });
    expect(outcome.publishFailure?.exitCode).toBe(6);
    expect(lines.at(-1)).toMatch(/^warn 2 issue actions failed \(HTTP 502\)/);
  });
});
