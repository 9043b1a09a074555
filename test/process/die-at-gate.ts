/**
 * A child process for the supervisor tests: a runner that dies right after spawning a command,
 * before it could supervise or record it (the moment a SIGKILL can land under load). The
 * command would create `marker` and then run for ten minutes.
 */
import { spawnGated } from '../../src/process/processes.js';

const marker = process.argv[2]!;
const { child } = spawnGated(['sh', '-c', 'touch "$0"; exec sleep 600', marker], { env: {} });
process.stdout.write(`${child.pid}\n`, () => process.kill(process.pid, 'SIGKILL'));
