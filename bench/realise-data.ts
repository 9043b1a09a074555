/**
 * REALISE's labelled Firefox series (/work/shared/data/realise, one JSON file a series; its
 * README.md has every field), as the detection benches read them: bench/detect-quality.ts scores
 * detection's F1 on them, bench/sensitivity-calibration.ts plants promised steps into them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export interface RealiseSeries {
  signature: string;
  /** The Perfherder test's name. */
  name: string;
  values: number[];
  /** Row indices of the labelled change points (TP and FN). */
  truth: number[];
  /** Row indices of every alert Mozilla's own detector raised. */
  mozillaAlerts: number[];
  lowerIsBetter: boolean;
}

/** Every series of the folder, in the order of their file names. */
export function readRealiseSeries(dir: string): RealiseSeries[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as RealiseSeries);
}
