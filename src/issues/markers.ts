/**
 * The hidden markers nightbench leaves in issue bodies and comments, and reads back: the
 * fingerprint that finds an issue again, the nights already reported (so a rerun adds nothing),
 * and nightbench's own closing (so a maintainer's closing is told apart). Pure.
 *
 * @module
 */

const fingerprintMarker = /<!-- nightbench:fingerprint=([0-9a-f]+) -->/;
const nightMarker = /<!-- nightbench:night=(\d{4}-\d{2}-\d{2}) -->/g;
const recoveredMarker = '<!-- nightbench:recovered -->';
const improvementMarker = /<!-- nightbench:improvement=([0-9a-f]+) -->/g;

export const markers = {
  fingerprint: (fingerprint: string) => `<!-- nightbench:fingerprint=${fingerprint} -->`,
  night: (night: string) => `<!-- nightbench:night=${night} -->`,
  recovered: recoveredMarker,
  /** On a comment that notes an improvement episode (by its fingerprint) on a regression's issue. */
  improvement: (fingerprint: string) => `<!-- nightbench:improvement=${fingerprint} -->`,
};

/** The fingerprint an issue body carries, if nightbench wrote it. */
export function readFingerprint(body: string | null | undefined): string | undefined {
  return fingerprintMarker.exec(body ?? '')?.[1];
}

/** Every night the texts (body and comments) say they reported. */
export function readNights(texts: readonly (string | null | undefined)[]): string[] {
  return [...new Set(texts.flatMap((text) => [...(text ?? '').matchAll(nightMarker)].map((m) => m[1]!)))].sort();
}

/** The improvement episodes the texts already noted. */
export function readImprovements(texts: readonly (string | null | undefined)[]): string[] {
  return [...new Set(texts.flatMap((text) => [...(text ?? '').matchAll(improvementMarker)].map((m) => m[1]!)))].sort();
}

/** Whether nightbench closed the issue itself (after a recovery). */
export function closedByNightbench(texts: readonly (string | null | undefined)[]): boolean {
  return texts.some((text) => (text ?? '').includes(recoveredMarker));
}
