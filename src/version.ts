import { readFileSync } from 'node:fs';

/** Recorded with every run, so a change of harness can explain a change of results. */
export const harnessVersion: string = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
