/**
 * A minimal sequential keep-alive HTTP/1.1 client over one socket, for benchmarks: it costs far less
 * CPU per request than fetch or http.request, so the figures measure the hub rather than the client.
 */
import { connect, type Socket } from 'node:net';

export class RawClient {
  private buffer: Buffer = Buffer.alloc(0);
  private waiting: ((body: string) => void) | null = null;

  /** The Host header: the hub answers only the names it serves (DNS rebinding: common/site.ts). */
  private readonly host: string;

  private constructor(
    private readonly socket: Socket,
    host: string,
    port: number,
  ) {
    this.host = `${host.includes(':') ? `[${host}]` : host}:${port}`;
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => {
      this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
      this.drain();
    });
  }

  static open(port: number, host = '127.0.0.1'): Promise<RawClient> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, host, () => resolve(new RawClient(socket, host, port)));
      socket.once('error', reject);
    });
  }

  private drain(): void {
    const end = this.buffer.indexOf('\r\n\r\n');
    if (end < 0 || !this.waiting) return;
    const head = this.buffer.subarray(0, end).toString('latin1');
    const length = Number(/content-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
    if (this.buffer.length < end + 4 + length) return;
    const body = this.buffer.subarray(end + 4, end + 4 + length).toString('utf8');
    this.buffer = this.buffer.subarray(end + 4 + length);
    const resolve = this.waiting;
    this.waiting = null;
    resolve(body);
  }

  /** GET with the answer's status and body text (for latency figures). */
  get(path: string): Promise<string> {
    return new Promise<string>((resolve) => {
      this.waiting = resolve;
      this.socket.write(Buffer.from(`GET ${path} HTTP/1.1\r\nHost: ${this.host}\r\n\r\n`, 'latin1'));
    });
  }

  post<T>(path: string, body: unknown): Promise<T> {
    const data = Buffer.from(JSON.stringify(body));
    return new Promise<string>((resolve) => {
      this.waiting = resolve;
      // One write per request, as undici does (it corks the socket around head and body): one packet.
      this.socket.write(Buffer.concat([Buffer.from(`POST ${path} HTTP/1.1\r\nHost: ${this.host}\r\nContent-Type: application/json\r\nContent-Length: ${data.length}\r\n\r\n`, 'latin1'), data]));
    }).then((text) => JSON.parse(text) as T);
  }

  close(): void {
    this.socket.end();
  }
}
