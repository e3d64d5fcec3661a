// What a wallet on the official SDK does in place of its composeRegisterTX, built by Vite:
// read the chain's difficulty from GET /api/settings, mine the register transaction in Web
// Workers (tpkit/tssdk's browser build), and send it. A real wallet hands the result to its
// NetworkApi (createTransaction) or calls registerCertainChain(tssdk, …) instead; this page
// talks to the node with fetch so it builds without the SDK's Node polyfills.
// ?node=URL&wif=WIF (&workersOnly=1: the page's own thread does not hash); with ?report=URL it POSTs its outcome there too (test/e2e).
import { composeMinedRegisterTX, registerDifficulty } from 'tpkit/tssdk';

const params = new URLSearchParams(location.search);
const show = (text) => (document.getElementById('result').textContent = text);

async function register(node, wif) {
  const settings = await (await fetch(`${node}/api/settings`)).json();
  const difficulty = registerDifficulty(settings);
  let progress = 0;
  const { tx, mined } = await composeMinedRegisterTX(wif, {
    difficulty,
    callingThread: params.get('workersOnly') !== '1',
    onProgress: () => void progress++,
    progressIntervalMs: 50,
  });
  const sent = await (await fetch(`${node}/api/tx/new`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ tx }) })).json();
  return { difficulty, txid: sent.txid, bits: mined.bits, hashes: mined.hashes, callingThreadHashes: mined.callingThreadHashes, poolFailure: mined.poolFailure ?? null, progress };
}

async function main() {
  const node = params.get('node');
  const wif = params.get('wif');
  if (!node || !wif) return;
  let outcome;
  try {
    outcome = await register(node, wif);
  } catch (err) {
    outcome = { error: `${err.code ?? err.name}: ${err.message}` };
  }
  show(JSON.stringify(outcome, null, 2));
  const report = params.get('report');
  if (report) await fetch(report, { method: 'POST', body: JSON.stringify(outcome) });
}

main();
