-- The issue an episode was grouped into, by the issue's fingerprint, remembered from the night it
-- joined one: episodes of one change whose suspect ranges overlap make one issue, and a series
-- that recovers (or ages out of the nights an issue looks at) must never move the others to a new
-- one. NULL for episodes grouped before this column: their issue is the one of their own range.
ALTER TABLE regressions ADD COLUMN issue_fingerprint TEXT;
