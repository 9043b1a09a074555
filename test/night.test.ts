import { describe, expect, it } from 'vitest';
import { dayNumber, daysBetween, isCalendarNight, nightsBefore, shiftNight } from '../src/night.js';

describe('nights', () => {
  it('are real calendar dates only', () => {
    expect(isCalendarNight('2026-12-04')).toBe(true);
    expect(isCalendarNight('2024-02-29')).toBe(true);
    expect(isCalendarNight('2026-02-30')).toBe(false);
    expect(isCalendarNight('2026-12-4')).toBe(false);
    expect(isCalendarNight('2026-12-04T02:17:00Z')).toBe(false);
  });

  it('shift across months, leap days and back', () => {
    expect(shiftNight('2024-02-28', 1)).toBe('2024-02-29');
    expect(shiftNight('2026-12-31', 1)).toBe('2027-01-01');
    expect(nightsBefore('2026-03-01', 1)).toBe('2026-02-28');
    expect(shiftNight('2026-12-04', -7)).toBe(nightsBefore('2026-12-04', 7));
  });

  it('count whole days, signed', () => {
    expect(daysBetween('2026-11-27', '2026-12-04')).toBe(7);
    expect(daysBetween('2026-12-04', '2026-11-27')).toBe(-7);
    expect(dayNumber('1970-01-02')).toBe(1);
  });
});
