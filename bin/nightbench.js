#!/usr/bin/env node
// The CLI runs the TypeScript sources directly through tsx's loader, so there is no build
// step to forget and a checkout is runnable right after `npm ci`.
import { register } from 'tsx/esm/api';

register();
// `nightbench ... | head` closes stdout early: that is the reader's choice, not an error.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});
const { main } = await import('../src/cli.ts');
process.exitCode = await main(process.argv.slice(2));
