import { configError } from '../errors.js';
import { localProvider } from './local.js';
import type { ClusterProvider } from './types.js';

/**
 * Every cluster provider, by the name configs use. A new provider is one entry here. Providers
 * that need heavy SDKs load them lazily, so the local path never loads AWS code or credentials.
 */
const providers: Record<string, () => Promise<ClusterProvider>> = {
  local: async () => localProvider,
  netns: async () => (await import('./netns/provider.js')).netnsProvider,
  ec2: async () => (await import('./ec2/provider.js')).ec2Provider,
};

export function providerNames(): string[] {
  return Object.keys(providers);
}

export async function getProvider(name: string): Promise<ClusterProvider> {
  const load = providers[name];
  if (!load) throw configError(`cluster.provider: unknown provider "${name}"; known: ${providerNames().join(', ')}`);
  return load();
}
