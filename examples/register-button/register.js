// The register button: tpkit/browser's registerWallet over a key the wallet already has.
// ?node=URL&key=0x… fill the fields, &auto=1 presses the button, &report=URL POSTs the outcome
// there, &cancel=1 presses Cancel at the first progress (test/browser runs it in Chromium and Firefox).
import { createClient, registerWallet } from 'tpkit/browser';

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
for (const name of ['node', 'key']) if (params.get(name)) $(name).value = params.get(name);
let stop;

async function register() {
  stop = new AbortController();
  $('register').disabled = true;
  $('cancel').disabled = false;
  let outcome;
  let bits = 0;
  try {
    const wallet = await registerWallet({
      client: createClient({ baseUrl: $('node').value.trim() }),
      secretKeys: $('key').value.trim(), // 0x-hex, as ethers and viem hold it
      signal: stop.signal,
      onStage: (stage, difficulty) => {
        if (stage === 'mining') bits = difficulty;
        $('status').textContent = stage === 'mining' ? `mining ${difficulty} bits…` : `${stage}…`;
      },
      // 2^bits hashes are expected on average: the bar shows the share done so far.
      onProgress: (p) => {
        $('progress').value = Math.min(1, p.hashes / 2 ** bits);
        if (params.get('cancel') === '1') $('cancel').click();
      },
    });
    outcome = { address: wallet.address, txid: wallet.txid, difficulty: wallet.difficulty };
    $('status').textContent = `Registered: ${wallet.address}`;
  } catch (err) {
    outcome = { error: err.code ?? err.name, message: err.message };
    $('status').textContent = `${err.code === 'ABORTED' ? 'Cancelled' : 'Failed'}: ${err.message}`;
  } finally {
    $('register').disabled = false;
    $('cancel').disabled = true;
  }
  if (params.get('report')) await fetch(params.get('report'), { method: 'POST', body: JSON.stringify(outcome) });
}

$('register').addEventListener('click', register);
$('cancel').addEventListener('click', () => stop?.abort());
if (params.get('auto') === '1') register();
