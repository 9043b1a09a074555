/**
 * Who nightbench is on GitHub: the login its own issues and comments carry. Its hidden markers
 * (replies, reported nights, recoveries, noted improvements) are trusted only in comments by this
 * login, so a marker anyone else types is text. GitHub answers `GET /user` for a person's or a
 * bot user's token; a workflow's GITHUB_TOKEN and an app's installation token are refused there
 * (403), and then the configured `github.botLogin` is the answer.
 *
 * @module
 */
import { actionsBotLogin } from '../../config/github-section.js';
import { gitHubError } from './errors.js';

/** The part of a GitHub client this asks (structural, so client.ts can set the fallback without a cycle). */
interface WhoAmI {
  rest: { users: { getAuthenticated(): Promise<{ data: { login: string } }> } };
}

const fallbacks = new WeakMap<WhoAmI, string>();
const answers = new WeakMap<WhoAmI, Promise<string>>();

/** What `client`'s token is known as when GitHub will not say (set once, where the client is made). */
export function setFallbackLogin(client: WhoAmI, login: string): void {
  fallbacks.set(client, login);
}

/** The token's own login, asked once per client. */
export function nightbenchLogin(client: WhoAmI): Promise<string> {
  let answer = answers.get(client);
  if (!answer) {
    answer = askLogin(client);
    answers.set(client, answer);
    // A failed question is asked again next time rather than remembered.
    answer.catch(() => answers.delete(client));
  }
  return answer;
}

async function askLogin(client: WhoAmI): Promise<string> {
  try {
    return (await client.rest.users.getAuthenticated()).data.login;
  } catch (error) {
    if ((error as { status?: unknown }).status === 403) return fallbacks.get(client) ?? actionsBotLogin;
    throw gitHubError('asking GitHub who the token is (GET /user)', 'the API', error);
  }
}

/** Only what nightbench itself wrote: the texts of comments by its own login. */
export function ownTexts(comments: readonly { body?: string | null; user?: { login: string } | null }[], login: string): (string | null | undefined)[] {
  return comments.filter((c) => c.user?.login === login).map((c) => c.body);
}
