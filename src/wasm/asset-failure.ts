// The miner's files, fetched with the checks a failure needs: a status that is not 2xx, or a
// 200 of HTML (a dev server's fallback page), is an error that names the file, the URL and
// what answered. The explanation (asset-hint.ts) is a chunk of its own, loaded on failure.

import { TpkitError } from '../errors.js';
import type { MinerAsset } from './asset-hint.js';

/** WASM_UNAVAILABLE for `asset` at `url` with the fix for the setup the URL betrays. */
export async function assetFailure(asset: MinerAsset, url: string, what: string, cause?: unknown): Promise<TpkitError> {
  // Without the hint's chunk (it did not load either), the file, URL and answer still say what failed.
  const hint = await import('./asset-hint.js').then((chunk) => `; ${chunk.assetHint(asset, url)}`, () => '');
  return new TpkitError('WASM_UNAVAILABLE', `The miner could not load ${asset}`, { details: `${asset} from ${url}: ${what}${hint}`, cause });
}

/** The response for `asset` at `url`, or the error saying why there is none. */
export async function fetchAsset(asset: MinerAsset, url: string): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(url, { credentials: 'same-origin' });
  } catch (err) {
    throw await assetFailure(asset, url, String(err), err);
  }
  const type = response.headers.get('content-type')?.split(';')[0].trim();
  if (!response.ok || type === 'text/html') throw await assetFailure(asset, url, `answered ${response.status} ${type ?? ''}`.trim());
  return response;
}
