/**
 * What `nightbench init` will do to each file, decided before anything is written: a file that is
 * missing is created, one that already holds what init would write is left alone (so running init
 * twice changes nothing), and one that differs (the user changed it, or an older nightbench wrote
 * it) is kept unless `force` says to overwrite it.
 */
export interface WantedFile {
  path: string;
  content: string;
  /** Shown in the plan: what the file is for. */
  purpose: string;
}

export type FileAction = 'create' | 'unchanged' | 'keep-changed' | 'overwrite';

export interface PlannedFile extends WantedFile {
  action: FileAction;
}

/** `existing` gives each path's current content, or undefined when there is no such file. */
export function planFiles(wanted: WantedFile[], existing: (path: string) => string | undefined, force: boolean): PlannedFile[] {
  return wanted.map((file) => {
    const current = existing(file.path);
    if (current === undefined) return { ...file, action: 'create' };
    if (current === file.content) return { ...file, action: 'unchanged' };
    return { ...file, action: force ? 'overwrite' : 'keep-changed' };
  });
}

/** The files the plan writes. */
export function filesToWrite(plan: PlannedFile[]): PlannedFile[] {
  return plan.filter((file) => file.action === 'create' || file.action === 'overwrite');
}
