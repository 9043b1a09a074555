import type { AgentHost, AgentStatus, HostAgent } from '../../../src/cluster/ec2/agent.js';

export interface AgentCall {
  call: 'start' | 'stopAll' | 'extend';
  instanceId: string;
  name?: string;
  argv?: string[];
  /** extend: the minutes the host's own shutdown was moved to. */
  minutes?: number;
}

/**
 * Stands in for the agents on moto's instances (whose addresses are data only): records what the
 * runner asked of each host (starts, stops, shutdowns moved later), and reports what a test puts in `statuses` (a spot notice, an exit).
 */
export function fakeAgent(): HostAgent & { calls: AgentCall[]; statuses: Map<string, AgentStatus>; onStart?: (call: AgentCall) => void } {
  const agent = {
    calls: [] as AgentCall[],
    statuses: new Map<string, AgentStatus>(),
    onStart: undefined as ((call: AgentCall) => void) | undefined,
    start: async (host: AgentHost, name: string, argv: string[]) => {
      const call: AgentCall = { call: 'start', instanceId: host.instanceId, name, argv };
      agent.calls.push(call);
      agent.onStart?.(call);
    },
    stopAll: async (host: AgentHost) => void agent.calls.push({ call: 'stopAll', instanceId: host.instanceId }),
    extend: async (host: AgentHost, minutes: number) => void agent.calls.push({ call: 'extend', instanceId: host.instanceId, minutes }),
    status: async (host: AgentHost): Promise<AgentStatus> => agent.statuses.get(host.instanceId) ?? { exited: {} },
  };
  return agent;
}
