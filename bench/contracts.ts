// Contracts under load, beside plain transfers in the same run and on the same node: SK
// transfers included per second on a chain without contracts, ERC-20 transfers (generic
// transactions calling test/contracts/Token.sol) included per second, SK transfers again once
// contracts exist and the EVM is loaded, eth_call / execute/call latency, and the latency of
// GET /api/node/status while a block of contract transactions that fill the block gas limit
// (3 x 10^7 gas of an endless loop, each run out of gas) is built.
//
// Run: npm run build && node dist/bench/contracts.js [--txs 8000] [--wallets 200]
//      [--concurrency 32] [--block-time 250 | --instant] [--memory] [--calls 2000]
//      [--node-main path/to/dist/src/cli/main.js]   (another build's node, to compare)
//
// The node runs as a child process (`tpkit node`), the generator in this one, as in
// node-load.ts (whose lean HTTP client and native signer it uses).

import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeAbiParameters, encodeFunctionData, type Abi } from 'viem';
import { bytesToBase64, bytesToHex, hexToBytes } from '../src/bytes.js';
import { makeAddress } from '../src/codec/address.js';
import { deployBody } from '../src/codec/body-deploy.js';
import { genericBody } from '../src/codec/body-generic.js';
import type { PayloadItemInput } from '../src/codec/body-types.js';
import { encodeTx } from '../src/codec/container.js';
import { signBsig } from '../src/crypto/bsig.js';
import type { Signer } from '../src/crypto/ecdsa.js';
import { evmKey } from '../src/node/evm/address.js';
import { contract } from '../test/helpers/solidity.js';
import { getRequest, postRequest, RawConnection } from './node-load-client.js';
import { nativeSigner } from './node-load-native.js';
import { spawnBenchNode } from './spawn-node.js';

interface Options {
  txs: number;
  wallets: number;
  concurrency: number;
  blockTime: number;
  instant: boolean;
  memory: boolean;
  calls: number;
  nodeMain: string | undefined;
}

function parseArgs(argv: string[]): Options {
  const o: Options = { txs: 8_000, wallets: 200, concurrency: 32, blockTime: 250, instant: false, memory: false, calls: 2_000, nodeMain: undefined };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => Number(argv[++i]);
    if (a === '--txs') o.txs = next();
    else if (a === '--wallets') o.wallets = next();
    else if (a === '--concurrency') o.concurrency = next();
    else if (a === '--block-time') o.blockTime = next();
    else if (a === '--instant') o.instant = true;
    else if (a === '--memory') o.memory = true;
    else if (a === '--calls') o.calls = next();
    else if (a === '--node-main') o.nodeMain = argv[++i];
    else throw new Error(`unknown option ${a}`);
  }
  if (o.wallets < o.concurrency) throw new Error('--wallets must be at least --concurrency (one in-flight transaction per wallet keeps seq order)');
  return o;
}

interface Wallet {
  signer: Signer;
  address: Uint8Array;
  seq: number;
}

const percentile = (sorted: Float64Array, p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

function signed(body: Uint8Array, w: Wallet, t: number): Buffer {
  return postRequest('127.0.0.1', '/api/tx/new', JSON.stringify({ tx: bytesToBase64(encodeTx({ body, sigs: [signBsig(body, w.signer, { timestamp: t })] })) }));
}

async function main(): Promise<void> {
  const o = parseArgs(process.argv.slice(2));
  const cpu = cpus();
  console.log(
    `machine: ${cpu[0]?.model.trim()}, ${cpu.length} cores, Node ${process.version}; load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}; ${new Date().toISOString()}`,
  );
  const token = contract('Token');
  const abi = token.abi as Abi;

  const chain = 1;
  const wallets: Wallet[] = Array.from({ length: o.wallets }, (_, i) => ({
    signer: nativeSigner(createHash('sha256').update(`bench wallet ${i}`).digest()),
    address: makeAddress({ group: 10, block: chain, wallet: 1000 + i }),
    seq: 0,
  }));
  const dir = mkdtempSync(join(tmpdir(), 'tpkit-bench-contracts-'));
  const configFile = join(dir, 'config.json');
  writeFileSync(
    configFile,
    JSON.stringify({
      chain,
      accounts: 0,
      difficulty: 0,
      fees: { SK: { base: 1, baseextra: 64, kb: 1000 } },
      wallets: wallets.map((w) => ({ address: '0x' + bytesToHex(w.address), publicKey: bytesToHex(w.signer.publicKey), amount: { SK: '1000000000000' } })),
      limits: { maxPending: 1_000_000, maxBlockTxs: 20_000 },
    }),
  );
  const args = ['--config', configFile, '--port', '0', '--log-level', 'warn', ...(o.memory ? ['--memory'] : ['--data-dir', join(dir, 'data')])];
  args.push(...(o.instant ? ['--instant'] : ['--block-time', String(o.blockTime)]));
  const { child, url, port } = await spawnBenchNode(args, [], o.nodeMain);
  console.log(`node: ${url} (${o.instant ? 'instant blocks' : `block time ${o.blockTime} ms`}, ${o.memory ? 'in memory' : 'LevelDB'}), ${o.concurrency} connections, ${o.wallets} wallets`);
  const connections = await Promise.all(Array.from({ length: o.concurrency }, () => RawConnection.open(port)));
  // Control requests go on a fresh connection each time: the node may close an idle keep-alive one.
  let control = await RawConnection.open(port);
  const fresh = async () => {
    control.close();
    control = await RawConnection.open(port);
    return control;
  };
  const statusRequest = getRequest('127.0.0.1', '/api/node/status');
  const settle = async () => {
    await fresh();
    const since = performance.now();
    let said = 0;
    for (;;) {
      const status = JSON.parse((await control.request(statusRequest)).body).status;
      if (status.pending === 0) return;
      if (performance.now() - since > (said + 1) * 30_000) console.log(`  … ${status.pending} still pending after ${++said * 30} s`);
      await new Promise((r) => setTimeout(r, 5));
    }
  };

  /** Sends `perWallet` transactions of each wallet, one in flight per wallet; returns included per second. */
  async function phase(label: string, perWallet: number, body: (w: Wallet, wi: number, seq: number, t: number) => Uint8Array): Promise<number> {
    const t0 = Date.now();
    const txs = wallets.map((w, wi) => Array.from({ length: perWallet }, (_, j) => signed(body(w, wi, w.seq + j + 1, t0 + j), w, t0 + j)));
    for (const w of wallets) w.seq += perWallet;
    const errors = new Map<string, number>();
    const start = performance.now();
    await Promise.all(
      connections.map(async (connection, k) => {
        const mine = wallets.map((_, i) => i).filter((i) => i % o.concurrency === k);
        for (let j = 0; j < perWallet; j++) {
          for (const wi of mine) {
            const res = await connection.request(txs[wi][j]);
            if (res.status !== 200) {
              const code = (JSON.parse(res.body) as { error?: string }).error ?? String(res.status);
              errors.set(code, (errors.get(code) ?? 0) + 1);
            }
          }
        }
      }),
    );
    await settle();
    const seconds = (performance.now() - start) / 1000;
    const total = perWallet * wallets.length;
    console.log(
      `  ${label.padEnd(44)} ${total} in ${seconds.toFixed(2)} s = ${(total / seconds).toFixed(0).padStart(5)} included/s${errors.size ? `; refused ${JSON.stringify(Object.fromEntries(errors))}` : ''}`,
    );
    return total / seconds;
  }

  const perWallet = Math.max(1, Math.floor(o.txs / o.wallets));
  const skPayload = (): PayloadItemInput[] => [
    { purpose: 'transfer', currency: 'SK', amount: 1 },
    { purpose: 'srcfee', currency: 'SK', amount: 10 },
  ];
  const skBody = (w: Wallet, wi: number, seq: number, t: number) => genericBody({ from: w.address, to: wallets[(wi + 1) % wallets.length].address, seq, timestamp: t, payload: skPayload() });

  console.log('\nresults:');
  const skBefore = await phase('SK transfers, no contract on the chain', perWallet, skBody);

  // The ERC-20 at wallet 0, its supply spread to every wallet (not measured).
  const owner = wallets[0];
  const inputs = (token.abi.find((i) => i.type === 'constructor') as { inputs: { type: string; name: string }[] }).inputs;
  const t = Date.now();
  owner.seq++;
  const deploy = deployBody({
    from: owner.address,
    seq: owner.seq,
    timestamp: t,
    code: hexToBytes(token.bytecode),
    args: hexToBytes(encodeAbiParameters(inputs, ['Bench', 'BNC', 10n ** 30n])),
    payload: [
      { purpose: 'gas', currency: 'SK', amount: 10_000 },
      { purpose: 'srcfee', currency: 'SK', amount: 10_000 },
    ],
  });
  const deployed = await (await fresh()).request(signed(deploy, owner, t));
  if (deployed.status !== 200) throw new Error(`deploy: ${deployed.body}`);
  await settle();
  const gasPayload = (): PayloadItemInput[] => [
    { purpose: 'gas', currency: 'SK', amount: 100 },
    { purpose: 'srcfee', currency: 'SK', amount: 300 },
  ];
  const call = (w: Wallet, to: Uint8Array, amount: bigint, seq: number, at: number) =>
    genericBody({
      from: w.address,
      to: owner.address,
      seq,
      timestamp: at,
      payload: gasPayload(),
      call: { method: '0x0', args: [hexToBytes(encodeFunctionData({ abi, functionName: 'transfer', args: [`0x${evmKey(to)}`, amount] }))] },
    });
  await fresh();
  for (let i = 1; i < wallets.length; i++) {
    owner.seq++;
    const sent = await control.request(signed(call(owner, wallets[i].address, 10n ** 20n, owner.seq, t + i), owner, t + i));
    if (sent.status !== 200) throw new Error(`funding wallet ${i}: ${sent.body}`);
  }
  await settle();

  const erc20 = await phase('ERC-20 transfers (generic tx calling Token)', perWallet, (w, wi, seq, at) => call(w, wallets[(wi + 1) % wallets.length].address, 1n, seq, at));
  const skAfter = await phase('SK transfers, contracts on the chain', perWallet, skBody);

  // Views, one at a time on a keep-alive connection.
  const data = encodeFunctionData({ abi, functionName: 'balanceOf', args: [`0x${evmKey(wallets[1].address)}`] });
  const ethCall = postRequest('127.0.0.1', '/jsonrpc', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_call', params: [{ to: `0x${evmKey(owner.address)}`, data }, 'latest'] }));
  const execCall = postRequest('127.0.0.1', '/api/execute/call', JSON.stringify({ call: '0x0', args: [data], to: `0x${evmKey(owner.address)}` }));
  for (const [label, request] of [
    ['eth_call balanceOf', ethCall],
    ['execute/call balanceOf', execCall],
  ] as const) {
    const latencies = new Float64Array(o.calls);
    await fresh();
    for (let i = 0; i < o.calls; i++) {
      const s = performance.now();
      const res = await control.request(request);
      latencies[i] = performance.now() - s;
      if (res.status !== 200 || res.body.includes('"error"')) throw new Error(`${label}: ${res.body}`);
    }
    latencies.sort();
    console.log(`  ${label.padEnd(44)} ${o.calls} calls: p50 ${percentile(latencies, 0.5).toFixed(2)} ms, p99 ${percentile(latencies, 0.99).toFixed(2)} ms`);
  }
  // Heavy contract transactions: an endless loop at wallet 1, called by wallets 2..4 with
  // 10^4 SK of gas each (10^7 gas): 3 x 10^7 gas, the default block gas limit, in one block.
  const looper = wallets[1];
  looper.seq++;
  // A timestamp of now: the ERC-20 deploy's `t` is minutes old by here and refused as bad_timestamp.
  const spinAt = Date.now();
  const spin = deployBody({
    from: looper.address,
    seq: looper.seq,
    timestamp: spinAt,
    code: hexToBytes('0x635b600056600052600460' + '1cf3'),
    payload: [
      { purpose: 'gas', currency: 'SK', amount: 100 },
      { purpose: 'srcfee', currency: 'SK', amount: 10_000 },
    ],
  });
  const spun = await (await fresh()).request(signed(spin, looper, spinAt));
  if (spun.status !== 200) throw new Error(`deploying the loop failed: ${spun.body}`);
  await settle();
  const spinStatus = (await (await fresh()).request(getRequest('127.0.0.1', `/api/tx/status/${(JSON.parse(spun.body) as { txid: string }).txid}`))).body;
  if (!(JSON.parse(spinStatus) as { res?: { ok?: boolean } }).res?.ok) throw new Error(`deploying the loop failed: ${spinStatus}`);
  const heavy = [2, 3, 4].map((i) => {
    const w = wallets[i];
    w.seq++;
    const at = Date.now() + i;
    // A call (empty calldata): a generic body without one is a plain transfer and runs no code.
    return signed(
      genericBody({
        from: w.address,
        to: looper.address,
        seq: w.seq,
        timestamp: at,
        payload: [
          { purpose: 'gas', currency: 'SK', amount: 10_000 },
          { purpose: 'srcfee', currency: 'SK', amount: 300 },
        ],
        call: { method: '0x0', args: [new Uint8Array(0)] },
      }),
      w,
      at,
    );
  });
  const probe = await RawConnection.open(port);
  const statusTimes: number[] = [];
  const started = performance.now();
  const heavyIds: string[] = [];
  // Sent at once, on a connection each, so that one block is likely to take all three.
  const senders = await Promise.all(heavy.map(() => RawConnection.open(port)));
  for (const res of await Promise.all(heavy.map((tx, i) => senders[i].request(tx)))) {
    if (res.status !== 200) throw new Error(`a heavy transaction was refused: ${res.body}`);
    heavyIds.push((JSON.parse(res.body) as { txid: string }).txid);
  }
  for (const c of senders) c.close();
  const done = settle();
  let settled = false;
  void done.then(() => (settled = true));
  while (!settled) {
    const s = performance.now();
    await probe.request(statusRequest);
    statusTimes.push(performance.now() - s);
    await new Promise((r) => setTimeout(r, 5));
  }
  await done;
  const outcomes: { res?: string; block?: string }[] = [];
  for (const id of heavyIds) outcomes.push(JSON.parse((await (await fresh()).request(getRequest('127.0.0.1', `/api/tx/status/${id}`))).body).res ?? {});
  probe.close();
  // Each loop must have spent its 10^7 gas (insufficient_gas), all three in one block.
  const blocks = new Set(outcomes.map((r) => r.block));
  const spent = outcomes.every((r) => r.res === 'insufficient_gas');
  if (!spent || blocks.size !== 1) console.log(`  (not a full block of loops: ${JSON.stringify(outcomes)})`);
  const sortedStatus = Float64Array.from(statusTimes).sort();
  console.log(
    `  ${'status while 3 x 10^7 gas of loops run'.padEnd(44)} ${statusTimes.length} probes in ${((performance.now() - started) / 1000).toFixed(2)} s: p50 ${percentile(sortedStatus, 0.5).toFixed(2)} ms, p99 ${percentile(sortedStatus, 0.99).toFixed(2)} ms, max ${sortedStatus[sortedStatus.length - 1].toFixed(0)} ms (${spent ? 'each ran out of gas' : 'not all ran out of gas'}, ${blocks.size === 1 ? 'in one block' : `in ${blocks.size} blocks`})`,
  );
  console.log(`  SK rate with contracts on the chain vs without: ${((skAfter / skBefore - 1) * 100).toFixed(1)} %; ERC-20 / SK: ${((erc20 / skBefore) * 100).toFixed(0)} %`);
  console.log(
    `  load average now ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );

  for (const c of [...connections, control]) c.close();
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  rmSync(dir, { recursive: true, force: true });
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
