// A line read from the terminal without echo (passphrases, imported keys). The terminal is
// put in raw mode for the prompt, so nothing typed is shown. Text that was typed before the
// prompt appeared was echoed by the terminal already: it is thrown away, as getpass(3)
// flushes it, and the user is told. Lines typed ahead of a later prompt (a passphrase and
// its repetition typed at once) are kept for that prompt instead of being lost.

import { TpkitError } from '../errors.js';

/** Input arriving this soon after the terminal goes raw was waiting already: typed before the prompt. */
const TYPED_AHEAD_MS = 40;

/** Typed after a prompt's line ended: the next prompt's answer. */
let pending = '';

/** Applies the keys of a raw terminal to `line`: erase, kill, and where the line ends. */
function edit(line: string, chunk: string): { line: string; done: boolean; rest: string; interrupted: boolean } {
  for (let i = 0; i < chunk.length; i++) {
    const c = chunk[i];
    if (c === '\r' || c === '\n') {
      // \r\n from a terminal that sends both is one line end.
      const rest = chunk.slice(c === '\r' && chunk[i + 1] === '\n' ? i + 2 : i + 1);
      return { line, done: true, rest, interrupted: false };
    }
    if (c === '\x03') return { line, done: false, rest: '', interrupted: true };
    if (c === '\x04' && line === '') return { line, done: true, rest: '', interrupted: false };
    if (c === '\x7f' || c === '\b') line = [...line].slice(0, -1).join('');
    else if (c === '\x15') line = '';
    else if (c >= ' ' || c === '\t') line += c;
  }
  return { line, done: false, rest: '', interrupted: false };
}

/** Reads one line from the terminal without echoing it; `question` goes to stderr. */
export function promptHidden(question: string): Promise<string> {
  const stdin = process.stdin;
  return new Promise((resolve, reject) => {
    let line = '';
    let asked = false;
    let discarded = false;
    const restore = () => {
      stdin.off('data', onData);
      stdin.setRawMode?.(false);
      stdin.pause();
    };
    const finish = (answer: string) => {
      restore();
      process.stderr.write('\n');
      resolve(answer);
    };
    const take = (chunk: string) => {
      const step = edit(line, chunk);
      line = step.line;
      if (step.interrupted) {
        restore();
        process.stderr.write('\n');
        reject(new TpkitError('ABORTED', 'Operation aborted', { details: 'prompt interrupted' }));
      } else if (step.done) {
        pending = step.rest;
        finish(line);
      }
    };
    const onData = (chunk: string) => {
      if (!asked) {
        discarded = true;
        return;
      }
      take(chunk);
    };
    const ask = () => {
      asked = true;
      if (discarded) process.stderr.write('(text typed before the prompt was shown on the screen, so it is ignored; type it at the prompt)\n');
      process.stderr.write(question);
      const ahead = pending;
      pending = '';
      if (ahead) take(ahead);
    };
    stdin.setRawMode?.(true);
    stdin.setEncoding('utf8');
    stdin.on('data', onData);
    stdin.resume();
    // Only the first prompt can meet echoed text: later ones follow without a pause.
    if (pending) ask();
    else setTimeout(ask, TYPED_AHEAD_MS);
  });
}
