/**
 * Deflates the embedded log's values on a worker thread. Every value is stored deflated (half the
 * bytes for 30 days of events), and node's zlib costs about 9 µs a call however small the value:
 * on 100-record ingestion that was 7 % of the event loop's busy time
 * (bench/ingestion.bench.mjs with --cpu-prof). Handing a batch to the thread costs the loop about
 * 18 µs plus 0.2 µs a value, so batches of fewer than BATCH_FOR_THREAD values are deflated in
 * place, where that is cheaper.
 *
 * Replies come back in the order of the requests (one thread, one queue), so appends made in the
 * order of the calls keep the order of the publishes. If the thread cannot start or dies, what it
 * had not answered and everything after is deflated in place: the same bytes, on the loop.
 */
import { Worker } from 'node:worker_threads';
import { packValue } from './log-values';

/** Below this many values the hop to the thread costs the loop more than deflating in place. */
export const BATCH_FOR_THREAD = 4;

// CommonJS source for the thread (eval'd, so it runs the same under ts-jest/swc and from dist). The
// answer is one buffer and the lengths of its parts, handed over without a copy.
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { deflateRawSync } = require('node:zlib');
parentPort.on('message', ({ id, values }) => {
  const parts = values.map((v) => deflateRawSync(v, { level: 1 }));
  const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  const lengths = new Uint32Array(parts.length);
  let at = 0;
  parts.forEach((p, i) => { bytes.set(p, at); at += p.length; lengths[i] = p.length; });
  parentPort.postMessage({ id, bytes, lengths }, [bytes.buffer, lengths.buffer]);
});
`;

interface Request {
  values: string[];
  resolve(packed: Buffer[]): void;
}

export class BackgroundDeflate {
  private worker: Worker | undefined;
  private failed = false;
  private readonly pending = new Map<number, Request>();
  private nextId = 1;

  /** The values deflated (the same bytes as `packValue` gives), in their order. */
  pack(values: string[]): Promise<Buffer[]> {
    const worker = values.length >= BATCH_FOR_THREAD ? this.start() : undefined;
    if (!worker) return Promise.resolve(values.map(packValue));
    const id = this.nextId++;
    // Held while an answer is due: an unref'd thread would let the process exit mid-publish.
    if (this.pending.size === 0) worker.ref();
    return new Promise((resolve) => {
      this.pending.set(id, { values, resolve });
      worker.postMessage({ id, values });
    });
  }

  /** Whether batches go to the thread (false once it failed). */
  get onThread(): boolean {
    return !this.failed;
  }

  private start(): Worker | undefined {
    if (this.worker || this.failed) return this.worker;
    try {
      const worker = new Worker(WORKER_SOURCE, { eval: true });
      worker.on('message', (m: { id: number; bytes: Uint8Array; lengths: Uint32Array }) => this.settle(m));
      worker.on('error', () => this.worker === worker && this.stop());
      worker.on('exit', () => this.worker === worker && this.stop());
      // Never what keeps a process alive on its own (after the listeners: adding one refs it again).
      worker.unref();
      this.worker = worker;
    } catch {
      this.failed = true;
    }
    return this.worker;
  }

  private settle({ id, bytes, lengths }: { id: number; bytes: Uint8Array; lengths: Uint32Array }): void {
    const request = this.pending.get(id);
    if (!request) return;
    this.pending.delete(id);
    if (this.pending.size === 0) this.worker?.unref();
    const all = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const packed: Buffer[] = [];
    let at = 0;
    for (const length of lengths) packed.push(all.subarray(at, (at += length)));
    request.resolve(packed);
  }

  /** The thread is gone: what it still owed is deflated here, in request order, and so is all after. */
  private stop(): void {
    this.failed = true;
    this.worker = undefined;
    const owed = [...this.pending.values()];
    this.pending.clear();
    for (const r of owed) r.resolve(r.values.map(packValue));
  }

  /** Ends the thread (tests); later calls deflate in place. */
  async terminate(): Promise<void> {
    const worker = this.worker;
    this.stop();
    await worker?.terminate();
  }
}

/** One thread per process, started by the first batch big enough for it. */
export const backgroundDeflate = new BackgroundDeflate();
