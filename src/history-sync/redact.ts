/**
 * Removes credentials from URLs in a text (https://user:token@host/...), so that a git error
 * quoting the remote never puts a token in a log or a job summary.
 */
export function redactCredentials(text: string): string {
  return text.replace(/(\b[a-z][a-z0-9+.-]*:\/\/)[^/@\s]+@/gi, '$1***@');
}
