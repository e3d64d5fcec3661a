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
    file: 'src/node/api/ws-hub.ts',
    original: 'await writeFullBlock(out, chain, record, undefined, new Map(txs.map((tx) => [tx.txid, tx.raw])));',
    mutated: 'writeFullBlock(out, chain, record, undefined, new Map(txs.map((tx) => [tx.txid, tx.raw])));',
    why: 'writeFullBlock awaits only the store read of a transaction missing from the map it is given, and no flush is passed; the map holds the committed block\'s own transactions, which are exactly record.txs (block-builder makes record.txs from them), so it runs to its end before it returns and the message is whole either way',
  },
  {
    file: 'src/node/http/server.ts',
    original: 'server.closeIdleConnections();',
    mutated: '// (call removed)',
    why: 'on Node 19 and later (engines: >=20) http.Server.close() itself closes the idle connections; the call only repeats it',
  },
  {
    file: 'src/node/http/server.ts',
    original: "res.off('drain', onDrain);",
    mutated: '// (release removed)',
    why: "the drain listener is a once listener: when drain settles the wait it is already gone; when close or the stall timer settles it, the response is closed or destroyed and never drains again, so the leftover listener never runs and goes with the response",
  },
  {
    file: 'src/node/http/server.ts',
    original: 'req.destroy();',
    mutated: '// (release removed)',
    why: 'readBody rejects with anything but a BodyTooLarge only on the request\'s close before completion or its error, both of which come from a connection already closed or reset: destroying that request again reaches no client',
  },
];
