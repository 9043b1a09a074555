/**
 * The soak bench in short (bench/soak.ts runs 30 nights): two nights through the workflows' CLI
 * steps, the first on EC2 (moto) with its worker host reclaimed, the second with every other
 * fault that needs no open issue, checked against the same invariants.
 */
import { expect, it } from 'vitest';
import { renderSoak, runSoak } from '../helpers/soak.js';

it('two nights, a host reclaimed, then a shard killed, a corrupt shard, two writers and GitHub failing, lose nothing', async () => {
  const result = await runSoak({
    nights: 2,
    repeats: 2,
    faults: new Map([[0, ['host-reclaimed']], [1, ['shard-killed', 'corrupt-shard', 'two-writers', 'github-502', 'github-403']]]),
  });
  const table = renderSoak(result);
  expect(result.faultsInjected, table).toBe(6);
  expect(result.failuresByCause['a host was lost or reclaimed'], table).toBeGreaterThanOrEqual(1);
  for (const invariant of result.invariants) expect(invariant.violations, `${invariant.name}\n${table}`).toEqual([]);
  expect(result.nights[1]!.exits['nightly'], table).not.toBe(0);
});
