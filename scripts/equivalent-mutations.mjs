// Fresh mutations shown to change nothing a caller can observe, each with the reason. The
// mutation run lists a drawn mutation that matches one here (same file, same line before and
// after) as equivalent, with its reason, and leaves it out of the kill rate. An entry stays only
// while the reason holds: when the code around it changes, the entry stops matching and the
// mutation is run again.
//
// { file, original, mutated, why }: `original` and `mutated` are the trimmed line, as the run
// prints them ("original  ->  mutated").
export const EQUIVALENT = [
  {
    file: 'src/node/base/json-bytes.ts',
    original: 'if (bytes > room && bytes !== s.length) {',
    mutated: 'if (bytes >= room && bytes !== s.length) {',
    why: 'a multi-byte string that fills the chunk exactly goes into a fresh chunk instead: the same bytes in the same order, only the chunk boundary moves',
  },
  {
    file: 'src/node/http/server.ts',
    original: 'if (res.headersSent || res.destroyed) return;',
    mutated: '// (check removed)',
    why: 'nothing writes before sendStream, and for a reader already gone the first chunk meets res.destroyed, throws and is dropped without a log: only one chunk of work differs',
  },
  {
    file: 'src/node/http/request-body.ts',
    original: "req.off('data', onData);",
    mutated: '// (release removed)',
    why: 'once the body settles no data event reaches the listener: it settles on end, on error or close, or pauses the request for good; its end and close listeners hold the same closure anyway',
  },
  {
    file: 'src/node/http/host-policy.ts',
    original: 'name = colon >= 0 && /^\\d{1,5}$/.test(header.slice(colon + 1)) ? header.slice(0, colon) : header;',
    mutated: 'name = colon > 0 && /^\\d{1,5}$/.test(header.slice(colon + 1)) ? header.slice(0, colon) : header;',
    why: 'a colon at 0 gives the name "" in one and ":port" in the other; both fail the name pattern, so the Host is refused the same way',
  },
  {
    file: 'src/node/http/request-body.ts',
    original: 'if (settled) return;',
    mutated: '// (check removed)',
    why: 'settling twice only removes the data listener again and resolves or rejects a promise that has already settled: neither is observable',
  },
  {
    file: 'src/node/dev/faults.ts',
    original: 'if (this.waiting.delete(timer)) clearTimeout(timer);',
    mutated: '// (release removed)',
    why: 'the timer of a held request whose client left fires once at its time (close() clears it before), runs the route on the destroyed request, which reads no body and answers nobody: nothing submitted, nothing logged (node-dev-controls-keep checks both)',
  },
  {
    file: 'src/node/ledger/chain-repair.ts',
    original: 'if (!bytes) return undefined;',
    mutated: '// (check removed)',
    why: 'without it a missing record decodes as the empty string, JSON.parse throws, and the catch below returns undefined all the same',
  },
  {
    file: 'src/node/ledger/producer.ts',
    original: 'else if (this.host.pendingCount() > 0) this.schedule();',
    mutated: 'else if (this.host.pendingCount() >= 0) this.schedule();',
    why: 'a block scheduled with nothing pending is not built: schedule() checks the pending count again before it builds',
  },
  {
    file: 'src/node/evm/runner.ts',
    original: 'const gasUsed = used - (refund < used / 5n ? refund : used / 5n);',
    mutated: 'const gasUsed = used - (refund <= used / 5n ? refund : used / 5n);',
    why: 'when the refund is exactly a fifth of the gas used, both branches subtract the same amount',
  },
  {
    file: 'src/node/evm/runner.ts',
    original: 'this.state.finish();',
    mutated: '// (restore removed)',
    why: 'a failed or thrown run returns empty changes of its own; what it left in the state manager is only ever read by a run, and the next run\'s begin() replaces the changes and the journal before it reads anything (runs on a runner are serialized)',
  },
  {
    file: 'src/node/evm/eth-chain-id.ts',
    original: 'if (!field || field.end > outer.end) return undefined;',
    mutated: 'if (!field || field.end >= outer.end) return undefined;',
    why: 'a field before the wanted one that ends exactly at the end of its list leaves the wanted field at or past that end: absent (undefined) or ending beyond the list, which the check after the loop refuses; undefined either way',
  },
  {
    file: 'src/node/evm/logs.ts',
    original: 'if (accepted && (i >= log.topics.length || !accepted.has(log.topics[i]))) return false;',
    mutated: 'if (accepted && (i > log.topics.length || !accepted.has(log.topics[i]))) return false;',
    why: 'at i equal to the number of topics, log.topics[i] is undefined and the accepted set holds only 64-digit strings, so !accepted.has(undefined) refuses the event all the same',
  },
  {
    file: 'src/node/evm/revert.ts',
    original: 'const length = offset === undefined || offset > BigInt(body.length) ? undefined : word(body, Number(offset));',
    mutated: 'const length = offset === undefined || offset >= BigInt(body.length) ? undefined : word(body, Number(offset));',
    why: 'an offset equal to the data length leaves no 32-byte word at it, so word() answers undefined too',
  },
  {
    file: 'src/node/evm/gas.ts',
    original: 'return left > 0n ? (left * rate.tokens) / rate.gas : 0n;',
    mutated: 'return left >= 0n ? (left * rate.tokens) / rate.gas : 0n;',
    why: 'with no gas left the formula gives (0 · tokens) / gas = 0, the value of the other branch',
  },
  {
    file: 'src/node/evm/eth-tx.ts',
    original: "const gasPrice = tx.gasPrice ?? (tx.maxPriorityFeePerGas !== undefined && tx.maxFeePerGas !== undefined ? (tx.maxPriorityFeePerGas < tx.maxFeePerGas ? tx.maxPriorityFeePerGas : tx.maxFeePerGas) : 0n);",
    mutated: "const gasPrice = tx.gasPrice ?? (tx.maxPriorityFeePerGas !== undefined && tx.maxFeePerGas !== undefined ? (tx.maxPriorityFeePerGas <= tx.maxFeePerGas ? tx.maxPriorityFeePerGas : tx.maxFeePerGas) : 0n);",
    why: 'when the tip equals the fee cap both branches are the same number',
  },
  {
    file: 'src/node/evm/state.ts',
    original: 'return new this.lib.Account(account?.nonce ?? 0n, account?.balance ?? 0n, this.lib.KECCAK256_RLP, this.codeHash(code), code?.length ?? 0);',
    mutated: 'return new this.lib.Account(account?.nonce ?? 0n, account?.balance ?? 0n, this.lib.KECCAK256_RLP, this.codeHash(code), code?.length ?? 1);',
    why: "an Account's codeSize is read only by the binary-tree (verkle) state of @ethereumjs, which this EVM never uses: EXTCODESIZE, CODESIZE and the copies ask the state manager for the code itself",
  },
  {
    file: 'src/node/evm/eth-tx.ts',
    original: 'return raw.length > 0 && (raw[0] >= 0xf8 || raw[0] <= 0x7f);',
    mutated: 'return raw.length >= 0 && (raw[0] >= 0xf8 || raw[0] <= 0x7f);',
    why: 'for no bytes raw[0] is undefined, and undefined is neither >= 0xf8 nor <= 0x7f: false either way',
  },
  {
    file: 'src/node/evm/runner.ts',
    original: 'prevRandao: new Uint8Array(32),',
    mutated: 'prevRandao: new Uint8Array(33),',
    why: 'PREVRANDAO reads the bytes as a number: any count of zero bytes is 0',
  },
  {
    file: 'src/node/evm/state.ts',
    original: 'return this.readStorage(keyOf(address), bytesToHex(key)) ?? new Uint8Array(0);',
    mutated: 'return this.readStorage(keyOf(address), bytesToHex(key)) ?? new Uint8Array(1);',
    why: 'SLOAD reads the bytes as a number and the SSTORE gas rules pad them to a 32-byte word first, so an absent slot is 0 either way; the one reader of the bare length, EIP-8037, is not active in the hardfork this EVM runs',
  },
  {
    file: 'src/node/evm/jsonrpc.ts',
    original: 'return hex(intrinsicGas(message.data, message.to === undefined) + (gas < CALL_GAS ? gas : CALL_GAS));',
    mutated: 'return hex(intrinsicGas(message.data, message.to === undefined) + (gas <= CALL_GAS ? gas : CALL_GAS));',
    why: 'when the estimate equals the view limit both branches are the same number',
  },
];
