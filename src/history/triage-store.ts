/**
 * Triage commands given on issues, the steps carried out for each, and the verdicts they leave
 * (triage-queries.ts).
 *
 * @module
 */
import type { StoreHandle } from './store-handle.js';
import { falseAlarmEpisodes, recordedFixes, recordTriageEvent, recordTriageStep, triageEvents, triageSteps, type FalseAlarm, type TriageEvent, type TriageStep } from './triage-queries.js';

export class TriageStore {
  constructor(private readonly handle: StoreHandle) {}

  recordTriageEvent(event: TriageEvent): boolean {
    return recordTriageEvent(this.handle.db, event);
  }

  triageEvents(filter: { issueNumber?: number } = {}): TriageEvent[] {
    return triageEvents(this.handle.db, filter);
  }

  recordTriageStep(eventKey: string, step: TriageStep, at: string): void {
    recordTriageStep(this.handle.db, eventKey, step, at);
  }

  triageSteps(eventKey: string): Set<TriageStep> {
    return triageSteps(this.handle.db, eventKey);
  }

  recordedFixes(): Map<number, string> {
    return recordedFixes(this.handle.db);
  }

  falseAlarmEpisodes(): FalseAlarm[] {
    return falseAlarmEpisodes(this.handle.db);
  }
}
