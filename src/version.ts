import { readFileSync } from 'node:fs';

const packageJson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string; repository: { url: string } };

/** Recorded with every run, so a change of harness can explain a change of results. */
export const harnessVersion: string = packageJson.version;

/** owner/name of the GitHub repository nightbench is published from (its action and workflows). */
export const harnessRepository: string = packageJson.repository.url.replace(/^git\+https:\/\/github\.com\//, '').replace(/\.git$/, '');
