// Where `tpkit keygen` takes a key from besides its own generator and --import: a new seed
// phrase (--mnemonic), a phrase the user already has (--import-mnemonic), or an official
// wallet export file (--import-wallet). Each gives the secret key and, when it knows one,
// the wallet address its key file should record.

import { readFileSync, statSync } from 'node:fs';
import { addressParts, addressFromText } from '../codec/address.js';
import { ArgumentError, TpkitError } from '../errors.js';
import { findMnemonicKey, generateMnemonic, MNEMONIC_ORDERS, mnemonicPath, mnemonicToSecretKey, type MnemonicOrder } from '../keys/mnemonic.js';
import { readWalletExport } from '../keys/wallet-export.js';
import { addressArgument } from './input.js';
import { clientFrom, interruptSignal, promptHidden } from './wallet-common.js';
import { nodeGiven, walletPublicKey } from './wallet-owner.js';

export const KEY_SOURCE_OPTIONS = {
  mnemonic: { type: 'boolean' },
  'import-mnemonic': { type: 'boolean' },
  'import-wallet': { type: 'string' },
  address: { type: 'string' },
  block: { type: 'string' },
  group: { type: 'string' },
  order: { type: 'string' },
  node: { type: 'string' },
  key: { type: 'string' },
} as const;

export const KEY_SOURCE_HELP = `  --mnemonic          make a new 12-word seed phrase (shown once: write it down) and derive
                      the key for --block/--group, else the node's allocation block
  --import-mnemonic   derive the key from a seed phrase (prompt, or stdin) for --address ADDR,
                      or for --block N --group N
  --import-wallet F   import an official wallet export file F; its passphrase from a prompt
                      or $TPKIT_WALLET_PASSPHRASE; the key file records its address
  --address ADDR      the key's wallet address, recorded in the key file; checked against the
                      node's key for ADDR when a node is given (--node or $TPKIT_NODE)
  --block N, --group N
                      where a seed-phrase key sits (the wallet address's block and group)
  --order O           the order of block and group in the seed-phrase path: group-block
                      (m/44/31337'/0'/GROUP'/BLOCK', the official wallets' seed-phrase login)
                      or block-group (the order SDK 2.2 registers wallets at); by default
                      --import-mnemonic --address with a node finds the order that holds the
                      wallet's key, else group-block
  --key FILE --address ADDR
                      record ADDR in an existing key file (checked when a node is given)
  --node URL          node for the allocation block and the address check`;

export type KeySourceValues = {
  [K in keyof typeof KEY_SOURCE_OPTIONS]?: (typeof KEY_SOURCE_OPTIONS)[K]['type'] extends 'boolean' ? boolean : string;
} & { import?: boolean; 'allow-insecure'?: boolean };

/** A key from one of these sources, and what the user should see about it. */
export interface SourcedKey {
  secretKey: Uint8Array;
  address?: string;
  /** The new phrase, shown once (--mnemonic only). */
  mnemonic?: string;
  /** The BIP-32 path a phrase was derived at, its order, and why that place and order. */
  path?: string;
  order?: MnemonicOrder;
  place?: string;
}

/** What each order is, in the words the output uses. */
const ORDER_NAMES: Record<MnemonicOrder, string> = {
  'group-block': "group-block order, the official wallets' seed-phrase login",
  'block-group': 'block-group order, where SDK 2.2 registers wallets',
};

function orderOption(values: KeySourceValues): MnemonicOrder | undefined {
  if (values.order === undefined) return undefined;
  if (!(MNEMONIC_ORDERS as readonly string[]).includes(values.order)) throw new ArgumentError(`--order expected group-block or block-group, got '${values.order}'`);
  return values.order as MnemonicOrder;
}

function integerOption(text: string | undefined, flag: string, max: number): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text.trim()) || Number(text) > max) throw new ArgumentError(`${flag} expected an integer 0..${max}, got '${text}'`);
  return Number(text);
}

/** --block/--group, both or neither. */
function placeOption(values: KeySourceValues): { block: number; group: number } | undefined {
  const block = integerOption(values.block, '--block', 2 ** 31 - 1);
  const group = integerOption(values.group, '--group', 2 ** 31 - 1);
  if ((block === undefined) !== (group === undefined)) throw new ArgumentError('--block and --group go together', { details: 'both are in the wallet address; or give --address ADDR' });
  return block === undefined || group === undefined ? undefined : { block, group };
}

/** How many sources the flags name: at most one may be given. */
export function chosenSource(values: KeySourceValues): 'mnemonic' | 'import-mnemonic' | 'import-wallet' | 'import' | 'generate' {
  const given = (['mnemonic', 'import-mnemonic', 'import-wallet', 'import'] as const).filter((name) => values[name] !== undefined && values[name] !== false);
  if (given.length > 1) throw new ArgumentError(`--${given[0]} and --${given[1]} exclude each other`, { details: 'a key comes from one source' });
  if (given.length === 0) {
    if (values.address !== undefined) throw new ArgumentError('--address needs a key: --import, --import-mnemonic, or --key FILE to record it in an existing key file');
    if (values.block !== undefined || values.group !== undefined || values.order !== undefined) throw new ArgumentError('--block/--group/--order are for --mnemonic and --import-mnemonic');
  }
  return given[0] ?? 'generate';
}

/** The chain's allocation block, where the next wallet's address (and so its key) will sit. */
async function allocationBlock(values: KeySourceValues): Promise<{ block: number; group: number }> {
  const client = clientFrom(values);
  let alloc: unknown;
  try {
    alloc = await client.getSettings('current.allocblock', { signal: interruptSignal() });
  } catch (err) {
    if (err instanceof TpkitError && err.code === 'NETWORK_ERROR') {
      throw new TpkitError('NETWORK_ERROR', `${err.message}`, { details: 'the allocation block comes from the node; or give --block N --group N', cause: err });
    }
    throw err;
  }
  const { block, group } = (alloc ?? {}) as { block?: unknown; group?: unknown };
  if (!Number.isInteger(block) || !Number.isInteger(group)) throw new TpkitError('BAD_RESPONSE', `${client.baseUrl} gives no current.allocblock`, { details: 'give --block N --group N' });
  return { block: block as number, group: group as number };
}

async function readPhrase(): Promise<string> {
  if (process.stdin.isTTY) return promptHidden('Seed phrase (words separated by spaces): ');
  return readFileSync(0, 'utf8');
}

const MAX_EXPORT_BYTES = 64 * 1024;

async function readExport(path: string): Promise<ReturnType<typeof readWalletExport>> {
  let bytes: Uint8Array;
  try {
    // An export is under 1 KiB: a device or a huge file is refused before it is read.
    const stat = statSync(path);
    if (!stat.isFile() || stat.size > MAX_EXPORT_BYTES) {
      throw new TpkitError('WALLET_FILE_UNKNOWN', `${path} is not a wallet export file`, { details: stat.isFile() ? `${stat.size} bytes; an export is under 1 KiB` : 'not a regular file' });
    }
    bytes = readFileSync(path);
  } catch (cause) {
    if (cause instanceof TpkitError) throw cause;
    throw new ArgumentError(`--import-wallet could not read '${path}'`, { details: (cause as Error).message, cause });
  }
  let passphrase = process.env.TPKIT_WALLET_PASSPHRASE;
  if (passphrase === undefined) {
    if (!process.stdin.isTTY) {
      throw new ArgumentError('The export file needs its passphrase and there is no terminal to ask on', { details: 'set TPKIT_WALLET_PASSPHRASE' });
    }
    passphrase = await promptHidden('Passphrase of the wallet export file: ');
  }
  const opened = readWalletExport(bytes, passphrase);
  if (opened.layout === 'plain') process.stderr.write(`warning: ${path} holds the key unencrypted (the oldest export layout); delete it once imported\n`);
  return opened;
}

/** The key for --mnemonic, --import-mnemonic or --import-wallet; undefined for the other sources. */
export async function sourcedKey(values: KeySourceValues): Promise<SourcedKey | undefined> {
  const source = chosenSource(values);
  if (values.order !== undefined && source !== 'mnemonic' && source !== 'import-mnemonic') throw new ArgumentError('--order is for --mnemonic and --import-mnemonic');
  if (source === 'import-wallet') {
    if (values.address !== undefined || values.block !== undefined) throw new ArgumentError('--import-wallet takes the address from the file; leave out --address/--block/--group');
    const opened = await readExport(values['import-wallet']!);
    return { secretKey: opened.secretKey, address: opened.address };
  }
  if (source !== 'mnemonic' && source !== 'import-mnemonic') return undefined;
  if (source === 'mnemonic' && values.address !== undefined)
    throw new ArgumentError('--mnemonic makes a new phrase, which owns no wallet yet; leave out --address', { details: 'for an existing wallet use --import-mnemonic --address ADDR' });
  const address = values.address === undefined ? undefined : addressArgument(values.address, '--address');
  let place = placeOption(values);
  let why = 'given with --block/--group';
  if (address !== undefined) {
    if (place) throw new ArgumentError('give --address or --block/--group, not both', { details: 'the address holds its block and group' });
    const parts = addressParts(addressFromText(address));
    if (parts.kind !== 'public') throw new ArgumentError('--address is a private address; seed-phrase keys belong to wallet addresses like AA100000001677721780');
    place = { block: parts.block, group: parts.group };
    why = `the block and group of ${address}`;
  }
  const order = orderOption(values);
  if (source === 'import-mnemonic') {
    if (!place)
      throw new ArgumentError('--import-mnemonic needs --address ADDR (the wallet the phrase made) or --block N --group N', {
        details: 'the same phrase gives a different key for each block and group',
      });
    const phrase = await readPhrase();
    if (order === undefined && address !== undefined && nodeGiven(values)) return foundOnNode(values, phrase, address, place, why);
    const chosen = order ?? 'group-block';
    if (order === undefined && place.block !== place.group) {
      process.stderr.write(
        `note: derived in the group-block order; a wallet the official SDK 2.2 registered holds the key of the block-group order (${mnemonicPath(place, 'block-group')}): ` +
          'pass --node URL with --address to find the order that holds the key, or --order block-group\n',
      );
    }
    return {
      secretKey: mnemonicToSecretKey(phrase, place, chosen),
      address,
      path: mnemonicPath(place, chosen),
      order: chosen,
      place: `${why}, ${order ? `${order} order as given with --order` : ORDER_NAMES[chosen]}`,
    };
  }
  if (!place) {
    place = await allocationBlock(values);
    why = "the node's allocation block, where the wallet registered next will sit";
  }
  const chosen = order ?? 'group-block';
  const mnemonic = generateMnemonic();
  return { secretKey: mnemonicToSecretKey(mnemonic, place, chosen), address, mnemonic, path: mnemonicPath(place, chosen), order: chosen, place: `${why}, ${ORDER_NAMES[chosen]}` };
}

/** The phrase's key of wallet `address`: the order whose key the node records for it. */
async function foundOnNode(values: KeySourceValues, phrase: string, address: string, place: { block: number; group: number }, why: string): Promise<SourcedKey> {
  const client = clientFrom(values);
  const url = client.baseUrl.replace(/\/+$/, '');
  const { pubkey, recorded } = await walletPublicKey(client, address, interruptSignal());
  const found = recorded ? findMnemonicKey(phrase, place, recorded) : undefined;
  if (!found) {
    throw new TpkitError('WALLET_KEY_MISMATCH', `The seed phrase gives no key of wallet ${address}`, {
      details: `tried ${MNEMONIC_ORDERS.map((o) => mnemonicPath(place, o)).join(' and ')}; ${url} records ${pubkey || 'no key'} for it`,
    });
  }
  return { secretKey: found.secretKey, address, path: found.path, order: found.order, place: `${why}, ${ORDER_NAMES[found.order]}: the key ${url} records for it` };
}
