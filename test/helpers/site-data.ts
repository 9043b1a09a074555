/**
 * Reads a site's data file (`dataScript` of src/report/render.ts: `window.X = JSON.parse("...")`)
 * back into its data, for tests that check what a page is given without a browser.
 */
export function readDataScript(text: string): unknown {
  const match = /= JSON\.parse\((".*")\);\n$/s.exec(text);
  if (!match) throw new Error(`not a data script: ${text.slice(0, 80)}`);
  return JSON.parse(JSON.parse(match[1]!) as string);
}
