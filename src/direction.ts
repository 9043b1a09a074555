/**
 * The one vocabulary of direction, at the bottom of the house so that every floor can name it.
 *
 * - `Direction`: which way of a metric is better. Detection judges every series by one.
 * - `MetricDirection`: what a workload's listing or an imported history declares of a metric;
 *   `none` means only "it declares no better way". Each reader says what it does with that:
 *   detection falls back to its policy's direction (`lower` by default), A/B calls a significant
 *   change of such a metric `changed` (see `AbDirection` in src/ab/verdict.ts).
 */
export type Direction = 'lower' | 'higher';

export const metricDirections = ['lower', 'higher', 'none'] as const satisfies readonly (Direction | 'none')[];

export type MetricDirection = (typeof metricDirections)[number];
