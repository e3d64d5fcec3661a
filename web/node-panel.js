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

/**
 * The sources this page may connect to, from the Content-Security-Policy its server sends
 * (connect-src, else default-src); null when nothing limits them. `tpkit node` serves the
 * page with connect-src 'self': it reaches that node and no other.
 */
let pagePolicy;
async function connectSources() {
  pagePolicy ??= fetch(location.href, { method: 'HEAD', cache: 'no-store' }).then(
    (res) => res.headers.get('content-security-policy'),
    () => null,
  );
  const policy = await pagePolicy;
  if (!policy) return null;
  const directives = policy.split(';').map((d) => d.trim().split(/\s+/));
  const connect = directives.find((d) => d[0] === 'connect-src') ?? directives.find((d) => d[0] === 'default-src');
  return connect ? connect.slice(1) : null;
}

function policyAllows(sources, origin) {
  if (!sources) return true;
  return sources.some((s) => s === '*' || (s === "'self'" && origin === location.origin) || s.replace(/\/+$/, '') === origin);
}

/** Requests the browser refused under the page's policy, by origin (the fallback when the header could not be read). */
const refusedOrigins = new Set();
document.addEventListener('securitypolicyviolation', (e) => {
  if (e.effectiveDirective !== 'connect-src') return;
  try {
    refusedOrigins.add(new URL(e.blockedURI).origin);
  } catch {
    // a blocked URI that is not a URL names no origin
  }
});

/** What to say when this page may not talk to `origin`: why, and how to reach that node. */
function showPolicyRefusal(origin) {
  showError(
    'node-error',
    `This page cannot talk to ${origin}: it was served by ${location.origin}, whose security policy (Content-Security-Policy connect-src) lets it reach that node only, so the browser refuses every request elsewhere. The node at ${origin} may well be running. To use it, open its own playground:`,
  );
  const link = $('node-elsewhere');
  link.href = `${origin}/`;
  link.textContent = `${origin}/`;
  link.hidden = false;
}

export async function connect() {
  clearError('node-error');
  $('node-elsewhere').hidden = true;
  $('node-info').hidden = true;
  $('dev-accounts-panel').hidden = true;
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
  const origin = new URL(client.baseUrl).origin;
  if (!policyAllows(await connectSources(), origin)) {
    setStatus('estimate', '');
    showPolicyRefusal(origin);
    return;
  }
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
    const accounts = await client.dev.accounts().catch(() => null);
    state.devApi = accounts !== null;
    $('node-dev-api').textContent = state.devApi ? 'yes: faucet and development accounts' : 'no';
    showDevAccounts(accounts ?? []);
  } catch (err) {
    setStatus('estimate', '');
    if (err?.code === 'NETWORK_ERROR' && refusedOrigins.has(origin)) showPolicyRefusal(origin);
    else showError('node-error', `Could not connect to ${client.baseUrl}. ${explain(err)}`);
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
    .watchBlocks(
      (block) => {
        $('node-height').textContent = formatCount(block.height);
        $('node-height').dataset.live = 'true';
      },
      { signal: watch.signal },
    )
    .catch(() => {
      if (heightWatch === watch) $('node-height').dataset.live = 'false';
    });
}

/** The node's development accounts, each with a button that puts it into the Wallet fields. */
function showDevAccounts(accounts) {
  const items = accounts.map((a) => {
    const li = document.createElement('li');
    const who = document.createElement('span');
    who.className = 'mono';
    who.textContent = a.address;
    const balance = document.createElement('span');
    balance.textContent = ` ${
      Object.entries(a.amount)
        .map(([cur, v]) => `${formatCount(v)} ${cur}`)
        .join(', ') || 'nothing'
    } `;
    const use = document.createElement('button');
    use.type = 'button';
    use.className = 'secondary';
    use.textContent = 'Use';
    use.dataset.address = a.address;
    use.dataset.secretKey = a.secretKeyHex;
    use.setAttribute('aria-label', `Use development account ${a.index}, ${a.address}, in the Wallet fields`);
    li.append(who, balance, use);
    return li;
  });
  $('dev-accounts').replaceChildren(...items);
  $('dev-accounts-panel').hidden = items.length === 0;
}
