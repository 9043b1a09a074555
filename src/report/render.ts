/**
 * The HTML of the site: one escaping function, one layout, small shared pieces. Every string from
 * the outside (names, commit subjects, authors, error tails) goes through `escapeHtml` exactly
 * where it meets markup; the page modules never build markup from unescaped text. Pure.
 *
 * @module
 */
import { nameParts } from './format.js';
import { relativeHref, sitePaths } from './paths.js';
import { statusLabels, type SeriesStatus } from './types.js';

const htmlEscapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text safe inside element content and inside quoted attribute values. */
export function escapeHtml(text: string | number): string {
  return String(text).replace(/[&<>"']/g, (c) => htmlEscapes[c]!);
}

/** A markup fragment that has already been escaped or built from escaped parts. */
export interface Html {
  readonly html: string;
}

/** Builds markup from a template: interpolated strings are escaped, `Html` fragments and arrays of them are not. */
export function html(strings: TemplateStringsArray, ...values: (string | number | Html | Html[] | undefined | null | false)[]): Html {
  let out = strings[0]!;
  values.forEach((value, i) => {
    out += fragment(value) + strings[i + 1]!;
  });
  return { html: out };
}

function fragment(value: string | number | Html | Html[] | undefined | null | false): string {
  if (value === undefined || value === null || value === false) return '';
  if (Array.isArray(value)) return value.map((v) => v.html).join('');
  if (typeof value === 'object') return value.html;
  return escapeHtml(value);
}

/** A name that may break where `nameParts` cuts it (`managed_memory_peak`). */
export function breakableName(name: string): Html {
  return { html: nameParts(name).map(escapeHtml).join('<wbr>') };
}

export interface LayoutOptions {
  /** This page's path relative to the site root, so that every link can be made relative. */
  path: string;
  title: string;
  /** Which nav entry is current. */
  section: 'index' | 'compare' | 'ab' | 'quality' | 'workload' | 'run';
  generatedAt: string;
  body: Html;
  /** Site-root-relative paths of scripts, loaded in order at the end of the body. */
  scripts?: string[];
}

/** Every page: the head, the navigation (Index, A/B, Detection quality), the body and its scripts. */
export function layout(options: LayoutOptions): string {
  const href = (to: string) => relativeHref(options.path, to);
  const nav = (to: string, label: string, current: boolean) => html`<a href="${href(to)}"${current ? html` aria-current="page"` : ''}>${label}</a>`;
  const page = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:">
<title>${options.title} · nightbench</title>
<link rel="stylesheet" href="${href(sitePaths.asset('site.css'))}">
</head>
<body>
<header class="top">
  <a class="brand" href="${href(sitePaths.index)}">nightbench</a>
  <nav>${nav(sitePaths.index, 'Index', options.section === 'index' || options.section === 'workload' || options.section === 'run')}${nav(sitePaths.compare, 'Compare', options.section === 'compare')}${nav(sitePaths.abIndex, 'A/B', options.section === 'ab')}${nav(sitePaths.quality, 'Detection quality', options.section === 'quality')}</nav>
  <span class="generated">generated <time datetime="${options.generatedAt}">${options.generatedAt.replace('T', ' ').slice(0, 16)} UTC</time></span>
</header>
<main>
${options.body}
</main>
${(options.scripts ?? []).map((script) => html`<script src="${href(script)}"></script>
`)}</body>
</html>
`;
  return page.html;
}

/** A status as a coloured badge. */
export function statusBadge(status: SeriesStatus, note?: string): Html {
  return html`<span class="status status-${status}"${note ? html` title="${note}"` : ''}>${statusLabels[status]}</span>`;
}

/** A data file that adds one entry to a global record, for data a page loads piece by piece. */
export function dataEntryScript(global: string, key: string, data: unknown): string {
  return `${entryScriptHead(global, key)}${parsedJson(JSON.stringify(data))};\n`;
}

/**
 * `dataEntryScript` of a record whose values are already the UTF-8 bytes of JSON (`[name, json]`),
 * as bytes, the JSON written as code instead of as a string for `JSON.parse`: quoting a night's
 * drill-downs (76 MB of timelines at 5,000 workloads) as string literals took 0.5 s of the build,
 * and a page loads one such file, not seven (`parsedJson`). JSON is an expression of JavaScript;
 * the record is made by `Object.fromEntries`, because in an object literal a name `__proto__`
 * would set the prototype.
 */
export function jsonRecordEntryScript(global: string, key: string, entries: readonly (readonly [name: string, json: Uint8Array])[]): Buffer {
  const pieces: Uint8Array[] = [Buffer.from(`${entryScriptHead(global, key)}Object.fromEntries([`)];
  entries.forEach(([name, json], i) => pieces.push(Buffer.from(`${i === 0 ? '' : ','}[${JSON.stringify(name)},`), json, Buffer.from(']')));
  pieces.push(Buffer.from(']);\n'));
  return Buffer.concat(pieces);
}

/** The start of an entry script, up to the expression of the entry's data. */
function entryScriptHead(global: string, key: string): string {
  return `(window.${global} = window.${global} || {})[${JSON.stringify(key)}] = `;
}

/** A data file: a script that hands the page its data through a global (fetch() fails on file://). */
export function dataScript(global: string, data: unknown): string {
  return `window.${global} = ${parsedJson(JSON.stringify(data))};\n`;
}

/**
 * Data's JSON as a JavaScript expression: JSON.parse of the JSON in a string literal. A page parses
 * a file of numbers faster that way than the same object literal written as code (headless
 * Chromium from file://, alternated 8 times: a compare page night file of 360 KB in 18 ms
 * against 27; an index part of 1 MB, mostly strings, the same either way), and the compare page
 * loads seven nights on a change of selection. The string literal is JSON's own (a valid
 * JavaScript string); the file is never inlined into HTML, so "</script>" is harmless.
 */
function parsedJson(json: string): string {
  return `JSON.parse(${JSON.stringify(json)})`;
}
