import { DescribeImagesCommand, DescribeSecurityGroupsCommand, DescribeSubnetsCommand, EC2Client } from '@aws-sdk/client-ec2';
import { afterAll, beforeAll } from 'vitest';
import { ManagedProcess, freePort, waitForPort } from '../../../src/process/processes.js';
import { tempDir } from '../../helpers/temp-dir.js';

/** Dummy credentials: moto accepts any, and no real ones are ever near a test. */
export const motoCredentials = { accessKeyId: 'testing', secretAccessKey: 'testing' };

export interface Moto {
  endpoint: string;
  client(): EC2Client;
  stop(): Promise<void>;
}

/**
 * moto's server as a local EC2-compatible endpoint on 127.0.0.1 (the `python3` first on PATH has
 * it). The addresses it gives instances are data only: tests never send traffic to them.
 */
export async function startMoto(): Promise<Moto> {
  const port = await freePort();
  const logDir = tempDir('nb-moto-');
  const server = new ManagedProcess('moto', ['python3', '-m', 'moto.server', '-H', '127.0.0.1', '-p', String(port)], { env: {}, logDir });
  await waitForPort('127.0.0.1', port, Date.now() + 30_000, () => (server.exit ? `moto exited: ${server.output}` : undefined));
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    client: () => new EC2Client({ region: 'us-east-1', endpoint, credentials: motoCredentials }),
    stop: () => server.stop(),
  };
}

/** What moto's default region has to launch into: an image, its subnets and a security group. */
export async function motoResources(client: EC2Client): Promise<{ ami: string; subnets: string[]; securityGroup: string }> {
  const ami = (await client.send(new DescribeImagesCommand({}))).Images![0]!.ImageId!;
  const subnets = (await client.send(new DescribeSubnetsCommand({}))).Subnets!.map((s) => s.SubnetId!);
  const securityGroup = (await client.send(new DescribeSecurityGroupsCommand({}))).SecurityGroups![0]!.GroupId!;
  return { ami, subnets, securityGroup };
}

/** What a test file on moto works with once its `beforeAll` has run. */
export interface MotoContext {
  moto: Moto;
  client: EC2Client;
  resources: { ami: string; subnets: string[]; securityGroup: string };
}

/** Starts moto before the file's tests and stops it after them; the context is filled in by then. */
export function useMoto(): MotoContext {
  const context = {} as MotoContext;
  beforeAll(async () => {
    context.moto = await startMoto();
    context.client = context.moto.client();
    context.resources = await motoResources(context.client);
  });
  afterAll(async () => {
    context.client?.destroy();
    await context.moto?.stop();
  });
  return context;
}
