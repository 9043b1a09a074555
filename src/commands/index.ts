import type { CliCommand } from './command.js';
import { dbCommand } from './db.js';

/** Every CLI verb, in the order `--help` lists them. A new command is one file and one line here. */
export const commands: CliCommand[] = [dbCommand];
