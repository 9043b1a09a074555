#!/usr/bin/env node
// Compiles src/ to dist/ so an installed nightbench runs plain JavaScript, without a TypeScript
// loader at start-up. Each file is transpiled on its own (no bundle): dist/ keeps src/'s layout,
// so paths a module takes relative to itself (db/migrations, workloads/, package.json) still hold.
// The site's page scripts stay TypeScript: `nightbench report` bundles them for the browser.
import { build } from 'esbuild';
import { cpSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const src = path.join(root, 'src');
const dist = path.join(root, 'dist');
const siteSources = path.join(src, 'report', 'site');

const entryPoints = readdirSync(src, { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
  .map((entry) => path.join(entry.parentPath, entry.name))
  .filter((file) => !file.startsWith(siteSources + path.sep));

rmSync(dist, { recursive: true, force: true });
await build({ entryPoints, outdir: dist, outbase: src, platform: 'node', format: 'esm', target: 'node20', logLevel: 'warning' });
cpSync(siteSources, path.join(dist, 'report', 'site'), { recursive: true });
