// A minimal HTTP/1.1 keep-alive client for the load generator: requests are pre-serialized
// bytes, answers are read by Content-Length. It does a fraction of node:http's work per
// request (~85 us of CPU per request here), so on a 2-core machine more CPU is left to the
// node under test, as with wrk or autocannon.

import net from 'node:net';

export interface RawAnswer {
  status: number;
  body: string;
}

export function postRequest(host: string, path: string, json: string): Buffer {
  const body = Buffer.from(json);
  return Buffer.concat([Buffer.from(`POST ${path} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`), body]);
}

export function getRequest(host: string, path: string): Buffer {
  return Buffer.from(`GET ${path} HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
}

const HEADER_END = Buffer.from('\r\n\r\n');

/** One keep-alive connection; requests on it go one at a time. */
export class RawConnection {
  private socket: net.Socket;
  private buffer: Buffer = Buffer.alloc(0);
  private waiting: ((answer: RawAnswer) => void) | undefined;
  private failed: ((err: Error) => void) | undefined;

  private constructor(socket: net.Socket) {
    this.socket = socket;
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => {
      this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
      this.tryAnswer();
    });
    socket.on('error', (err) => this.failed?.(err));
    socket.on('close', () => this.failed?.(new Error('connection closed')));
  }

  static open(port: number, host = '127.0.0.1'): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, host, () => resolve(new RawConnection(socket)));
      socket.once('error', reject);
    });
  }

  private tryAnswer(): void {
    const end = this.buffer.indexOf(HEADER_END);
    if (end < 0 || !this.waiting) return;
    const head = this.buffer.subarray(0, end).toString('latin1');
    const status = Number(head.slice(9, 12));
    const m = /\r\ncontent-length: *(\d+)/i.exec(head);
    const length = m ? Number(m[1]) : 0;
    const total = end + 4 + length;
    if (this.buffer.length < total) return;
    const body = this.buffer.subarray(end + 4, total).toString();
    this.buffer = this.buffer.subarray(total);
    const resolve = this.waiting;
    this.waiting = undefined;
    this.failed = undefined;
    resolve({ status, body });
  }

  request(bytes: Buffer): Promise<RawAnswer> {
    return new Promise((resolve, reject) => {
      this.waiting = resolve;
      this.failed = reject;
      this.socket.write(bytes);
    });
  }

  close(): void {
    this.socket.destroy();
  }
}
