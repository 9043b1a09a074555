/**
 * A child process for the SIGTERM test: starts an ec2 cluster against the moto endpoint in
 * MOTO_ENDPOINT with the options in NB_EC2_OPTIONS, in the work folder NB_WORKDIR (the test made it
 * and removes it once this process has ended), prints its instance ids, and waits to be killed.
 */
import { EC2Client } from '@aws-sdk/client-ec2';
import { ec2OptionsSchema } from '../../../src/cluster/ec2/options.js';
import { createEc2Provider } from '../../../src/cluster/ec2/provider.js';
import { stderrLog } from '../../../src/log.js';
import { fakeAgent } from './fake-agent.js';
import { motoCredentials } from './moto.js';
import { ec2Request } from './request.js';

const provider = createEc2Provider({
  createClient: (region) => new EC2Client({ region, endpoint: process.env.MOTO_ENDPOINT, credentials: motoCredentials }),
  probe: async () => {},
  agent: () => fakeAgent(),
});
const options = ec2OptionsSchema.parse(JSON.parse(process.env.NB_EC2_OPTIONS ?? '{}'));
const cluster = await provider.start(ec2Request(options, { runId: process.env.NB_RUN_ID ?? 'held', workdir: process.env.NB_WORKDIR }), stderrLog());
process.stdout.write(`${JSON.stringify(cluster.info().instanceIds)}\n`);
setInterval(() => {}, 60_000);
