// The public API is a decision, not an accident: every entry's exports equal an explicit list,
// so an internal (a worker-protocol constant, a helper) that leaks into an entry fails here.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

/** What both the Node and the browser entry export. */
const CORE = [
  // errors
  'ERROR_CODES',
  'TpkitError',
  'ArgumentError',
  'DecodeError',
  'ValidationError',
  'CryptoError',
  'AbortError',
  // bytes
  'base64ToBytes',
  'bytesFromInput',
  'bytesToBase64',
  'bytesToHex',
  'compareBytes',
  'concatBytes',
  'equalBytes',
  'hexToBytes',
  // codec
  'encodeMsgpack',
  'decodeMsgpack',
  'msgpackToValue',
  'MsgExt',
  'MsgFloat',
  'Uint64',
  'MSGPACK_MAX_DEPTH',
  'MSGPACK_MAX_ITEMS',
  'KIND',
  'KIND_NAME',
  'KIND_VERSION',
  'PURPOSE',
  'PURPOSE_NAME',
  'kindName',
  'purposeName',
  'purposeNumber',
  'ADDRESS_LENGTH',
  'addressFromBigInt',
  'addressFromText',
  'addressParts',
  'addressToBigInt',
  'addressToHex',
  'addressToText',
  'isAddress',
  'makeAddress',
  'parseAddress',
  'encodeVarint',
  'decodeVarint',
  'base58Encode',
  'base58Decode',
  'encodeTxid',
  'decodeTxid',
  'genericBody',
  'notifyBody',
  'registerBody',
  'REGISTER_NONCE_WIDTH',
  'hasRegisterNonceTail',
  'setRegisterNonce',
  'chkeyBody',
  'decodeBody',
  'encodeTx',
  'decodeTx',
  'TX_VERSION',
  'feeCost',
  // crypto
  'sha256',
  'sha512',
  'keysHash',
  'generateSecretKey',
  'isValidPublicKey',
  'isValidSecretKey',
  'normalizePublicKey',
  'publicKeyOf',
  'toSecretKeyBytes',
  'PUBLIC_KEY_LENGTH',
  'SECRET_KEY_LENGTH',
  'UNCOMPRESSED_PUBLIC_KEY_LENGTH',
  'pemToPublicKey',
  'publicKeyToPem',
  'publicKeyToSpki',
  'spkiToPublicKey',
  'encodeDerSignature',
  'encodeDerSignatureBytes',
  'parseDerSignature',
  'createSigner',
  'nobleVerifyDigest',
  'signDigest',
  'BSIG_TAG',
  'bsigTagName',
  'decodeBsig',
  'encodeBsig',
  'bsigDigest',
  'signBsig',
  'verifyBsig',
  'verifyDecodedBsig',
  'addSignature',
  'signTx',
  'verifyTx',
  // proof of work
  'leadingZeroBits',
  'powBits',
  'estimateMining',
  'hashesForProbability',
  'calibrate',
  'availableKernels',
  'createKernel',
  'loadKernel',
  'KERNEL_NAMES',
  'mineBody',
  'mineRegister',
  'warmMiner',
  'minerSupport',
  // client
  'createClient',
  'ApiError',
  'NetworkError',
  'NotANodeError',
  'TimeoutError',
  'TxFailedError',
  'UnknownTxError',
  'DifficultyTooHighError',
  'feeRates',
  'chooseFeeCurrency',
  'autoFee',
  'registerWallet',
  'transfer',
];
/** Keys of the official wallets: the package root, and tpkit/browser/keys in browsers. */
const KEYS = [
  'findMnemonicKey',
  'generateMnemonic',
  'isValidMnemonic',
  'MNEMONIC_ORDERS',
  'mnemonicPath',
  'mnemonicToSecretKey',
  'normalizeMnemonic',
  'secretKeyToWif',
  'wifToSecretKey',
  'readWalletExport',
  'writeWalletExport',
];
const NODE_ONLY = ['createMinerPool', 'sharedMinerPool', 'closeSharedMinerPool'];
/** Contract deploys and calls: the Node entry only, so the browser bundle stays within its budget. */
const CONTRACTS = ['deployBody', 'deployContract', 'sendContractCall'];
const BROWSER_ONLY = ['createWebMinerPool', 'sharedWebMinerPool', 'simdSupported', 'adoptWasmModules', 'setMinerWorkerUrl', 'setKernelSource'];

const sorted = (names: Iterable<string>) => [...names].sort();

test('tpkit (Node entry) exports exactly the public list', async () => {
  const entry = await import('../../src/index.js');
  assert.equal(sorted(Object.keys(entry)), sorted([...CORE, ...KEYS, ...NODE_ONLY, ...CONTRACTS]));
});

/** The names a bundle's final export clause gives. */
function bundleExports(file: string): string[] {
  const bundle = readFileSync(fileURLToPath(new URL(`../../browser/${file}`, import.meta.url)), 'utf8');
  const clause = /export\s*\{([^}]*)\}\s*;?\s*(\/\/# sourceMappingURL=\S+\s*)?$/.exec(bundle);
  assert.ok(clause, `${file} ends in one export clause`);
  return clause[1]
    .split(',')
    .map((part) =>
      part
        .trim()
        .split(/\s+as\s+/)
        .pop()!,
    )
    .filter(Boolean);
}

test('tpkit/browser/lean (tpkit.js) exports exactly the public list', () => {
  assert.equal(sorted(bundleExports('tpkit.js')), sorted([...CORE, ...BROWSER_ONLY]));
});

test('tpkit/browser (tpkit-inline.js) exports what tpkit.js does, from tpkit.js itself', async () => {
  const inline = await import(new URL('../../browser/tpkit-inline.js', import.meta.url).href);
  const lean = await import(new URL('../../browser/tpkit.js', import.meta.url).href);
  assert.equal(sorted(Object.keys(inline)), sorted([...CORE, ...BROWSER_ONLY]));
  for (const name of Object.keys(lean)) assert.is(inline[name], lean[name], name);
});

test('tpkit/browser/keys (tpkit-keys.js) exports exactly the keys of the official wallets', () => {
  assert.equal(sorted(bundleExports('tpkit-keys.js')), sorted(KEYS));
});

const MINE = [
  'ERROR_CODES',
  'TpkitError',
  'ArgumentError',
  'DecodeError',
  'ValidationError',
  'CryptoError',
  'AbortError',
  'leadingZeroBits',
  'powBits',
  'estimateMining',
  'hashesForProbability',
  'mineBody',
  'mineRegister',
  'warmMiner',
  'minerSupport',
  ...NODE_ONLY,
];

test('tpkit/mine: its modules reach no signing, curve or client code', async () => {
  assert.equal(sorted(Object.keys(await import('../../src/mine.js'))), sorted(MINE));
  // Every module its static imports reach, from the built files.
  const seen = new Set<string>();
  const visit = (url: URL) => {
    if (seen.has(url.href)) return;
    seen.add(url.href);
    const source = readFileSync(fileURLToPath(url), 'utf8');
    for (const [, spec] of source.matchAll(/^(?:import|export)\s(?:[^'";]*?from\s+)?'([^']+)'/gm)) {
      if (spec.startsWith('.')) visit(new URL(spec, url));
      else seen.add(spec);
    }
  };
  visit(new URL('../../src/mine.js', import.meta.url));
  const reached = [...seen];
  assert.ok(reached.some((name) => name.endsWith('/pow/mine-register.js')));
  for (const heavy of ['@noble/curves', '/client/', '/crypto/sign', '/crypto/bsig', '/crypto/keys.js', 'piscina']) {
    assert.not.ok(
      reached.some((name) => name.includes(heavy)),
      `${heavy} is reached from tpkit/mine`,
    );
  }
});

test("tpkit/mine as published is one file (pow/mine-standalone.js) that shares tpkit's error classes and mines on its worker threads", async () => {
  const pkg = JSON.parse(readFileSync(fileURLToPath(new URL('../../../package.json', import.meta.url)), 'utf8'));
  assert.is(pkg.exports['./mine'].default, './dist/src/pow/mine-standalone.js');
  const url = new URL('../../src/pow/mine-standalone.js', import.meta.url);
  const source = readFileSync(fileURLToPath(url), 'utf8');
  const imports = [...source.matchAll(/^(?:import|export)\s(?:[^'";]*?from\s+)?"([^"]+)"/gm)].map((m) => m[1]);
  assert.equal(
    [...new Set(imports.filter((spec) => !spec.startsWith('node:')))].sort(),
    ['../errors.js', '../wasm/scalar.generated.js', '../wasm/simd.generated.js'],
    'only the error classes and the binaries stay outside',
  );
  const standalone = await import(url.href);
  assert.equal(sorted(Object.keys(standalone)), sorted(MINE));
  const errors = await import('../../src/errors.js');
  assert.is(standalone.TpkitError, errors.TpkitError, 'one TpkitError class');
  try {
    await standalone.mineRegister({ publicKeys: [new Uint8Array(33).fill(2)], difficulty: -1 });
    assert.unreachable('difficulty -1 accepted');
  } catch (err) {
    assert.instance(err, errors.ArgumentError);
  }
  // The pool finds its worker file from the bundle's place: two threads, the calling thread out.
  const pool = standalone.createMinerPool(2);
  try {
    const mined = await standalone.mineRegister({ publicKeys: [new Uint8Array(33).fill(2)], difficulty: 10, pool, callingThread: false });
    assert.ok(mined.bits >= 10);
    assert.is(mined.callingThreadHashes, 0);
  } finally {
    await pool.destroy();
  }
});

test('tpkit as published is one file that shares the error classes and loads its heavy dependencies on first use', async () => {
  const url = new URL('../../src/index.js', import.meta.url);
  const source = readFileSync(fileURLToPath(url), 'utf8');
  const imports = [...source.matchAll(/(?:^|[;}])\s*(?:import|export)\s*(?:[^'";]*?from\s*)?"([^"]+)"/gm)].map((m) => m[1]);
  assert.equal(
    [...new Set(imports.filter((spec) => !spec.startsWith('node:')))].sort(),
    ['./errors.js', './wasm/scalar.generated.js', './wasm/simd.generated.js'],
    'only the error classes and the binaries stay outside',
  );
  const errors = await import('../../src/errors.js');
  const root = await import(url.href);
  assert.is(root.TpkitError, errors.TpkitError, 'one TpkitError class');
  // A fresh process: importing evaluates no curve, cipher or BIP code; the first call that needs one loads it.
  const { execFileSync } = await import('node:child_process');
  const out = execFileSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `
    import { createRequire } from 'node:module';
    const cache = () => Object.keys(createRequire(import.meta.url).cache).filter((f) => f.includes('vendor')).map((f) => f.split('/').pop());
    const tpkit = await import(${JSON.stringify(url.href)});
    const before = cache();
    const key = tpkit.generateSecretKey();
    const tx = tpkit.signTx(tpkit.registerBody({ publicKeys: [tpkit.publicKeyOf(key)], timestamp: 1 }), key);
    console.log(JSON.stringify({ before, after: cache(), valid: tpkit.verifyTx(tx).valid }));
  `,
    ],
    { encoding: 'utf8' },
  );
  const { before, after, valid } = JSON.parse(out);
  assert.equal(before, []);
  assert.equal(after, ['noble-curves-secp256k1.cjs']);
  assert.ok(valid, 'signing through the lazily loaded curve works');
});

test('tpkit/kernels exports the embedded kernels alone', async () => {
  const entry = await import('../../src/kernels.js');
  assert.equal(sorted(Object.keys(entry)), ['compileEmbeddedKernels']);
  const modules = await entry.compileEmbeddedKernels();
  assert.instance(modules.scalar, WebAssembly.Module);
  assert.instance(modules.simd, WebAssembly.Module);
});

test('tpkit/node exports startNode only', async () => {
  const entry = await import('../../src/node/index.js');
  assert.equal(Object.keys(entry), ['startNode']);
});

test('no internal leaks: worker-protocol constants and helpers stay inside', async () => {
  const entry = (await import('../../src/index.js')) as Record<string, unknown>;
  for (const name of [
    'RUNNING',
    'SOLVED',
    'ABORTED',
    'PROBE_EVERY',
    'runSearchTask',
    'searchNonce',
    'mineRange',
    'checkKernelChoice',
    'describeValue',
    'integerValue',
    'crc32',
    'encodeTlv',
    'isLoopbackHost',
  ]) {
    assert.not.ok(name in entry, name);
  }
});

test.run();
