import { execFile } from 'node:child_process';
import type { Config } from '../config/schema.js';
import { NightbenchError, firstLine, lastLines } from '../errors.js';
import type { CommitInfo } from '../history/types.js';
import type { Log } from '../log.js';
import { runCommand } from '../process/processes.js';
import { nightCutoff } from '../night.js';
import { checkoutGitTarget, type CheckoutPins } from './git-target.js';

/** The target made ready to run: what it is (for the history) and how processes see it. */
export interface PreparedTarget {
  /** Stored as runs.target: the commits, or the installed versions. */
  description: Record<string, unknown>;
  commits: CommitInfo[];
  /** Environment variables every cluster and workload process gets (e.g. PYTHONPATH). */
  env: Record<string, string>;
}

export interface PrepareOptions extends Omit<CheckoutPins, 'cutoff'> {
  workdir: string;
  baseDir: string;
  python: string;
  /**
   * The night replayed or backfilled (YYYY-MM-DD): each repository is then at its last commit
   * before that night's cut-off (`target.cutoff`), whatever `commit` pins. `'now'`: each at its
   * tip, even with `commit` (the live nightly).
   */
  night?: string | 'now';
  log: Log;
}

export async function prepareTarget(config: Config, options: PrepareOptions): Promise<PreparedTarget> {
  const target = config.target;
  if (target.kind === 'installed') {
    if (options.commit || options.commits) throw new NightbenchError('usage', `--commit needs a git target; target.kind is "installed"`);
    const versions = await installedVersions(options.python, target.packages);
    options.log.info(`target: installed ${Object.entries(versions).map(([p, v]) => `${p} ${v}`).join(', ')}`);
    return { description: { kind: 'installed', name: target.name, versions }, commits: [], env: {} };
  }
  const cutoff = options.night === 'now' ? new Date().toISOString() : options.night && nightCutoff(options.night, target.cutoff);
  const checkouts = await checkoutGitTarget(target, { ...options, cutoff });
  const values = Object.fromEntries(checkouts.map((c) => [`checkout:${c.repo}`, c.dir]));
  const env = Object.fromEntries(
    Object.entries(target.setup.env).map(([key, value]) => [
      key,
      value.replace(/\{(checkout:[\w.-]+)\}/g, (match, name: string) => {
        const dir = values[name];
        if (!dir) throw new NightbenchError('config', `target.setup.env.${key}: unknown placeholder ${match}; known: ${Object.keys(values).map((k) => `{${k}}`).join(', ')}`);
        return dir;
      }),
    ]),
  );
  if (target.setup.command) {
    options.log.info(`setup: ${target.setup.command}`);
    const result = await runCommand({ argv: ['sh', '-c', target.setup.command], env, cwd: checkouts[0]!.dir, timeoutMs: 30 * 60_000 });
    if (result.exitCode !== 0) {
      throw new NightbenchError('target', `target.setup.command failed (exit ${result.exitCode ?? result.signal}): ${lastLines(result.stderrTail)}`);
    }
  }
  return {
    description: { kind: 'git', name: target.name, commits: Object.fromEntries(checkouts.map((c) => [c.repo, c.commit.sha])) },
    commits: checkouts.map((c) => c.commit),
    env,
  };
}

/** Versions of installed Python distributions, as the interpreter that runs the suite sees them. */
function installedVersions(python: string, packages: string[]): Promise<Record<string, string>> {
  const script = 'import json, sys, importlib.metadata as m\nout = {}\nfor p in sys.argv[1:]:\n    try: out[p] = m.version(p)\n    except m.PackageNotFoundError: out[p] = None\nprint(json.dumps(out))';
  return new Promise((resolve, reject) => {
    execFile(python, ['-c', script, ...packages], (error, stdout) => {
      if (error) return reject(new NightbenchError('target', `cannot run ${python} to read the installed target: ${firstLine(error)}`));
      const versions = JSON.parse(stdout) as Record<string, string | null>;
      const missing = Object.entries(versions).filter(([, v]) => v === null).map(([p]) => p);
      if (missing.length > 0) {
        return reject(
          new NightbenchError('target', `${python} does not see ${missing.join(', ')}: install them (on Debian: apt-get install -y python3-distributed python3-pandas python3-numpy) or set target/python in the config`),
        );
      }
      resolve(versions as Record<string, string>);
    });
  });
}
