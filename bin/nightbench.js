#!/usr/bin/env node
// Runs the compiled CLI (dist/, made by `npm run build`, which `npm ci` and `npm test` run).
// In a development checkout whose sources changed since the last build, it runs the TypeScript
// sources through tsx instead, so an edit never runs stale code; an installed package ships no
// sources and always runs dist/.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const compiled = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const sources = fileURLToPath(new URL('../src/', import.meta.url));

/** The newest modification time of any file under `dir`, in ms. */
function newestChange(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) newest = Math.max(newest, statSync(`${entry.parentPath}/${entry.name}`).mtimeMs);
  }
  return newest;
}

const useBuild = existsSync(compiled) && (!existsSync(sources) || statSync(compiled).mtimeMs >= newestChange(sources));
if (!useBuild) (await import('tsx/esm/api')).register();
// `nightbench ... | head` closes stdout early: that is the reader's choice, not an error.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});
const { main } = await import(useBuild ? '../dist/cli.js' : '../src/cli.ts');
process.exitCode = await main(process.argv.slice(2));
