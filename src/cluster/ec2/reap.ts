import type { EC2Client } from '@aws-sdk/client-ec2';
import { listTagged, sleep, terminate, type Sleep } from './api.js';
import { planReap, tagKeys, type ReapPlan } from './plan.js';

export interface ReapResult extends ReapPlan {
  /** Ids actually terminated: none on a dry run. */
  terminated: string[];
}

/**
 * Ends every instance of `repository` whose `nightbench:expires-at` has passed: the safety net
 * for runs that died before their teardown. Instances of other repositories, and untagged ones,
 * are never touched.
 */
export async function reapExpired(
  client: EC2Client,
  options: { repository: string; now: Date; dryRun?: boolean; sleep?: Sleep },
): Promise<ReapResult> {
  const io = { sleep: options.sleep ?? sleep };
  const plan = planReap(await listTagged(client, tagKeys.expiresAt, io), options.repository, options.now);
  const ids = plan.terminate.map((i) => i.instanceId);
  if (!options.dryRun) await terminate(client, ids, io);
  return { ...plan, terminated: options.dryRun ? [] : ids };
}
