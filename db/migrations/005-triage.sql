-- Triage of regression issues (src/triage): the `/nightbench <command>` comments maintainers
-- acted through, one row per comment. Recorded facts, append-only, merged between databases
-- like runs, so a history saved while another writer moved it loses none. Verdicts and the
-- detection-quality figures are derived from these rows and the episodes (src/triage/quality.ts).

CREATE TABLE triage_events (
  key TEXT PRIMARY KEY,                      -- 'comment:<GitHub comment id>'; 'hand:<issue>:<time>' for a command given by flags
  issue_number INTEGER NOT NULL,
  episodes TEXT NOT NULL,                    -- JSON array of the episodes' fingerprints (regressions.fingerprint)
  command TEXT NOT NULL CHECK (command IN ('accept', 'false-alarm', 'bisect', 'rerun', 'fixed-by')),
  argument TEXT,                             -- fixed-by: the commit; the others: the rest of the line, kept as text
  author TEXT NOT NULL,                      -- the GitHub login, whose permission was checked through the API
  issue_opened_at TEXT NOT NULL,             -- the issue's created_at, for the time to first triage
  at TEXT NOT NULL                           -- when the comment was written
);
CREATE INDEX triage_events_by_issue ON triage_events (issue_number);
