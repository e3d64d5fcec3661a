// Start-up failures of the data directory, named by their cause: a full disk, a missing
// permission, a read-only file system, a file where a directory should be, another node holding
// the store; and what to do with a damaged one. None is a bare stack trace.

import { TpkitError } from '../../errors.js';

type OpenFailure = NodeJS.ErrnoException & { cause?: { code?: string; message?: string } };

const messageOf = (err: OpenFailure | undefined) => `${err?.message ?? ''} ${err?.cause?.message ?? ''}`;
const codeOf = (err: OpenFailure | undefined) => err?.code ?? err?.cause?.code ?? '';

/** Whether LevelDB failed to open a store because another process holds its lock. */
export function lockHeld(cause: unknown): boolean {
  const err = cause as OpenFailure | undefined;
  return codeOf(err) === 'LEVEL_LOCKED' || (/lock/i.test(messageOf(err)) && /held|unavailable|temporarily/i.test(messageOf(err)));
}

/** A start-up failure of the file system, with its cause in words and what to do. */
export function dataDirError(dir: string, cause: unknown): TpkitError {
  const err = cause as OpenFailure | undefined;
  const message = messageOf(err);
  const code = codeOf(err);
  let why: string;
  if (lockHeld(cause)) why = 'another node process holds it; stop that node, or run this one on another folder (--data-dir DIR) or with nothing on disk (--memory)';
  else if (code === 'ENOSPC' || /no space left/i.test(message)) why = 'no space left on the device (ENOSPC): free some space and start again';
  else if (code === 'EACCES' || code === 'EPERM' || /permission denied/i.test(message)) why = 'permission denied (EACCES): the user running the node cannot write there';
  else if (code === 'ENOTDIR' || code === 'EEXIST' || /not a directory/i.test(message)) why = 'a file is in the way where a directory should be (ENOTDIR)';
  else if (code === 'EROFS' || /read-only file system/i.test(message)) why = 'the file system is read-only (EROFS)';
  else why = message.trim() || String(cause);
  return new TpkitError('DATA_DIR_UNUSABLE', `Cannot use the data directory ${dir}`, { details: why, cause });
}

/** What a user can do about a damaged store in `dir`, without losing what is left. */
export function damageAdvice(dir: string): string {
  return (
    `nothing was changed or deleted. Keep a copy first (cp -a ${dir} ${dir}.damaged); ` +
    '`tpkit node --check --data-dir DIR` lists what is missing; the intact part can be read with --check --export FILE; ' +
    'to go on, `tpkit node --repair --data-dir DIR` rebuilds the chain from its intact blocks (the damaged store is kept beside it), ' +
    'or start the node with another --data-dir, or --reset to begin a fresh chain in this one'
  );
}
