/** Sizes in configs are written the way people say them ("2GiB", "512 MiB") or as plain bytes. */
const multipliers: Record<string, number> = {
  b: 1,
  kb: 1e3,
  mb: 1e6,
  gb: 1e9,
  tb: 1e12,
  kib: 2 ** 10,
  mib: 2 ** 20,
  gib: 2 ** 30,
  tib: 2 ** 40,
};

const sizePattern = /^\s*(\d+(?:\.\d+)?)\s*([kmgt]i?b|b)\s*$/i;

/** Parses "2GiB" into bytes; returns undefined for anything else so the schema can say why. */
export function parseSize(text: string): number | undefined {
  const match = sizePattern.exec(text);
  if (!match) return undefined;
  const multiplier = multipliers[match[2]!.toLowerCase()];
  return multiplier === undefined ? undefined : Math.round(Number(match[1]) * multiplier);
}

/** The shortest exact binary spelling of a byte count, for cluster-shape keys and summaries. */
export function formatSize(bytes: number): string {
  for (const [unit, factor] of [['TiB', 2 ** 40], ['GiB', 2 ** 30], ['MiB', 2 ** 20], ['KiB', 2 ** 10]] as const) {
    if (bytes >= factor && bytes % factor === 0) return `${bytes / factor}${unit}`;
  }
  if (bytes >= 2 ** 20) return `${(bytes / 2 ** 20).toFixed(1)}MiB`;
  return `${bytes}B`;
}
