// `tpkit node --for powerwallet`: the flags the official wallet needs (a fixed port, so its
// cached node list stays right; no proof of work unless asked, since it does not mine) and
// the localStorage and .env.local lines that point it at this node.

import { ValidationError } from '../errors.js';

export const CLIENT_PROFILES = ['powerwallet'] as const;
export type ClientProfile = (typeof CLIENT_PROFILES)[number];

/** The port the guide's lines name; a user's --port still wins. */
export const POWERWALLET_PORT = 43280;

/** argv without `--for NAME`, the profile's defaults in front (later flags override them). */
export function applyClientProfile(argv: readonly string[]): { argv: string[]; profile?: ClientProfile } {
  const rest: string[] = [];
  let name: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--for' || arg.startsWith('--for=')) {
      name = arg === '--for' ? argv[++i] : arg.slice('--for='.length);
      if (name === undefined || name === '') throw new ValidationError('CONFIG_INVALID', 'Invalid flag --for', { field: '--for', details: `expects a client name (${CLIENT_PROFILES.join(', ')})` });
    } else rest.push(arg);
  }
  if (name === undefined) return { argv: rest };
  const profile = name.toLowerCase();
  if (!(CLIENT_PROFILES as readonly string[]).includes(profile)) {
    throw new ValidationError('CONFIG_INVALID', 'Invalid flag --for', { field: '--for', details: `unknown client ${JSON.stringify(name)}; known: ${CLIENT_PROFILES.join(', ')}` });
  }
  const given = (flag: string) => rest.some((a) => a === flag || a.startsWith(flag + '='));
  const defaults = [...(given('--port') ? [] : ['--port', String(POWERWALLET_PORT)]), ...(given('--difficulty') ? [] : ['--difficulty', '0'])];
  return { argv: [...defaults, ...rest], profile: profile as ClientProfile };
}

/** What to paste into PowerWallet for a node at `url`. */
export function powerWalletLines(url: string, chain: number, nodeName: string, difficulty: number): string {
  const nodes = JSON.stringify([{ address: url, nodeId: nodeName }]);
  return [
    'PowerWallet',
    "  In the wallet page's browser console, then reload the page:",
    `    localStorage.nodesList = '${nodes}'; localStorage.chainId = '${chain}';`,
    "  In the wallet's .env.local (VITE_PUBLIC_PROJECT_ID: any 32 hex digits for a local run):",
    `    VITE_DEFAULT_CHAIN_ID=${chain}`,
    `    VITE_FAUCET_THEPOWER_URL=${url}/faucet.html`,
    '    VITE_PUBLIC_PROJECT_ID=00000000000000000000000000000000',
    difficulty === 0
      ? '  Difficulty 0: the wallet registers as it is. With --difficulty 16 it needs tpkit/tssdk (docs/guide/official-wallet.md).'
      : `  Difficulty ${difficulty}: the wallet registers only with tpkit/tssdk's registerCertainChain (docs/guide/official-wallet.md).`,
  ].join('\n');
}
