/**
 * A child process for the supervisor tests: a cluster-like process group (a shell with a child)
 * and a running client command, then it prints their pids and waits to be killed.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ManagedProcess, runCommand } from '../../src/process/processes.js';

const logDir = mkdtempSync(path.join(tmpdir(), 'nb-hold-'));
const server = new ManagedProcess('server', ['sh', '-c', 'sleep 600 & sleep 600'], { env: {}, logDir });
let client = 0;
void runCommand({ argv: ['sleep', '600'], env: {}, timeoutMs: 600_000, onSpawn: (pid) => (client = pid) });
process.stdout.write(`${JSON.stringify({ server: server.pid, client })}\n`);
setInterval(() => {}, 60_000);
