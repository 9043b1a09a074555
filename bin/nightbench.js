#!/usr/bin/env node
// The CLI runs the TypeScript sources directly through tsx's loader, so there is no build
// step to forget and a checkout is runnable right after `npm ci`.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli.ts');
process.exitCode = await main(process.argv.slice(2));
