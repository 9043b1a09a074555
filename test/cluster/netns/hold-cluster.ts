/** A child process for the SIGTERM test: starts a netns cluster, prints its work folder, and waits to be killed. */
import { netnsProvider } from '../../../src/cluster/netns/provider.js';
import { stderrLog } from '../../../src/log.js';
import { netnsRequest } from './request.js';

const request = netnsRequest({});
await netnsProvider.start(request, stderrLog());
process.stdout.write(`${JSON.stringify({ workdir: request.workdir })}\n`);
setInterval(() => {}, 60_000);
