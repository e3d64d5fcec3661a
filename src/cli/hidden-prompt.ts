// A line read from the terminal without echo (passphrases, imported keys). The terminal is
// put in raw mode for the prompt, so nothing typed is shown. Text that was typed before the
// prompt appeared was echoed by the terminal already: it is thrown away, as getpass(3)
// flushes it, and the user is told. Lines typed ahead of a later prompt (a passphrase and
// its repetition typed at once) are kept for that prompt instead of being lost.

import { TpkitError } from '../errors.js';

/**
 * Input arriving this soon after the terminal goes raw was waiting already: typed before the
 * prompt. 40 ms let a line typed ahead through on a loaded machine (it reached the process later).
 */
const TYPED_AHEAD_MS = 150;

/** Typed after a prompt's line ended, or while the terminal was held: the next prompt's answer. */
let pending = '';

/** Whether input is read, unechoed, ahead of a prompt that is still to come. */
let held = false;
/** The first moments of a hold, when what arrives was typed (and echoed) before it. */
let settling = false;
/** Echoed text was thrown away: the next prompt says so. */
let discarded = false;

function onHeld(chunk: string): void {
  if (settling) {
    discarded = true;
    return;
  }
  if (chunk.includes('\x03')) {
    // Raw input has no Ctrl-C signal of its own: it is raised as the terminal would.
    releaseTerminal();
    process.kill(process.pid, 'SIGINT');
    return;
  }
  pending += chunk;
}

/**
 * Turns echo off now, for a prompt that comes after slower work (node checks, scrypt):
 * what is typed meanwhile is not shown, and answers the prompt. releaseTerminal() ends it.
 */
export function holdTerminal(): void {
  const stdin = process.stdin;
  if (held || !stdin.isTTY) return;
  held = true;
  settling = true;
  stdin.setRawMode(true);
  stdin.setEncoding('utf8');
  stdin.on('data', onHeld);
  stdin.resume();
  setTimeout(() => (settling = false), TYPED_AHEAD_MS).unref();
}

/** Gives the terminal back as it was (echo on, input not read), so the process can end. */
export function releaseTerminal(): void {
  if (!held) return;
  held = false;
  settling = false;
  process.stdin.off('data', onHeld);
  process.stdin.setRawMode?.(false);
  process.stdin.pause();
}

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
  // A hold hands over: its text (unechoed) is this prompt's, and its echoed text is reported.
  const wasHeld = held;
  releaseTerminal();
  return new Promise((resolve, reject) => {
    let line = '';
    let asked = false;
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
      discarded = false;
      process.stderr.write(question);
      const ahead = pending;
      pending = '';
      if (ahead) take(ahead);
    };
    stdin.setRawMode?.(true);
    stdin.setEncoding('utf8');
    stdin.on('data', onData);
    stdin.resume();
    // Echoed text can only be waiting when echo was on until now: no pause after a hold, or
    // when a line typed ahead is already here.
    if (pending || wasHeld) ask();
    else setTimeout(ask, TYPED_AHEAD_MS);
  });
}
