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
];
