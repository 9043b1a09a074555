/**
 * The floors of src, lowest first: every room (a folder of src, or a file directly under it) is
 * on one floor and may import only rooms of lower floors, type-only imports included
 * (import-cycles.test.ts checks it; docs/architecture.md explains it). Rooms on one floor do not
 * know each other. A new room, or an import the floors forbid, is a decision: move the room to
 * the floor its imports need, or give the shape to the lower room (as src/history owns its row
 * types), and say why here.
 */
export const floors: readonly (readonly string[])[] = [
  // Vocabulary every floor shares: errors, logging, nights, numbers as text, pure statistics, the
  // wait before trying again (remote retries and the history's busy waits, one floor up, share it);
  // process supervision, which the history (leftover processes), suite, target and runner start through.
  ['src/errors.ts', 'src/log.ts', 'src/version.ts', 'src/night.ts', 'src/direction.ts', 'src/format', 'src/stats', 'src/backoff.ts', 'src/process'],
  // Checking outside input, the SQLite history (it owns its row shapes), machines and processes;
  // work in a worker thread, whose errors keep their kind (src/errors.ts, below); trying again
  // what failed in a way that passes (an error marked transient, below).
  ['src/validation.ts', 'src/threads.ts', 'src/retry.ts', 'src/history', 'src/cluster'],
  // Pure detection over history rows; git; the split of a night; the suite listing.
  ['src/detect', 'src/git', 'src/shard', 'src/suite'],
  // The config (detection's policy is a section of it); what reads detection's results.
  ['src/config', 'src/history-sync', 'src/interchange', 'src/tune'],
  // The target under test, checked out per the config; the job summary.
  ['src/target', 'src/job-summary'],
  ['src/runner'],
  ['src/ab'],
  ['src/report'],
  // The issue subsystem: planning, rendering, the Markdown files and the GitHub transport.
  ['src/issues'],
  // Triage acts on issue comments through the issue subsystem's GitHub transport.
  ['src/bisect', 'src/replay', 'src/triage'],
  ['src/nightly'],
  ['src/backfill', 'src/init'],
  // Commands compose everything below; the CLI wires them.
  ['src/commands'],
  ['src/cli.ts'],
];
