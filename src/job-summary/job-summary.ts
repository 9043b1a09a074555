import { NightbenchError, firstLine } from '../errors.js';
import type { Annotation } from './night-summary.js';

export interface JobSummary {
  markdown: string;
  annotations: Annotation[];
  outputs: Record<string, string>;
}

/**
 * Hands a summary to GitHub Actions: the Markdown to the job summary, annotations to the run's
 * page, outputs to later steps. Outside a workflow (no GITHUB_STEP_SUMMARY) it does nothing and
 * says so, so a local run never prints workflow commands into a terminal.
 */
export async function writeJobSummary(summary: JobSummary): Promise<boolean> {
  // @actions/core reads the same variables from process.env.
  if (!process.env.GITHUB_STEP_SUMMARY) return false;
  // Loaded here, not at the top: only a workflow step needs it, and it costs every CLI start.
  const core = await import('@actions/core');
  try {
    await core.summary.addRaw(summary.markdown, true).write();
    for (const a of summary.annotations) core[a.level](a.message, { title: a.title });
    if (process.env.GITHUB_OUTPUT) for (const [name, value] of Object.entries(summary.outputs)) core.setOutput(name, value);
  } catch (error) {
    // The files are the environment's, not nightbench's: one that cannot be written is a setup to fix, not a bug.
    throw new NightbenchError('usage', `cannot hand the job summary to GitHub Actions (GITHUB_STEP_SUMMARY, GITHUB_OUTPUT): ${firstLine(error)}`, { cause: error });
  }
  return true;
}
