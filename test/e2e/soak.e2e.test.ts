/**
 * The soak bench in short (bench/soak.ts runs 30 nights): two nights through the workflows' CLI
 * steps, the first on EC2 (moto) with its worker host reclaimed, the second with every other
 * fault that needs neither an open issue nor an issue to write (the history's remote answering
 * 502 included), checked against the same invariants.
 */
import { expect, it } from 'vitest';
import { renderSoak, runSoak } from '../helpers/soak.js';

// GitHub failing is left to bench/soak.ts: two nights open no issue, so nothing would be written to fail.
it("two nights, a host reclaimed, then a shard killed, a corrupt shard, two writers and the history's remote failing, lose nothing", async () => {
  const result = await runSoak({
    nights: 2,
    repeats: 2,
    faults: new Map([[0, ['host-reclaimed']], [1, ['shard-killed', 'corrupt-shard', 'two-writers', 'remote-502']]]),
  });
  const table = renderSoak(result);
  expect(result.faultsInjected, table).toBe(5);
  expect(result.failuresByCause['a host was lost or reclaimed'], table).toBeGreaterThanOrEqual(1);
  for (const invariant of result.invariants) expect(invariant.violations, `${invariant.name}\n${table}`).toEqual([]);
  expect(result.nights[1]!.exits['nightly'], table).not.toBe(0);
  // The killed shard is the one step that failed, and the table says so.
  expect(result.failedSteps.map((f) => [f.night, f.step]), table).toEqual([[result.nights[1]!.night, 'nightly']]);
  expect(table).toMatch(/^\| nightly \| null \| .+ \| 1 \| /m);
});
