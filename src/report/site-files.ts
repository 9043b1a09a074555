/**
 * How the build puts one file of the site on disk, for the build's own thread and for the worker
 * that writes drill-downs and workload pages' markup beside it (`off-thread.ts`).
 *
 * @module
 */
import { closeSync, constants, ftruncateSync, mkdirSync, openSync, renameSync, writeSync } from 'node:fs';
import path from 'node:path';

/** A file written, relative to the site's folder, and its size. */
export interface WrittenFile {
  path: string;
  bytes: number;
}

/**
 * Writes `content` (text as UTF-8) to `relative` under `root` and returns its size in bytes, making its folder first unless `madeDirs` says it was
 * made (20,000 series write some 15,000 files into a few thousand folders: each made once).
 * `whole`: the file is written beside its place and renamed into it, so that it is there complete
 * or not at all. For files a later build keeps instead of writing again (a finished run's
 * drill-downs): a build killed while writing one, or a worker thread cut off when the build's
 * thread failed, would otherwise leave a cut file that every later build kept.
 */
export function writeSiteFile(root: string, relative: string, content: Uint8Array | string, madeDirs: Set<string>, whole = false): number {
  const file = path.join(root, relative);
  const dir = path.dirname(file);
  if (!madeDirs.has(dir)) {
    mkdirSync(dir, { recursive: true });
    madeDirs.add(dir);
  }
  if (!whole) return writeOver(file, content);
  // A name no build owns: one left by a killed build is removed with the other strays.
  const writing = `${file}.writing`;
  const size = writeOver(writing, content);
  renameSync(writing, file);
  return size;
}

/**
 * Writes `content` over the file from its start and then cuts it to their length (a new file is
 * made). A rebuild rewrites most of the site's files with content of about the same size; emptying
 * each first, as `writeFileSync` does, frees its blocks, and ext4 then writes the file out at once
 * on close (its guard for files replaced by truncation) and, mounted with `discard`, discards the
 * freed blocks. 5,000 files of 8 KB rewritten in place took 0.2-0.9 s (0.2-0.3 s CPU) where
 * emptied first they took 0.4-15 s (0.3-1.4 s CPU) on this project's machines (bench/README.md).
 */
function writeOver(file: string, content: Uint8Array | string): number {
  const fd = openSync(file, constants.O_RDWR | constants.O_CREAT);
  try {
    // Text is written as it is, encoded by the write: a buffer of its bytes for each of the 10,000
    // pages and data files of an increment at 5,000 workloads (150 MB) was made only to be written
    // and collected. The rest of a short write is written from its bytes.
    const length = typeof content === 'string' ? Buffer.byteLength(content) : content.length;
    let at = typeof content === 'string' ? writeSync(fd, content, 0, 'utf8') : 0;
    if (at < length) {
      const bytes = typeof content === 'string' ? Buffer.from(content) : content;
      while (at < length) at += writeSync(fd, bytes, at, length - at, at);
    }
    ftruncateSync(fd, length);
    return length;
  } finally {
    closeSync(fd);
  }
}
