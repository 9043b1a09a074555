/**
 * The site's static assets: the client scripts bundled with esbuild (uPlot included, so the
 * pages need no network and work from file://) and one stylesheet.
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const siteDir = (name: string) => fileURLToPath(new URL(`./site/${name}`, import.meta.url));

/** Page scripts by asset name. */
const entries: Record<string, string> = {
  'index.js': 'index-page.ts',
  'workload.js': 'workload-page.ts',
  'drilldown.js': 'drilldown-page.ts',
  'compare.js': 'compare-page.ts',
};

/** Asset name -> content, ready to write under assets/. */
export async function buildAssets(): Promise<Map<string, string>> {
  // Loaded here, not at the top: only `report` bundles, and esbuild costs every CLI start.
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: Object.fromEntries(Object.entries(entries).map(([asset, source]) => [asset.replace(/\.js$/, ''), siteDir(source)])),
    bundle: true,
    minify: true,
    format: 'iife',
    target: 'es2020',
    write: false,
    outdir: 'assets',
    legalComments: 'none',
    logLevel: 'silent',
  });
  const assets = new Map(result.outputFiles.map((file) => [file.path.split('/').at(-1)!, file.text]));
  const uplotCss = readFileSync(createRequire(import.meta.url).resolve('uplot/dist/uPlot.min.css'), 'utf8');
  assets.set('site.css', `${uplotCss}\n${readFileSync(siteDir('site.css'), 'utf8')}`);
  return assets;
}
