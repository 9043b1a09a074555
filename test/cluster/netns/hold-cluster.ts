/** A child process for the SIGTERM and concurrency tests: starts a netns cluster, prints its work folder and scheduler, and waits to be killed. */
import { netnsProvider } from '../../../src/cluster/netns/provider.js';
import { stderrLog } from '../../../src/log.js';
import { netnsRequest } from './request.js';

const request = netnsRequest({});
const cluster = await netnsProvider.start(request, stderrLog());
process.stdout.write(`${JSON.stringify({ workdir: request.workdir, schedulerAddress: cluster.schedulerAddress })}\n`);
setInterval(() => {}, 60_000);
