// Why a node could not start, in words: the data directory's failures by errno (or by the
// message when a library drops the code), and a listen that fails by errno. Each one is a
// typed error naming its cause and what to do, never the bare system error.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { TpkitError } from '../../src/errors.js';
import { dataDirError } from '../../src/node/store/data-dir-error.js';
import { listenError } from '../../src/node/http/port-check.js';

const errno = (code: string, message: string) => Object.assign(new Error(message), { code });

test('data directory failures are DATA_DIR_UNUSABLE with their cause in words, by code or by message', () => {
  const cases: [unknown, string][] = [
    [errno('ENOSPC', 'ENOSPC: no space left on device, write'), 'no space left on the device (ENOSPC): free some space and start again'],
    [errno('EACCES', 'EACCES: permission denied, mkdir'), 'permission denied (EACCES): the user running the node cannot write there'],
    [errno('ENOTDIR', 'ENOTDIR: not a directory, mkdir'), 'a file is in the way where a directory should be (ENOTDIR)'],
    [errno('EROFS', 'EROFS: read-only file system, mkdir'), 'the file system is read-only (EROFS)'],
    // LevelDB wraps the system error: its message says it, its code does not
    [new Error('IO error: /d/LOCK: Read-only file system'), 'the file system is read-only (EROFS)'],
    [errno('LEVEL_LOCKED', 'Database is locked'), 'another node process holds it; stop that node, or run this one on another folder (--data-dir DIR) or with nothing on disk (--memory)'],
    [errno('EIO', 'EIO: i/o error, read'), 'EIO: i/o error, read'],
    // By the code alone, the message saying nothing of it
    [errno('EPERM', 'operation failed'), 'permission denied (EACCES): the user running the node cannot write there'],
    [errno('EEXIST', 'operation failed'), 'a file is in the way where a directory should be (ENOTDIR)'],
    [Object.assign(new Error('open failed'), { cause: { code: 'ENOSPC', message: 'write' } }), 'no space left on the device (ENOSPC): free some space and start again'],
    // A lock held, said in words only
    [
      new Error('IO error: lock /d/LOCK: Resource temporarily unavailable'),
      'another node process holds it; stop that node, or run this one on another folder (--data-dir DIR) or with nothing on disk (--memory)',
    ],
  ];
  for (const [cause, why] of cases) {
    const err = dataDirError('/d', cause);
    assert.is(err.code, 'DATA_DIR_UNUSABLE');
    assert.is(err.message, `Cannot use the data directory /d: ${why}`);
    assert.is(err.cause, cause);
  }
});

test('a listen that fails is a typed error naming the flag to change; an unknown failure is left as it is', () => {
  const typed = (code: string) => listenError('192.0.2.1', 8080, errno(code, `listen ${code}`)) as TpkitError;
  assert.equal(
    [typed('EADDRINUSE').code, typed('EADDRINUSE').message],
    ['PORT_IN_USE', 'Port 8080 on 192.0.2.1 is already in use: another process listens there (another tpkit node?): stop it, or pick another port with --port N (--port 0 takes any free one)'],
  );
  assert.equal(
    [typed('EADDRNOTAVAIL').code, typed('EADDRNOTAVAIL').field, typed('EADDRNOTAVAIL').shortMessage],
    ['CONFIG_INVALID', 'host', '--host 192.0.2.1: no network interface of this machine has that address'],
  );
  for (const code of ['ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME']) {
    assert.equal([typed(code).code, typed(code).field, typed(code).shortMessage], ['CONFIG_INVALID', 'host', '--host 192.0.2.1: the name does not resolve to an address'], code);
  }
  for (const code of ['EACCES', 'EPERM']) {
    assert.equal([typed(code).code, typed(code).field, typed(code).shortMessage], ['CONFIG_INVALID', 'port', '--port 8080: this user may not listen on that port'], code);
    assert.match(typed(code).details!, /below 1024/);
  }
  const other = errno('EMFILE', 'too many open files');
  assert.is(listenError('127.0.0.1', 8080, other), other);
});

test.run();
