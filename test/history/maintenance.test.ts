import { statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { mergeDatabase } from '../../src/history/merge-queries.js';
import { openDatabase } from '../../src/history/database.js';
import { archiveCopy, compact, pruneSamples } from '../../src/history/maintenance-queries.js';
import { scratchDir, writeNight } from '../history-sync/helpers.js';


function history(): { dir: string; file: string } {
  const dir = scratchDir();
  const file = path.join(dir, 'history.sqlite');
  const db = openDatabase(file);
  try {
    for (const night of ['2026-11-28', '2026-11-29', '2026-11-30']) {
      writeNight(path.join(dir, `${night}.sqlite`), night);
      mergeDatabase(db, path.join(dir, `${night}.sqlite`));
    }
  } finally {
    db.close();
  }
  return { dir, file };
}

const count = (file: string, sql: string) => {
  const db = openDatabase(file, { readonly: true });
  try {
    return (db.prepare(sql).get() as { n: number }).n;
  } finally {
    db.close();
  }
};

describe('pruneSamples', () => {
  it('deletes the samples of nights before the date, and their drill-down timelines, and keeps every result', () => {
    const { file } = history();
    const db = openDatabase(file);
    try {
      expect(pruneSamples(db, '2026-11-30', { dryRun: true })).toEqual({ before: '2026-11-30', runs: 2, samples: 6, dryRun: true });
      expect(pruneSamples(db, '2026-11-30')).toEqual({ before: '2026-11-30', runs: 2, samples: 6, dryRun: false });
      compact(db);
    } finally {
      db.close();
    }
    expect(count(file, 'SELECT count(*) AS n FROM samples')).toBe(3);
    expect(count(file, "SELECT count(*) AS n FROM samples s JOIN runs r ON r.id = s.run_id WHERE r.night = '2026-11-30'")).toBe(3);
    expect(count(file, "SELECT count(*) AS n FROM repeat_timelines l JOIN runs r ON r.id = l.run_id WHERE r.night < '2026-11-30'")).toBe(0);
    expect(count(file, 'SELECT count(*) AS n FROM repeat_timelines')).toBeGreaterThan(0);
    expect(count(file, 'SELECT count(*) AS n FROM results')).toBe(18);
  });

  it('gives the space of pruned samples back when compacting', () => {
    const { file } = history();
    const db = openDatabase(file);
    try {
      // Samples of 10,000 points each, as long repeats have.
      db.prepare("UPDATE samples SET t = '[' || replace(hex(zeroblob(10000)), '00', '0,') || '0]'").run();
      compact(db);
      const before = statSync(file).size;
      pruneSamples(db, '2026-11-30');
      compact(db);
      expect(statSync(file).size).toBeLessThan(before - 6 * 15_000);
    } finally {
      db.close();
    }
  });

  it('archives a full copy before pruning', () => {
    const { dir, file } = history();
    const db = openDatabase(file);
    try {
      archiveCopy(db, path.join(dir, 'archive.sqlite'));
      pruneSamples(db, '2026-12-01');
    } finally {
      db.close();
    }
    expect(count(file, 'SELECT count(*) AS n FROM samples')).toBe(0);
    expect(count(path.join(dir, 'archive.sqlite'), 'SELECT count(*) AS n FROM samples')).toBe(9);
  });
});
