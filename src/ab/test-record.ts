import type { StoredAbTest } from '../history/ab-queries.js';
import type { MetricDirection } from '../direction.js';
import type { AbSection } from '../config/ab-section.js';
import type { AbEnvironment } from './environment-file.js';
import type { AbGroup, Slot } from './schedule.js';

/** What an A/B records about itself, so that `ab report` can analyse it again without rerunning. */
export interface AbTestConfig {
  ab: AbSection;
  environments: AbEnvironment[];
  groups: AbGroup[];
  /** Keyed by testKey(suite, workload, metric). */
  directions: Record<string, MetricDirection>;
  clusterShapes: string[];
}

/** An A/B test as the history stores it (src/history/ab-queries.ts), with the A/B's own types. */
export type AbTestRecord = StoredAbTest<AbTestConfig, Slot[], AbSection['order']>;
