import type { Command } from 'commander';
import { openDatabase, listMigrations, schemaVersion, migrate } from '../history/database.js';
import { mergeDatabase } from '../history/merge.js';
import { addCommonOptions, type CliCommand, type CommonOptions } from './command.js';
import { commandContext } from './context.js';

function print(json: boolean | undefined, data: unknown, text: string): void {
  process.stdout.write(json ? `${JSON.stringify(data, null, 2)}\n` : `${text}\n`);
}

/** `nightbench db migrate|status|merge`: the history database's schema and shards. */
export const dbCommand: CliCommand = {
  register(program: Command, setExitCode) {
    const db = program.command('db').description('the SQLite history: schema migrations, status, merging shard databases');

    addCommonOptions(db.command('migrate').description('apply pending schema migrations (db/migrations) to the history database'))
      .option('--json', 'machine-readable output')
      .action((options: CommonOptions) => {
        const context = commandContext(options);
        const database = openDatabase(context.historyPath, { migrate: false });
        try {
          const applied = migrate(database);
          print(options.json, { file: context.historyPath, applied: applied.map((m) => `${m.version}-${m.name}`), version: schemaVersion(database) },
            applied.length ? `applied ${applied.map((m) => `${m.version}-${m.name}`).join(', ')}; schema version ${schemaVersion(database)}` : `up to date at schema version ${schemaVersion(database)}`);
        } finally {
          database.close();
        }
        setExitCode(0);
      });

    addCommonOptions(db.command('status').description('schema version, pending migrations and row counts of the history database'))
      .option('--json', 'machine-readable output')
      .action((options: CommonOptions) => {
        const context = commandContext(options);
        const database = openDatabase(context.historyPath, { migrate: false });
        try {
          const version = schemaVersion(database);
          const pending = listMigrations().filter((m) => m.version > version).map((m) => `${m.version}-${m.name}`);
          const tables = (database.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as { name: string }[]).map((t) => t.name);
          const rows = Object.fromEntries(tables.map((t) => [t, (database.prepare(`SELECT count(*) AS n FROM "${t}"`).get() as { n: number }).n]));
          print(options.json, { file: context.historyPath, version, pending, rows },
            [`${context.historyPath}: schema version ${version}${pending.length ? `, pending: ${pending.join(', ')}` : ', up to date'}`, ...Object.entries(rows).map(([t, n]) => `  ${t.padEnd(16)} ${n}`)].join('\n'));
        } finally {
          database.close();
        }
        setExitCode(0);
      });

    addCommonOptions(db.command('merge').description('merge shard databases into the history (idempotent: merging twice adds nothing)'))
      .argument('<shards...>', 'shard database files to merge into --db (or the config\'s history)')
      .option('--json', 'machine-readable output')
      .action((shards: string[], options: CommonOptions) => {
        const context = commandContext(options);
        const database = openDatabase(context.historyPath);
        try {
          const merged = shards.map((shard) => {
            const counts = mergeDatabase(database, context.resolve(shard));
            context.log.info(`merged ${shard}: ${Object.entries(counts.added).map(([t, n]) => `${n} ${t}`).join(', ')}`);
            return counts;
          });
          print(options.json, { file: context.historyPath, merged }, `merged ${shards.length} shard${shards.length === 1 ? '' : 's'} into ${context.historyPath}`);
        } finally {
          database.close();
        }
        setExitCode(0);
      });
  },
};
