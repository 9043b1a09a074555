import { firstLine } from '../errors.js';
import type { Log } from '../log.js';

const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];

/**
 * Runs `cleanup` if SIGINT or SIGTERM arrives while a cluster holds resources that outlive this
 * process (instances, namespaces), then lets the signal do what it would have done. Returns the
 * function that disarms the guard once the cluster has stopped.
 *
 * When another listener (the CLI's own interrupt handling) is there too, that one decides how
 * the process ends; otherwise the signal is raised again, so the exit status says "killed by".
 */
export function guardSignals(what: string, cleanup: () => Promise<void>, log: Log): () => void {
  const handler = (signal: NodeJS.Signals) => {
    disarm();
    log.warn(`${signal}: tearing down the ${what}`);
    void cleanup()
      .catch((error: unknown) => log.warn(`tearing down the ${what} after ${signal}: ${firstLine(error)}`))
      .finally(() => {
        if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
      });
  };
  const disarm = () => {
    for (const signal of signals) process.off(signal, handler);
  };
  for (const signal of signals) process.on(signal, handler);
  return disarm;
}
