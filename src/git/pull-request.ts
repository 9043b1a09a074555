/**
 * Where a commit came from on GitHub, read from its message alone: squash merges end their
 * subject with "(#1234)", merge commits say "Merge pull request #1234 from owner/branch".
 */
const patterns: readonly RegExp[] = [/^Merge pull request #(\d+)\b/, /\(#(\d+)\)\s*$/];

/** The pull request number a commit subject names, or undefined when it names none. */
export function parsePullRequestNumber(subject: string): number | undefined {
  for (const pattern of patterns) {
    const match = pattern.exec(subject.trim());
    if (match) return Number(match[1]);
  }
  return undefined;
}
