/**
 * The `issue_comment` event GitHub Actions hands a workflow (the file GITHUB_EVENT_PATH names),
 * validated once: the fields triage reads, nothing more.
 *
 * @module
 */
import { z } from 'zod';

export const issueCommentEventSchema = z.object({
  action: z.string(),
  issue: z.object({
    number: z.number().int().positive(),
    /** Present when the comment is on a pull request: triage ignores those. */
    pull_request: z.unknown().optional(),
  }),
  comment: z.object({
    id: z.number().int().positive(),
    body: z.string().nullable().transform((body) => body ?? ''),
    user: z.object({ login: z.string().min(1), type: z.string().optional() }),
    created_at: z.string().min(1),
  }),
  repository: z.object({ full_name: z.string().regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/), default_branch: z.string().min(1) }),
});
