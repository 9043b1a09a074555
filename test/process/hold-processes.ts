/**
 * A child process for the supervisor tests: a cluster-like process group (a shell with a child)
 * and a running client command, then it prints their pids and waits to be killed. Its one
 * argument is the folder for the group's logs, which the test made and removes.
 */
import { ManagedProcess, runCommand } from '../../src/process/processes.js';

const logDir = process.argv[2];
if (!logDir) throw new Error('usage: hold-processes.ts <log folder>');
const server = new ManagedProcess('server', ['sh', '-c', 'sleep 600 & sleep 600'], { env: {}, logDir });
let client = 0;
void runCommand({ argv: ['sleep', '600'], env: {}, timeoutMs: 600_000, onSpawn: (pid) => (client = pid) });
process.stdout.write(`${JSON.stringify({ server: server.pid, client })}\n`);
setInterval(() => {}, 60_000);
