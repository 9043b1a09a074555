-- Each repeat's samples also as its drill-down's timelines (src/history/sample-timelines.ts: at
-- most 300 points a process, processes in the drill-down's order), cut once when the repeat is
-- recorded and kept as the JSON the site's drill-down files hold. The site built a night's 5,000
-- drill-downs by parsing and cutting 131 MB of samples JSON on every build; it now copies the
-- timelines' text. One row a repeat, in a table of its own: reading them walks no samples'
-- overflow pages. `history prune` deletes them with the samples. Repeats recorded before this
-- migration have none: the site cuts their samples as it did.

CREATE TABLE repeat_timelines (
  run_id TEXT NOT NULL,
  workload TEXT NOT NULL,
  repeat INTEGER NOT NULL,
  processes TEXT NOT NULL,                   -- JSON array of ProcessTimeline: process, host, t, rssMiB, cpuCores
  PRIMARY KEY (run_id, workload, repeat),
  FOREIGN KEY (run_id, workload, repeat) REFERENCES repeats (run_id, workload, repeat) ON DELETE CASCADE
);
