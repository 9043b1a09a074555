/**
 * Vitest's global setup: compiles src/ to dist/ once before any test file runs, so the end-to-end
 * tests start the CLI as users do (bin/nightbench.js runs dist/ when it is newer than src/). In a
 * checkout whose sources changed since the last build, every CLI start would otherwise go through
 * tsx's loader: about three times slower, and the soak and other e2e tests start hundreds. It is
 * `npm test`'s build step too: the script does not build again before it.
 */
import { execFileSync } from 'node:child_process';
import { repoRoot } from './cli.js';

export default function setup(): void {
  execFileSync(process.execPath, ['bin/build.js'], { cwd: repoRoot, stdio: 'inherit' });
}
