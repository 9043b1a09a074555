/**
 * The workflows `nightbench init` writes are nightbench's own (the package ships its
 * .github/workflows), rewritten for a repository that does not contain nightbench: the local
 * action becomes the published one at the installed version, and `node bin/nightbench.js` the
 * `nightbench` the action puts on PATH. One set of workflows, tested here, not a second copy.
 */
export interface NightbenchPins {
  /** owner/name of the repository nightbench is published from. */
  repository: string;
  /** The release every workflow runs, e.g. v0.1.0. */
  ref: string;
}

export function actionReference(pins: NightbenchPins): string {
  return `${pins.repository}/.github/actions/nightbench@${pins.ref}`;
}

export function pipelineReference(pins: NightbenchPins): string {
  return `${pins.repository}/.github/workflows/nightly-pipeline.yml@${pins.ref}`;
}

export function adoptWorkflow(text: string, file: string, pins: NightbenchPins): string {
  const header = `# Written by \`nightbench init\` from nightbench ${pins.ref}'s own ${file}; \`nightbench init --force\` rewrites it.\n`;
  return (
    header +
    text
      // ab-comment.yml runs the action from a checkout of the default branch in a subfolder, since
      // its event checks nothing out: in an adopting project that branch holds no nightbench.
      .replace(/uses: \.\/(?:[\w.-]+\/)*\.github\/actions\/nightbench\b/g, `uses: ${actionReference(pins)}`)
      .replaceAll('node bin/nightbench.js', 'nightbench')
  );
}
