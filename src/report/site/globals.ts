/**
 * The globals the data files set and the page scripts read, and the handle tests use to look
 * at the charts. Types only.
 *
 * @module
 */
import type uPlot from 'uplot';
import type { CompareData, CompareSeries, StoredCompareNight } from '../compare/selection.js';
import type { IndexDataPart } from '../index-data.js';
import type { CommitTable, DrilldownPage, WorkloadPage } from '../types.js';

/** What a page exposes once its charts are drawn: tests and the browser benchmark wait for it. */
export interface PageHandle {
  charts: { name: string; plot: uPlot }[];
}

declare global {
  interface Window {
    /** The index's data files, by part number. */
    NIGHTBENCH_INDEX?: Record<string, IndexDataPart>;
    NIGHTBENCH_WORKLOAD?: WorkloadPage;
    NIGHTBENCH_COMMITS?: CommitTable;
    /** Runs' drill-downs by run id, then workload: a part's data file adds the drill-downs of one run's workloads that fall in it. */
    NIGHTBENCH_DRILLDOWN?: Record<string, Record<string, DrilldownPage>>;
    NIGHTBENCH_COMPARE?: CompareData;
    /** The compare page's series, by part number (`NIGHTBENCH_COMPARE.series` is empty in its file). */
    NIGHTBENCH_COMPARE_SERIES?: Record<string, CompareSeries[]>;
    NIGHTBENCH_COMPARE_NIGHTS?: Record<string, StoredCompareNight>;
    nightbench?: PageHandle;
  }
}
