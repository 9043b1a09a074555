/**
 * A child process for the SIGTERM and concurrency tests: starts a netns cluster in the work folder
 * NB_WORKDIR (the test made it and removes it once this process has ended), prints that folder and
 * its scheduler, and waits to be killed.
 */
import { netnsProvider } from '../../../src/cluster/netns/provider.js';
import { stderrLog } from '../../../src/log.js';
import { netnsRequest } from './request.js';

const request = netnsRequest({}, process.env.NB_WORKDIR);
const cluster = await netnsProvider.start(request, stderrLog());
process.stdout.write(`${JSON.stringify({ workdir: request.workdir, schedulerAddress: cluster.schedulerAddress })}\n`);
setInterval(() => {}, 60_000);
