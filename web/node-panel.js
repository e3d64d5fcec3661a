// Section 1, the node: connects to the URL in the field, shows the chain, its live height,
// the registration difficulty and the fees, then the expected registration time.

import { createClient } from './browser/tpkit.js';
import { $, clearError, setStatus, showError } from './dom.js';
import { showEstimate } from './estimate.js';
import { explain } from './explain.js';
import { formatCount } from './format.js';
import { state } from './state.js';

/** The node that served the page, unless ?node= names another. */
export function defaultNodeUrl() {
  const asked = new URLSearchParams(location.search).get('node');
  if (asked) return asked;
  return location.protocol === 'http:' || location.protocol === 'https:' ? location.origin : 'http://127.0.0.1:43280';
}

function feeText(fee) {
  if (!fee || typeof fee !== 'object') return 'none';
  const rates = Object.entries(fee).filter(([cur, r]) => cur !== 'params' && r && typeof r === 'object');
  if (rates.length === 0) return 'none';
  return rates.map(([cur, r]) => `${cur}: base ${r.base}, ${r.kb} per KiB over ${r.baseextra ?? 0} bytes`).join('; ');
}

export async function connect() {
  clearError('node-error');
  $('node-info').hidden = true;
  let client;
  try {
    client = createClient({ baseUrl: $('node-url').value.trim() });
  } catch (err) {
    showError('node-error', `Node URL: ${explain(err)}`);
    return;
  }
  state.client = null;
  state.difficulty = null;
  state.devApi = false;
  setStatus('estimate', 'Connecting…');
  try {
    const [status, current] = await Promise.all([client.nodeStatus(), client.getSettings('current')]);
    const diff = Number(current?.register?.diff ?? 0);
    state.client = client;
    state.difficulty = Number.isInteger(diff) ? diff : 0;
    $('node-chain').textContent = `${status.chain}${status.nodename ? ` (${status.nodename})` : ''}`;
    $('node-height').textContent = formatCount(status.height);
    watchHeight(client);
    $('node-difficulty').textContent = String(state.difficulty);
    $('node-fees').textContent = feeText(current?.fee);
    $('node-info').hidden = false;
    // A tpkit node answers /api/dev/accounts; a network node has no development API (404).
    state.devApi = await client.dev.accounts().then(() => true, () => false);
    $('node-dev-api').textContent = state.devApi ? 'yes: faucet and development accounts' : 'no';
  } catch (err) {
    setStatus('estimate', '');
    showError('node-error', `Could not connect to ${client.baseUrl}. ${explain(err)}`);
    return;
  }
  await showEstimate();
}

/** Keeps the height current from the node's live stream (a node without one keeps the figure it gave). */
let heightWatch;
function watchHeight(client) {
  heightWatch?.abort();
  const watch = new AbortController();
  heightWatch = watch;
  $('node-height').dataset.live = 'false';
  client
    .watchBlocks((block) => {
      $('node-height').textContent = formatCount(block.height);
      $('node-height').dataset.live = 'true';
    }, { signal: watch.signal })
    .catch(() => {
      if (heightWatch === watch) $('node-height').dataset.live = 'false';
    });
}
