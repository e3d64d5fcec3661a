// The EVM runner alone, over a ledger in a Map: an ERC-20 and an ERC-721 written in
// test/contracts, compiled by solc, deployed in place at a ThePower address and called; their
// events, reverts and reasons, nested state reverted with a failed call, and the change sets
// that a block applies.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { decodeEventLog, decodeFunctionResult, encodeDeployData, encodeFunctionData, type Abi } from 'viem';
import { bytesToHex, hexToBytes } from '../../src/bytes.js';
import { addressFromText } from '../../src/codec/address.js';
import { evmKey, parseEvmAddress, powerAddress } from '../../src/node/evm/address.js';
import { loadEvm } from '../../src/node/evm/load.js';
import { EvmRunner, type EvmRun } from '../../src/node/evm/runner.js';
import { emptyChanges, LedgerStateManager, ledgerWithChanges, mergeChanges, type EvmChanges, type EvmLedger } from '../../src/node/evm/state.js';
import { contract } from '../helpers/solidity.js';

const CHAIN_ID = 1_000_000_001n;
const owner = evmKey(addressFromText('AA100000001677721780'));
const bob = evmKey(addressFromText('AA100000001677722185'));
const stranger = 'ab'.repeat(20);

/** Committed state and the runs applied to it, as a block applies them. */
function memoryLedger(): { ledger: EvmLedger; state: EvmChanges } {
  const state = emptyChanges();
  return { state, ledger: ledgerWithChanges({ account: () => undefined, code: () => undefined, storage: () => undefined }, state) };
}

const token = contract('Token');
const collectible = contract('Collectible');
const abiOf = (c: { abi: unknown }) => c.abi as Abi;
let runner: EvmRunner;

test.before(async () => {
  runner = await EvmRunner.create(CHAIN_ID);
});

async function deploy(ledger: EvmLedger, state: EvmChanges, at: string, c: typeof token, args: unknown[]): Promise<EvmRun> {
  const init = hexToBytes(encodeDeployData({ abi: abiOf(c), bytecode: c.bytecode, args }));
  const run = await runner.run(ledger, { caller: at, to: at, data: new Uint8Array(0), code: init, value: 0n, gasLimit: 10_000_000n, height: 2n, timestamp: 1_700_000_000n });
  if (run.end === 'return') {
    mergeChanges(state, run.changes);
    state.code.set(at, run.returnData);
  }
  return run;
}

function call(ledger: EvmLedger, c: typeof token, to: string, from: string, functionName: string, args: unknown[] = []) {
  const data = hexToBytes(encodeFunctionData({ abi: abiOf(c), functionName, args }));
  return runner.run(ledger, { caller: from, to, data, value: 0n, gasLimit: 1_000_000n, height: 3n, timestamp: 1_700_000_001n });
}

const decode = (c: typeof token, functionName: string, run: EvmRun) => decodeFunctionResult({ abi: abiOf(c), functionName, data: `0x${bytesToHex(run.returnData)}` });

test('addresses: a ThePower address is its number in 20 bytes, and back; any 20 bytes are an EVM key', () => {
  assert.is(owner, '000000000000000000000000' + bytesToHex(addressFromText('AA100000001677721780')));
  assert.equal(powerAddress(owner), addressFromText('AA100000001677721780'));
  assert.is(powerAddress(stranger), undefined);
  assert.is(parseEvmAddress('0x' + owner.toUpperCase(), 'a'), owner);
  assert.is(parseEvmAddress('AA100000001677721780', 'a'), owner);
  assert.is(parseEvmAddress('0x' + owner.slice(24), 'a'), owner);
  for (const bad of ['0x1234', 'AA100000001677721781', 42, '0x' + 'g'.repeat(40)]) {
    assert.throws(
      () => parseEvmAddress(bad, 'a'),
      (e: { code?: string }) => e.code === 'BAD_REQUEST_PARAM',
      String(bad),
    );
  }
});

test('ERC-20: deployed in place with constructor arguments; views, a transfer, its event and the change set', async () => {
  const { ledger, state } = memoryLedger();
  state.accounts.set(owner, { balance: 10n ** 15n, nonce: 0n });
  const made = await deploy(ledger, state, owner, token, ['Test token', 'TTK', 1_000_000n]);
  assert.is(made.end, 'return');
  assert.is(bytesToHex(made.returnData), token.deployedBytecode.slice(2), 'the deploy returns the runtime code');
  assert.is(made.logs.length, 1, 'the constructor emits the mint Transfer');
  assert.is(decode(token, 'name', await call(ledger, token, owner, stranger, 'name')), 'Test token');
  assert.is(decode(token, 'balanceOf', await call(ledger, token, owner, stranger, 'balanceOf', ['0x' + owner])), 1_000_000n);

  const sent = await call(ledger, token, owner, owner, 'transfer', ['0x' + bob, 250n]);
  assert.is(sent.end, 'return');
  assert.ok(sent.gasUsed > 21_000n && sent.gasUsed < 100_000n, `gas ${sent.gasUsed}`);
  assert.is(sent.logs.length, 1);
  const event = decodeEventLog({ abi: abiOf(token), topics: sent.logs[0].topics.map((t) => `0x${bytesToHex(t)}`) as [`0x${string}`], data: `0x${bytesToHex(sent.logs[0].data)}` });
  assert.equal(event.eventName, 'Transfer');
  assert.equal(event.args, { from: '0x' + owner, to: '0x' + bob, value: 250n });
  assert.is(sent.logs[0].address, owner);
  // Two balances changed: two slots in the change set, nothing else.
  assert.is(sent.changes.storage.get(owner)?.size, 2);
  assert.is(sent.changes.code.size, 0);
  // Before the change set is applied, the ledger still shows the old balance.
  assert.is(decode(token, 'balanceOf', await call(ledger, token, owner, stranger, 'balanceOf', ['0x' + bob])), 0n);
  mergeChanges(state, sent.changes);
  assert.is(decode(token, 'balanceOf', await call(ledger, token, owner, stranger, 'balanceOf', ['0x' + bob])), 250n);
  assert.is(decode(token, 'balanceOf', await call(ledger, token, owner, stranger, 'balanceOf', ['0x' + owner])), 999_750n);
});

test('ERC-20: a revert keeps its reason, emits nothing and changes nothing; the environment is the block', async () => {
  const { ledger, state } = memoryLedger();
  await deploy(ledger, state, owner, token, ['T', 'T', 10n]);
  const refused = await call(ledger, token, owner, bob, 'transfer', ['0x' + owner, 11n]);
  assert.is(refused.end, 'revert');
  assert.is(bytesToHex(refused.returnData).slice(0, 8), '08c379a0');
  assert.equal(refused.logs, []);
  assert.is(refused.changes.storage.size + refused.changes.accounts.size + refused.changes.code.size, 0);
  assert.ok(refused.gasUsed > 0n);
  const minted = await call(ledger, token, owner, bob, 'mint', ['0x' + bob, 1n]);
  assert.is(minted.end, 'revert');
  const [chain, height, time, self] = decode(token, 'env', await call(ledger, token, owner, stranger, 'env')) as [bigint, bigint, bigint, string];
  assert.equal([chain, height, time, self.toLowerCase()], [CHAIN_ID, 3n, 1_700_000_001n, '0x' + owner]);
});

test('ERC-20: out of gas is an error that uses the whole limit and changes nothing', async () => {
  const { ledger, state } = memoryLedger();
  await deploy(ledger, state, owner, token, ['T', 'T', 10n]);
  const data = hexToBytes(encodeFunctionData({ abi: abiOf(token), functionName: 'transfer', args: ['0x' + bob, 1n] }));
  const run = await runner.run(ledger, { caller: owner, to: owner, data, value: 0n, gasLimit: 5_000n, height: 3n, timestamp: 1n });
  assert.is(run.end, 'error');
  assert.is(run.error, 'out_of_gas');
  assert.is(run.gasUsed, 5_000n);
  assert.is(run.changes.storage.size, 0);
});

test('ERC-721: mint, approve, transfer by the approved, custom error and Error(string) reverts', async () => {
  const { ledger, state } = memoryLedger();
  const made = await deploy(ledger, state, owner, collectible, ['Cards', 'CRD']);
  assert.is(made.end, 'return');
  const apply = (run: EvmRun) => {
    assert.is(run.end, 'return', `run ended ${run.end} ${bytesToHex(run.returnData)}`);
    mergeChanges(state, run.changes);
    return run;
  };
  const mint = apply(await call(ledger, collectible, owner, owner, 'mint', ['0x' + bob]));
  assert.is(decode(collectible, 'mint', mint), 1n);
  assert.is(mint.logs[0].topics.length, 4, 'Transfer has three indexed topics');
  apply(await call(ledger, collectible, owner, owner, 'mint', ['0x' + bob]));
  assert.is(decode(collectible, 'balanceOf', await call(ledger, collectible, owner, stranger, 'balanceOf', ['0x' + bob])), 2n);
  assert.is((decode(collectible, 'ownerOf', await call(ledger, collectible, owner, stranger, 'ownerOf', [2n])) as string).toLowerCase(), '0x' + bob);
  assert.is(decode(collectible, 'tokenURI', await call(ledger, collectible, owner, stranger, 'tokenURI', [2n])), 'tpkit://collectible/2');
  assert.is(decode(collectible, 'supportsInterface', await call(ledger, collectible, owner, stranger, 'supportsInterface', ['0x80ac58cd'])), true);

  const notAllowed = await call(ledger, collectible, owner, stranger, 'transferFrom', ['0x' + bob, '0x' + stranger, 1n]);
  assert.is(notAllowed.end, 'revert');
  assert.ok(Buffer.from(notAllowed.returnData).toString('latin1').includes('caller is not owner nor approved'));
  apply(await call(ledger, collectible, owner, bob, 'approve', ['0x' + stranger, 1n]));
  apply(await call(ledger, collectible, owner, stranger, 'transferFrom', ['0x' + bob, '0x' + stranger, 1n]));
  assert.is((decode(collectible, 'ownerOf', await call(ledger, collectible, owner, stranger, 'ownerOf', [1n])) as string).toLowerCase(), '0x' + stranger);
  assert.is(decode(collectible, 'getApproved', await call(ledger, collectible, owner, stranger, 'getApproved', [1n])), '0x0000000000000000000000000000000000000000');

  const custom = await call(ledger, collectible, owner, bob, 'mint', ['0x' + bob]);
  assert.is(custom.end, 'revert');
  const selector = bytesToHex(
    hexToBytes(
      encodeFunctionData({
        abi: [{ type: 'function', name: 'NotOwner', inputs: [{ type: 'address', name: 'caller' }], outputs: [], stateMutability: 'nonpayable' }],
        functionName: 'NotOwner',
        args: [`0x${bob}`],
      }),
    ),
  );
  assert.is(bytesToHex(custom.returnData), selector, 'the custom error NotOwner(bob), as encoded');
  const missing = await call(ledger, collectible, owner, stranger, 'ownerOf', [99n]);
  assert.is(missing.end, 'revert');
});

test('value moves with a call as balances, and goes back with a revert', async () => {
  const { ledger, state } = memoryLedger();
  state.accounts.set(bob, { balance: 1_000n, nonce: 0n });
  await deploy(ledger, state, owner, token, ['T', 'T', 10n]);
  // Token has no payable function: a call with value reverts and the value stays with bob.
  const data = hexToBytes(encodeFunctionData({ abi: abiOf(token), functionName: 'transfer', args: ['0x' + bob, 1n] }));
  const run = await runner.run(ledger, { caller: bob, to: owner, data, value: 7n, gasLimit: 100_000n, height: 3n, timestamp: 1n });
  assert.is(run.end, 'revert');
  assert.is(run.changes.accounts.size, 0);
  // A plain value transfer to an account without code moves it.
  const paid = await runner.run(ledger, { caller: bob, to: stranger, data: new Uint8Array(0), value: 7n, gasLimit: 100_000n, height: 3n, timestamp: 1n });
  assert.is(paid.end, 'return');
  assert.equal(paid.changes.accounts.get(bob), { balance: 993n, nonce: 0n });
  assert.equal(paid.changes.accounts.get(stranger), { balance: 7n, nonce: 0n });
  const broke = await runner.run(ledger, { caller: stranger, to: bob, data: new Uint8Array(0), value: 1n, gasLimit: 100_000n, height: 3n, timestamp: 1n });
  assert.is(broke.end, 'error', 'no balance, no transfer');
});

test('an Ethereum create derives its address from the sender and nonce, and bumps the nonce', async () => {
  const { ledger, state } = memoryLedger();
  state.accounts.set(stranger, { balance: 0n, nonce: 5n });
  const init = hexToBytes(encodeDeployData({ abi: abiOf(token), bytecode: token.bytecode, args: ['E', 'E', 3n] }));
  const run = await runner.run(ledger, { caller: stranger, data: init, value: 0n, gasLimit: 10_000_000n, bumpNonce: true, height: 3n, timestamp: 1n });
  assert.is(run.end, 'return');
  assert.ok(run.created && run.created.length === 40);
  // viem's getContractAddress computes the same address from sender and nonce.
  const { getContractAddress } = await import('viem');
  assert.is(
    run.created,
    getContractAddress({ from: `0x${stranger}`, nonce: 5n })
      .slice(2)
      .toLowerCase(),
  );
  assert.is(run.changes.accounts.get(stranger)?.nonce, 6n);
  assert.is(bytesToHex(run.changes.code.get(run.created!)!), token.deployedBytecode.slice(2));
});

test('SELFDESTRUCT to another account: the balance of the contract moves to it and the contract keeps none', async () => {
  const { ledger, state } = memoryLedger();
  const doomed = 'dd'.repeat(20);
  const heir = 'ee'.repeat(20);
  // PUSH20 heir, SELFDESTRUCT
  state.code.set(doomed, hexToBytes('73' + heir + 'ff'));
  state.accounts.set(doomed, { balance: 7n, nonce: 1n });
  const run = await runner.run(ledger, { caller: stranger, to: doomed, data: new Uint8Array(0), value: 0n, gasLimit: 100_000n, height: 3n, timestamp: 1n });
  assert.is(run.end, 'return');
  assert.equal(run.changes.accounts.get(doomed), { balance: 0n, nonce: 1n });
  assert.equal(run.changes.accounts.get(heir), { balance: 7n, nonce: 0n });
});

test('the state manager answers the interface methods this EVM version leaves uncalled: code size, a 32-byte zero state root', async () => {
  const manager = new LedgerStateManager(await loadEvm());
  const at = (key: string) => ({ toString: () => '0x' + key });
  manager.begin({ account: () => undefined, code: (key) => (key === owner ? new Uint8Array(37) : undefined), storage: () => undefined });
  assert.is(await manager.getCodeSize(at(owner)), 37);
  assert.is(await manager.getCodeSize(at(stranger)), 0, 'no code: size 0');
  assert.equal(await manager.getStateRoot(), new Uint8Array(32));
});

test('a run whose ledger read throws rejects with that error, and the runner goes on with the next run', async () => {
  const broken: EvmLedger = {
    account: () => undefined,
    code: () => {
      throw new Error('store read failed');
    },
    storage: () => undefined,
  };
  const failed = runner.run(broken, { caller: stranger, to: owner, data: new Uint8Array(0), value: 0n, gasLimit: 100_000n, height: 3n, timestamp: 1n });
  const { ledger, state } = memoryLedger();
  const next = deploy(ledger, state, owner, token, ['N', 'N', 1n]);
  const err = await failed.then(
    () => undefined,
    (e: unknown) => e,
  );
  assert.instance(err, Error);
  assert.is((err as Error).message, 'store read failed');
  assert.is((await next).end, 'return');
  assert.is(decode(token, 'name', await call(ledger, token, owner, stranger, 'name')), 'N');
});

test('runs on one runner go one at a time: concurrent views see their own ledger', async () => {
  const a = memoryLedger();
  const b = memoryLedger();
  await deploy(a.ledger, a.state, owner, token, ['A', 'A', 1n]);
  await deploy(b.ledger, b.state, owner, token, ['B', 'B', 2n]);
  const names = await Promise.all(Array.from({ length: 20 }, (_, i) => call(i % 2 ? b.ledger : a.ledger, token, owner, stranger, 'name')));
  assert.equal(
    names.map((r) => decode(token, 'name', r)),
    Array.from({ length: 20 }, (_, i) => (i % 2 ? 'B' : 'A')),
  );
});

test.run();
