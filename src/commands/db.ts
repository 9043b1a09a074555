import type { Command } from 'commander';
import { historyFileStatus, migrateHistoryFile } from '../history/files.js';
import { mergeShards } from '../nightly/pipeline.js';
import { addCommonOptions, printResult, type CliCommand, type CommonOptions } from './command.js';
import { commandContext } from './context.js';
import { formatCount } from '../format/index.js';

/** `nightbench db migrate|status|merge`: the history database's schema and shards. */
export const dbCommand: CliCommand = {
  register(program: Command, setExitCode) {
    const db = program.command('db').description('the SQLite history: schema migrations, status, merging shard databases');

    addCommonOptions(db.command('migrate').description('apply pending schema migrations (db/migrations) to the history database'))
      .option('--json', 'machine-readable output')
      .action((options: CommonOptions) => {
        const context = commandContext(options);
        const { applied, version } = migrateHistoryFile(context.historyPath);
        const names = applied.map((m) => `${m.version}-${m.name}`);
        printResult(options.json, { file: context.historyPath, applied: names, version },
          applied.length ? `applied ${names.join(', ')}; schema version ${version}` : `up to date at schema version ${version}`);
        setExitCode(0);
      });

    addCommonOptions(db.command('status').description('schema version, pending migrations and row counts of the history database'))
      .option('--json', 'machine-readable output')
      .action((options: CommonOptions) => {
        const context = commandContext(options);
        const { version, pending, rows } = historyFileStatus(context.historyPath);
        printResult(options.json, { file: context.historyPath, version, pending, rows },
          [`${context.historyPath}: schema version ${version}${pending.length ? `, pending: ${pending.join(', ')}` : ', up to date'}`, ...Object.entries(rows).map(([t, n]) => `  ${t.padEnd(16)} ${n}`)].join('\n'));
        setExitCode(0);
      });

    addCommonOptions(db.command('merge').description('merge shard databases into the history (idempotent: merging twice adds nothing); a shard\'s writer must have ended: its runs still running are merged as incomplete. An unreadable shard is skipped with a warning; none readable is exit 4'))
      .argument('<shards...>', 'shard database files to merge into --db (or the config\'s history)')
      .option('--json', 'machine-readable output')
      .action((shards: string[], options: CommonOptions) => {
        const context = commandContext(options);
        const { merged, unreadable } = mergeShards(context, shards);
        printResult(options.json, { file: context.historyPath, merged, unreadable }, `merged ${merged.length} of ${formatCount(shards.length, 'shard')} into ${context.historyPath}`);
        setExitCode(0);
      });
  },
};
