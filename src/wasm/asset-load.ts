// Loading the lean entry's miner files, and the error when one does not load: a status that
// is not 2xx, or a 200 of HTML (a dev server's fallback page), names the file, the URL and
// what answered, with the fix asset-hint.ts reads from the URL. A chunk of its own in the
// browser build, imported when the kernels are first compiled or a worker fails, so the lean
// bundle carries none of it; it imports no module of the bundle (the error class is handed
// in), so the bundle's shared chunk stays one.

import type { TpkitError } from '../errors.js';
import { assetHint, type MinerAsset } from './asset-hint.js';

/** The bundle's error class, passed by the caller. */
export type ErrorClass = typeof TpkitError;

/** WASM_UNAVAILABLE for `asset` at `url`, `what` saying what happened there; FILE_ORIGIN on a page opened from file://. */
export function assetError(Err: ErrorClass, asset: MinerAsset, url: string, what: string, cause?: unknown, pageUrl = globalThis.location?.href ?? ''): TpkitError {
  // From file:// no URL of the asset would do (a module worker, a blob: one included, and fetch are refused there), so the fix is the page's origin.
  const details = `${asset} from ${url}: ${what}; ${assetHint(asset, url, pageUrl)}`;
  if (pageUrl.startsWith('file:')) return new Err('FILE_ORIGIN', `The miner could not load ${asset}: the page was opened from file://`, { details, cause });
  return new Err('WASM_UNAVAILABLE', `The miner could not load ${asset}`, { details, cause });
}

/** The response for `asset` at `url`, or the error saying why there is none. */
async function fetchAsset(Err: ErrorClass, asset: MinerAsset, url: string): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(url, { credentials: 'same-origin' });
  } catch (err) {
    throw assetError(Err, asset, url, String(err), err);
  }
  const type = response.headers.get('content-type')?.split(';')[0].trim();
  if (!response.ok || type === 'text/html') throw assetError(Err, asset, url, `answered ${response.status} ${type ?? ''}`.trim());
  return response;
}

/** Fetches and compiles a kernel, while it downloads where the server labels it application/wasm. */
export async function compileFile(Err: ErrorClass, asset: MinerAsset, url: string): Promise<WebAssembly.Module> {
  const response = await fetchAsset(Err, asset, url);
  const streaming = typeof WebAssembly.compileStreaming === 'function' && response.headers.get('content-type')?.startsWith('application/wasm');
  return streaming ? WebAssembly.compileStreaming(response) : WebAssembly.compile(await response.arrayBuffer());
}

/** Why a worker script did not load: the engine's message, else what answers at its URL. */
export async function workerFailure(Err: ErrorClass, url: string, message: string, cause?: unknown): Promise<TpkitError> {
  if (message || !/^https?:/.test(url)) return assetError(Err, 'miner-worker.js', url, message || 'did not load', cause);
  try {
    await fetchAsset(Err, 'miner-worker.js', url);
  } catch (err) {
    return err as TpkitError;
  }
  return assetError(Err, 'miner-worker.js', url, 'answered, but did not run');
}
