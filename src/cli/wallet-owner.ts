// Whether a key owns a wallet: the node records each wallet's public key, so an address
// given with an imported key is checked there before a key file records it. A key file
// that names the wrong wallet would sign transfers the node refuses, and advice to
// register would make a second, empty wallet for a key that already has one.

import { ApiError, type TpkitClient } from '../client/index.js';
import { bytesToHex, equalBytes, hexToBytes } from '../bytes.js';
import { normalizePublicKey } from '../crypto/keys.js';
import { spkiToPublicKey } from '../crypto/pem.js';
import { TpkitError } from '../errors.js';
import { clientFrom } from './wallet-common.js';

/** What a key file records about its wallet. */
export interface WalletRecord {
  address: string;
  chain?: number;
  node?: string;
}

/** The node's `pubkey` field as a compressed key: compact hex of the point, or of its SPKI DER. */
function recordedKey(pubkey: string): Uint8Array | undefined {
  try {
    const bytes = hexToBytes(pubkey);
    return bytes.length === 33 || bytes.length === 65 ? normalizePublicKey(bytes) : spkiToPublicKey(bytes);
  } catch {
    return undefined;
  }
}

/** True when the user named a node (--node or $TPKIT_NODE): only then is the address checked. */
export const nodeGiven = (values: { node?: string }) => values.node !== undefined || Boolean(process.env.TPKIT_NODE);

/**
 * The public key `client` records for wallet `address` (undefined when it records none or one
 * it cannot read), and the field as the node wrote it. Throws WALLET_KEY_MISMATCH when the node
 * has no such wallet.
 */
export async function walletPublicKey(client: TpkitClient, address: string, signal?: AbortSignal): Promise<{ pubkey: string; recorded?: Uint8Array }> {
  try {
    const { pubkey } = await client.getAddress(address, { signal });
    return { pubkey, recorded: pubkey ? recordedKey(pubkey) : undefined };
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) {
      throw new TpkitError('WALLET_KEY_MISMATCH', `${client.baseUrl} has no wallet ${address}`, {
        details: 'check the address, or pass the node of the chain the wallet lives on with --node (leave --node out to record the address unchecked)',
        cause: err,
      });
    }
    throw err;
  }
}

/**
 * Checks on `client` that `address` is a wallet whose key is `publicKey`; returns the record
 * to keep (with the node's chain). Throws WALLET_KEY_MISMATCH, or the node's WALLET_NOT_FOUND.
 */
export async function checkWalletKey(client: TpkitClient, address: string, publicKey: Uint8Array, signal?: AbortSignal): Promise<WalletRecord> {
  const { pubkey, recorded } = await walletPublicKey(client, address, signal);
  if (!recorded || !equalBytes(recorded, publicKey)) {
    throw new TpkitError('WALLET_KEY_MISMATCH', `The key is not the key of wallet ${address}`, {
      details: `the node records ${pubkey ? (recorded ? bytesToHex(recorded, true) : pubkey) : 'no key'} for it, this key is ${bytesToHex(publicKey, true)}`,
    });
  }
  const { chain } = await client.nodeStatus({ signal });
  return { address, chain, node: client.baseUrl.replace(/\/+$/, '') };
}

/**
 * The record for a key imported with an address: checked on the node when one is named,
 * else kept as given with a note saying it was not checked.
 */
export async function walletRecordFor(
  values: { node?: string; 'allow-insecure'?: boolean },
  address: string | undefined,
  publicKey: Uint8Array,
  signal?: AbortSignal,
): Promise<WalletRecord | undefined> {
  if (address === undefined) return undefined;
  if (!nodeGiven(values)) {
    process.stderr.write(`note: address ${address} recorded without a check; pass --node URL to check that this key owns it\n`);
    return { address };
  }
  return checkWalletKey(clientFrom(values), address, publicKey, signal);
}

/** How to find or record the address of a key file that records none; never "register" alone. */
export function noAddressAdvice(keyPath: string): string {
  return (
    `if this key already has a wallet, pass --from ADDRESS or record it once with tpkit keygen --key ${keyPath} --address ADDRESS ` +
    `(the official wallet shows the address; an export file holds it: tpkit keygen --import-wallet); ` +
    `only a key that never had a wallet needs tpkit register --key ${keyPath}`
  );
}
