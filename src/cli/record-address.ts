// `tpkit keygen --key FILE --address ADDR`: records the wallet address of a key file that
// has none (an imported key), checked against the node's key for ADDR when a node is named.
// Needs no passphrase: the public key is in the file's clear part.

import { ArgumentError } from '../errors.js';
import { readKeyFileInfo, setKeyFileWallet } from './key-file.js';
import { addressArgument } from './input.js';
import { interruptSignal, printJson } from './wallet-common.js';
import { walletRecordFor } from './wallet-owner.js';

export async function recordAddress(values: { key?: string; address?: string; node?: string; json?: boolean; out?: string }): Promise<number> {
  const path = values.key!;
  if (values.address === undefined) throw new ArgumentError('--key FILE needs --address ADDR: the wallet address to record in FILE');
  if (values.out !== undefined) throw new ArgumentError('--key records an address in an existing file; leave out --out');
  const address = addressArgument(values.address, '--address');
  const info = readKeyFileInfo(path);
  if (info.plain) throw new ArgumentError(`${path} is plain hex and cannot record an address`, { details: `encrypt it first: tpkit keygen --import --address ${address} --out NEW_FILE < ${path}` });
  if (info.address !== undefined && info.address !== address) {
    throw new ArgumentError(`${path} already records wallet ${info.address}`, { details: 'a key file records one wallet; import the key again into a new file for another' });
  }
  const record = await walletRecordFor(values, address, info.publicKey, interruptSignal());
  setKeyFileWallet(path, record!);
  if (values.json) printJson({ keyFile: path, ...record, checked: record!.chain !== undefined });
  else console.log(`key file    ${path} now records wallet ${address}${record!.chain !== undefined ? ` (checked on ${record!.node}, chain ${record!.chain})` : ''}`);
  return 0;
}
