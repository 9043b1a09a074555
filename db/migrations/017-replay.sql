-- Replays (issue 30). Episodes that `nightbench replay` found by judging a history's nights again,
-- night by night as the nightlies would have: nobody saw them live, and no issue went to GitHub.
-- Like a backfill's, they are episodes like any other (the pages show them), only marked.

ALTER TABLE regressions ADD COLUMN found_in_replay INTEGER NOT NULL DEFAULT 0;
