import { abCommand } from './ab.js';
import { backfillCommand } from './backfill.js';
import { bisectCommand } from './bisect.js';
import type { CliCommand } from './command.js';
import { dbCommand } from './db.js';
import { detectCommand } from './detect.js';
import { historyCommand } from './history.js';
import { issuesCommand } from './issues.js';
import { nightlyCommand } from './nightly.js';
import { reapCommand } from './reap.js';
import { replayCommand } from './replay.js';
import { reportCommand } from './report.js';
import { runCommand } from './run.js';
import { shardCommand } from './shard.js';
import { summaryCommand } from './summary.js';
import { triageCommand } from './triage.js';
import { tuneCommand } from './tune.js';

/** Every CLI verb, in the order `--help` lists them. A new command is one file and one line here. */
export const commands: CliCommand[] = [nightlyCommand, backfillCommand, runCommand, detectCommand, replayCommand, issuesCommand, triageCommand, bisectCommand, abCommand, dbCommand, historyCommand, shardCommand, summaryCommand, tuneCommand, reportCommand, reapCommand];
