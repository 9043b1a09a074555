/**
 * Who a range concerns, as GitHub knows them: logins of commit authors and of the authors of
 * the code around the change, and pull requests of commits whose subject names none.
 *
 * @module
 */

/** What GitHub said about a range's commits; empty without GitHub. */
export interface GitHubPeople {
  /** commit sha -> login of its author */
  logins: Record<string, string>;
  /** commit sha -> pull request number, for commits whose subject names none */
  pulls: Record<string, number>;
}

export const noPeople: GitHubPeople = { logins: {}, pulls: {} };
