import { NightbenchError } from '../../errors.js';

/**
 * Octokit's errors become one-line GitHub errors at the adapter edge, saying what to check:
 * the repository name, the token, or the server.
 */
export function gitHubError(action: string, repository: string, error: unknown): NightbenchError {
  if (error instanceof NightbenchError) return error;
  // Octokit reports a request that got no answer (refused, reset, DNS) as status 500 without a response.
  const answered = (error as { response?: unknown }).response !== undefined;
  const status = answered ? (error as { status?: unknown }).status : undefined;
  const message = error instanceof Error ? error.message.split('\n', 1)[0] : String(error);
  const hint =
    status === 404 ? `repository ${repository} not found (404): check github.repository and that the token can see it`
    : status === 401 ? `the token was refused (401): check the token in the variable named by github.tokenEnv`
    : status === 403 || status === 429 ? `refused or rate-limited (${String(status)}) after retrying: ${message}`
    : typeof status === 'number' ? `GitHub answered ${status} after retrying: ${message}`
    : `no answer from GitHub: ${message}`;
  return new NightbenchError('github', `${action} in ${repository}: ${hint}`, { cause: error });
}

/** Whether an error is a GitHub failure that files can stand in for. */
export function isGitHubFailure(error: unknown): error is NightbenchError {
  return error instanceof NightbenchError && error.kind === 'github';
}
