/**
 * Whether a path lies on a network or user-space filesystem, where SQLite's locking (and its WAL,
 * which needs shared memory between every process that opens the file) does not hold: two writers
 * could both think they hold the lock. Told by the filesystem's magic number (statfs(2) f_type).
 *
 * @module
 */
import { existsSync, statfsSync } from 'node:fs';
import path from 'node:path';

/** statfs(2) magic numbers of filesystems SQLite must not share a database on. */
const networkFilesystems = new Map<number, string>([
  [0x6969, 'NFS'],
  [0x517b, 'SMB'],
  [0xff534d42, 'CIFS'],
  [0xfe534d42, 'SMB2'],
  [0x65735546, 'FUSE (sshfs, s3fs, a cloud drive)'],
  [0x00c36400, 'Ceph'],
  [0x01021997, '9p (a virtual machine share)'],
  [0x5346414f, 'AFS'],
  [0x0bd00bd0, 'Lustre'],
  [0x47504653, 'GPFS'],
  [0x01161970, 'GFS2'],
]);

export type StatFs = (target: string) => { type: number };

/** The kind of network filesystem holding `target` (or its nearest existing parent), if it is one. */
export function networkFilesystemOf(target: string, statfs: StatFs = statfsSync): string | undefined {
  let dir = path.resolve(target);
  while (!existsSync(dir) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return networkFilesystems.get(statfs(dir).type);
}
