#!/usr/bin/env node
// Compiles src/ to dist/ so an installed nightbench runs plain JavaScript, without a TypeScript
// loader at start-up. Each file is transpiled on its own (no bundle): dist/ keeps src/'s layout,
// so paths a module takes relative to itself (db/migrations, workloads/, package.json) still hold.
// The site's page scripts stay TypeScript: `nightbench report` bundles them for the browser.
//
// The build never leaves dist/ half written under a CLI that is running from it: it compiles into
// a sibling folder, keeps the old dist/ when every file came out the same (only cli.js's time is
// moved on, which bin/nightbench.js compares with src/), and otherwise swaps the two folders by
// renaming. Before, it deleted dist/ and wrote it again file by file, and a `history save` started
// from the same checkout while `npm test` rebuilt it crashed on a module not yet written: a
// year-long soak beside a test run lost that night's save (bench/soak.ts, 2026-12-07).
import { build } from 'esbuild';
import { cpSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const src = path.join(root, 'src');
const dist = path.join(root, 'dist');
const next = path.join(root, `dist.build-${process.pid}`);
const siteSources = path.join(src, 'report', 'site');

const entryPoints = readdirSync(src, { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
  .map((entry) => path.join(entry.parentPath, entry.name))
  .filter((file) => !file.startsWith(siteSources + path.sep));

/** Every file under `dir`, by its path relative to `dir`. */
function filesUnder(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
}

function sameTree(a, b) {
  if (!existsSync(a) || !existsSync(b)) return false;
  const files = filesUnder(a);
  const others = filesUnder(b);
  return files.length === others.length && files.every((file, i) => file === others[i] && readFileSync(path.join(a, file)).equals(readFileSync(path.join(b, file))));
}

try {
  await build({ entryPoints, outdir: next, outbase: src, platform: 'node', format: 'esm', target: 'node20', logLevel: 'warning' });
  cpSync(siteSources, path.join(next, 'report', 'site'), { recursive: true });
  if (sameTree(next, dist)) {
    const now = new Date();
    utimesSync(path.join(dist, 'cli.js'), now, now);
  } else {
    const old = path.join(root, `dist.old-${process.pid}`);
    if (existsSync(dist)) renameSync(dist, old);
    renameSync(next, dist);
    rmSync(old, { recursive: true, force: true });
  }
} finally {
  rmSync(next, { recursive: true, force: true });
}
