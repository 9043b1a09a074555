import { describe, expect, it } from 'vitest';
import { fileTracker } from '../../src/issues/file-tracker.js';
import { markers } from '../../src/issues/markers.js';
import { tempDir } from '../helpers/temp-dir.js';


describe('fileTracker', () => {
  it('finds what it wrote as a fresh tracker reading the files finds it, after comments and a closing', async () => {
    const dir = tempDir('nb-files-');
    const tracker = fileTracker(dir);
    const opened = await tracker.open({ fingerprint: 'abc123', title: 'Regression', labels: ['performance'], body: `body ${markers.night('2026-01-01')}` });
    const [found] = await tracker.find(['abc123', 'missing']);
    await tracker.comment(found!, `still there ${markers.night('2026-01-02')} ${markers.improvement('def456')}`);
    expect(await tracker.find(['abc123'])).toEqual(await fileTracker(dir).find(['abc123']));
    await tracker.close(opened, `recovered ${markers.night('2026-01-05')} ${markers.recovered}`);
    const [again] = await tracker.find(['abc123']);
    expect(again).toEqual((await fileTracker(dir).find(['abc123']))[0]);
    expect(again).toMatchObject({ state: 'closed', closedByNightbench: true, reportedNights: ['2026-01-01', '2026-01-02', '2026-01-05'], notedImprovements: ['def456'] });
  });
});
