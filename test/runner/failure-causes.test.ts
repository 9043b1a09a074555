import { describe, expect, it } from 'vitest';
import { clusterError } from '../../src/errors.js';
import { HostTroubleError } from '../../src/cluster/types.js';
import { clusterFailure, failureCauses, repeatFailure, type RepeatEnding } from '../../src/runner/failure-causes.js';

const ended = (overrides: Partial<RepeatEnding>): RepeatEnding => ({ aborted: false, timedOut: false, exitCode: 0, hostsLost: 0, ...overrides });

describe('repeatFailure', () => {
  it.each([
    ['a repeat that succeeded', ended({}), undefined],
    ['a workload that raised', ended({ exitCode: 1 }), failureCauses.raised],
    ['a workload killed by a signal', ended({ exitCode: null }), failureCauses.raised],
    ['a workload that passed its time limit (a hang is a regression)', ended({ timedOut: true, exitCode: null }), failureCauses.timeLimit],
    ['a failure while a host was lost or reclaimed', ended({ exitCode: 1, hostsLost: 1 }), failureCauses.hostLost],
    ['a hang while a host was lost or reclaimed', ended({ timedOut: true, exitCode: null, hostsLost: 2 }), failureCauses.hostLost],
    ['a success while a host was lost (disturbed, not failed)', ended({ hostsLost: 1 }), undefined],
    ['an interrupted runner, whatever the command did', ended({ aborted: true, exitCode: 1, hostsLost: 1 }), failureCauses.interrupted],
  ])('%s', (_what, ending, failure) => {
    expect(repeatFailure(ending)).toEqual(failure);
  });

  it('blames the machine for lost hosts and interrupts, the code for raises and hangs', () => {
    expect([failureCauses.hostLost, failureCauses.capacity, failureCauses.interrupted, failureCauses.cluster].map((f) => f.class)).toEqual(['infrastructure', 'infrastructure', 'infrastructure', 'infrastructure']);
    expect([failureCauses.raised, failureCauses.timeLimit, failureCauses.noMetrics].map((f) => f.class)).toEqual(['code', 'code', 'code']);
  });
});

describe('clusterFailure', () => {
  it('names no capacity and a lost host as such, any other cluster trouble as a cluster that did not start', () => {
    expect(clusterFailure(new HostTroubleError('capacity', 'ec2: no capacity for the 2 workers'))).toEqual({ class: 'infrastructure', cause: 'no capacity for a host' });
    expect(clusterFailure(new HostTroubleError('host-lost', 'ec2: the scheduler host is gone'))).toEqual({ class: 'infrastructure', cause: 'a host was lost or reclaimed' });
    expect(clusterFailure(clusterError('the scheduler did not become ready'))).toEqual(failureCauses.cluster);
    expect(clusterFailure(new Error('ENOSPC'))).toEqual(failureCauses.cluster);
  });
});
