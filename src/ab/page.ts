import type { AbSitePage } from './site-page-schema.js';
import { formatChangeRange, formatP } from '../format/index.js';
import { costLine, failureLine } from './render.js';
import { verdictLabel } from './verdict.js';
import type { AbReport } from './report.js';
import type { AbEnvironment } from './environment-file.js';

/**
 * The site's A/B pages (src/report/ab.ts reads them from `<reports.dir>/ab/`): one per candidate
 * against the baseline, each test's A/A band (as changes, like the page's intervals) and adjusted p
 * beside its verdict. Pure.
 */
export function sitePages(report: AbReport, environments: readonly AbEnvironment[]): AbSitePage[] {
  const { header, analysis } = report;
  const describe = (name: string) => ({ name, description: environments.find((e) => e.name === name)?.description });
  const baseline = header.groups.find((g) => g.role === 'baseline');
  if (!baseline) return [];
  return header.groups
    .filter((g) => g.role === 'candidate')
    .map((group) => {
      const tests = analysis.tests.filter((t) => t.group === group.label);
      const changed = tests.filter((t) => t.verdict !== 'no clear change').length;
      const aa = analysis.nullTests.length > 0 ? ` The baseline ran twice (A and A'); ${analysis.nullTests.filter((t) => t.verdict !== 'no clear change').length} of ${analysis.nullTests.length} A/A tests differ.` : '';
      return {
        id: `${header.id}-${group.label}`,
        title: `A/B ${header.id.slice(0, 8)}: ${group.environment} vs ${baseline.environment}`,
        createdAt: header.createdAt,
        confidence: header.confidence,
        baseline: describe(baseline.environment),
        candidate: describe(group.environment),
        // The baseline's failures concern every candidate's page; another candidate's, only its own.
        failures: analysis.failures.filter((f) => f.group === group.label || header.groups.some((g) => g.label === f.group && g.role !== 'candidate')).map((f) => failureLine(f, header.groups)),
        summary: `${changed} of ${tests.length} tests changed; ${header.repeats} repeats a side, ${header.order} order (seed ${header.seed}) on ${header.clusterShapes.join(' / ')}; status ${header.status}.${header.cost ? ` Cost: ${costLine(header)}.` : ''}${aa} A verdict needs an adjusted p <= ${header.fdr} and a ratio beyond the A/A band. ${analysis.notes.join(' ')}`.trim(),
        comparisons: tests.map((t) => ({
          workload: t.workload,
          metric: t.metric,
          unit: t.unit,
          baselineMedian: t.baseline.median,
          candidateMedian: t.candidate.median,
          // A test without a ratio (a baseline value <= 0: nothing spilled) is listed with its medians and verdict.
          ...(t.ratio ? { ratio: t.ratio.ratio, low: t.ratio.low, high: t.ratio.high } : {}),
          p: t.pAdjusted,
          baselineMean: t.baseline.mean,
          baselineStd: t.baseline.std,
          candidateMean: t.candidate.mean,
          candidateStd: t.candidate.std,
          bandLow: t.band?.low,
          bandHigh: t.band?.high,
          baselineValues: t.values.baseline,
          candidateValues: t.values.candidate,
          verdict: verdictLabel(t.verdict, t.unit),
          ...(t.band ? { verdictFigures: [`A/A band ${formatChangeRange(t.band.low, t.band.high)}`, `raw p ${formatP(t.p)}`] } : t.ratio ? {} : { verdictFigures: ['no ratio, no A/A band', `raw p ${formatP(t.p)}`] }),
        })),
      };
    });
}
