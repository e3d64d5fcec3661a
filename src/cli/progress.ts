// A one-line progress display on stderr for long CLI commands (mining, benchmarks,
// node sync): a bar when the total is known, a spinner when it is not, always with a
// caller-supplied status text. It draws only on a terminal and at most ten times a
// second, so piped output and CI logs stay clean and stdout stays machine-readable.

export interface ProgressOptions {
  /** Text before the bar, e.g. the command name. */
  label?: string;
  /** Units of work in all; leave out for an open-ended task. */
  total?: number;
  /** Where to draw (default process.stderr). */
  stream?: NodeJS.WriteStream;
  /** Bar width in characters (default 24). */
  width?: number;
  /** Milliseconds now (default Date.now); tests pass a fake clock. */
  clock?: () => number;
}

const SPINNER = ['|', '/', '-', '\\'];
const REDRAW_MS = 100;

export class Progress {
  readonly #label: string;
  readonly #stream: NodeJS.WriteStream;
  readonly #width: number;
  readonly #enabled: boolean;
  readonly #clock: () => number;
  #total: number | undefined;
  #done = 0;
  #status = '';
  #lastDraw = -Infinity;
  #frame = 0;
  #visible = false;

  constructor(options: ProgressOptions = {}) {
    this.#label = options.label ?? '';
    this.#stream = options.stream ?? process.stderr;
    this.#width = options.width ?? 24;
    this.#total = options.total;
    this.#clock = options.clock ?? Date.now;
    this.#enabled = Boolean(this.#stream.isTTY);
  }

  /** True when this stream is a terminal and the display is drawn. */
  get enabled(): boolean {
    return this.#enabled;
  }

  setTotal(total: number | undefined): void {
    this.#total = total;
    this.#draw(true);
  }

  /** Sets the units done and, optionally, the status text. */
  update(done: number, status?: string): void {
    this.#done = done;
    if (status !== undefined) this.#status = status;
    this.#draw(false);
  }

  /** Adds units done. */
  tick(units = 1, status?: string): void {
    this.update(this.#done + units, status);
  }

  /** Changes only the status text. */
  status(text: string): void {
    this.#status = text;
    this.#draw(false);
  }

  /** Erases the line (call before printing anything else to the same stream). */
  clear(): void {
    if (this.#enabled && this.#visible) this.#stream.write('\r\x1b[2K');
    this.#visible = false;
  }

  /** Erases the line and, when given, prints a final message on it. */
  finish(message?: string): void {
    this.clear();
    if (message !== undefined && this.#enabled) this.#stream.write(`${message}\n`);
  }

  #draw(force: boolean): void {
    if (!this.#enabled) return;
    const now = this.#clock();
    if (!force && now - this.#lastDraw < REDRAW_MS) return;
    this.#lastDraw = now;
    let gauge: string;
    if (this.#total !== undefined && this.#total > 0) {
      const ratio = Math.min(1, Math.max(0, this.#done / this.#total));
      const filled = Math.round(ratio * this.#width);
      gauge = `[${'#'.repeat(filled)}${'-'.repeat(this.#width - filled)}] ${String(Math.floor(ratio * 100)).padStart(3)}%`;
    } else {
      gauge = SPINNER[this.#frame++ % SPINNER.length];
    }
    const columns = this.#stream.columns || 80;
    const line = [this.#label, gauge, this.#status].filter(Boolean).join(' ');
    this.#stream.write(`\r\x1b[2K${line.length > columns - 1 ? line.slice(0, columns - 1) : line}`);
    this.#visible = true;
  }
}

/**
 * The status line of a running search before its first hash: the workers are starting
 * (threads spawned, WASM compiled), so there is no rate and no time to predict yet.
 */
export function startingStatus(elapsedMs: number): string {
  return `starting the miner (workers, WebAssembly)  ${formatDuration(elapsedMs)}`;
}

/** 1234567 -> "1.23 M", for rates and counts in status lines and tables. */
export function formatCount(value: number, digits = 2): string {
  const abs = Math.abs(value);
  if (abs >= 1e9) return `${(value / 1e9).toFixed(digits)} G`;
  if (abs >= 1e6) return `${(value / 1e6).toFixed(digits)} M`;
  if (abs >= 1e3) return `${(value / 1e3).toFixed(digits)} k`;
  return value.toFixed(0);
}

/** A count with its unit, one space between number and prefixed unit: "585 H/s", "731.77 kH/s". */
export function formatUnit(value: number, unit: string, digits = 2): string {
  const count = formatCount(value, digits);
  return /[kMG]$/.test(count) ? `${count}${unit}` : `${count} ${unit}`;
}

/** Hashes per second, as every command prints them. */
export const formatRate = (hashesPerSecond: number, digits = 2): string => formatUnit(hashesPerSecond, 'H/s', digits);

/** Milliseconds as "850 ms", "3.2 s" or "4 min 10 s". */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) return '∞';
  if (ms < 10) return `${ms.toFixed(2)} ms`;
  if (ms < 100) return `${ms.toFixed(1)} ms`;
  if (ms < 1000) return `${ms.toFixed(0)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  if (ms < 3_600_000) return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
  const hours = ms / 3_600_000;
  return hours < 48 ? `${hours.toFixed(1)} h` : `${(hours / 24).toFixed(1)} days`;
}
