/**
 * Deflates and inflates the embedded log's values on a worker thread. Every value is stored
 * deflated (half the bytes for 30 days of events), and node's zlib costs about 9 µs a deflate and
 * 5 µs an inflate however small the value: on 100-record ingestion that was 12 % of the event
 * loop's busy time (bench/ingestion.bench.mjs with --cpu-prof), and a long replay inflates every
 * message it sends. Handing a batch to the thread costs the loop about 18 µs plus well under 1 µs a
 * value, so smaller batches than the thresholds below are handled in place, where that is cheaper.
 *
 * Answers come back in the order of the requests (one thread, one queue), so appends made in the
 * order of the calls keep the order of the publishes. If the thread cannot start or dies, what it
 * had not answered and everything after is done in place: the same bytes, on the loop.
 */
import type { Worker } from 'node:worker_threads';
import { startHelperThread } from '@wellstream/sqlite';
import { packValue, unpackValue } from './log-values';

/** Below this many values the hop to the thread costs the loop more than deflating in place. */
export const PACK_ON_THREAD_FROM = 4;
/** Inflating costs half as much as deflating, so the hop pays from twice as many values. */
export const UNPACK_ON_THREAD_FROM = 8;

// CommonJS source for the thread (libs/sqlite's startHelperThread).
// Bytes travel as one buffer and the lengths of its parts, handed over without a copy.
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { deflateRawSync, inflateRawSync } = require('node:zlib');
parentPort.on('message', (m) => {
  if (m.values) {
    const parts = m.values.map((v) => deflateRawSync(v, { level: 1 }));
    const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    const lengths = new Uint32Array(parts.length);
    let at = 0;
    parts.forEach((p, i) => { bytes.set(p, at); at += p.length; lengths[i] = p.length; });
    parentPort.postMessage({ id: m.id, bytes, lengths }, [bytes.buffer, lengths.buffer]);
  } else {
    const all = Buffer.from(m.bytes.buffer, m.bytes.byteOffset, m.bytes.byteLength);
    const values = [];
    let at = 0;
    for (const length of m.lengths) values.push(inflateRawSync(all.subarray(at, (at += length))).toString('utf8'));
    parentPort.postMessage({ id: m.id, values });
  }
});
`;

type Answer = { id: number; bytes: Uint8Array; lengths: Uint32Array } | { id: number; values: string[] };

interface Request {
  /** Does the work in place (the thread is gone) and settles the caller. */
  inPlace(): void;
  settle(answer: Answer): void;
}

/** Parts of one buffer, and the buffer with the lengths that rebuild them. */
const joined = (parts: Buffer[]) => {
  const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  const lengths = new Uint32Array(parts.length);
  let at = 0;
  parts.forEach((p, i) => {
    bytes.set(p, at);
    at += p.length;
    lengths[i] = p.length;
  });
  return { bytes, lengths };
};

const split = (bytes: Uint8Array, lengths: Uint32Array): Buffer[] => {
  const all = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const parts: Buffer[] = [];
  let at = 0;
  for (const length of lengths) parts.push(all.subarray(at, (at += length)));
  return parts;
};

export class BackgroundZlib {
  private worker: Worker | undefined;
  private failed = false;
  private readonly pending = new Map<number, Request>();
  private nextId = 1;

  /** The values deflated (the same bytes as `packValue` gives), in their order. */
  pack(values: string[]): Promise<Buffer[]> {
    if (values.length < PACK_ON_THREAD_FROM) return Promise.resolve(values.map(packValue));
    return this.ask(
      { values },
      [],
      () => values.map(packValue),
      (a) => ('bytes' in a ? split(a.bytes, a.lengths) : []),
    );
  }

  /** Stored values as text (`unpackValue` of each), in their order. */
  unpack(stored: (string | Buffer)[]): Promise<string[]> {
    const packed = stored.filter((s): s is Buffer => typeof s !== 'string');
    if (packed.length < UNPACK_ON_THREAD_FROM) return Promise.resolve(stored.map(unpackValue));
    const { bytes, lengths } = joined(packed);
    return this.ask({ bytes, lengths }, [bytes.buffer, lengths.buffer], () => stored.map(unpackValue), (a) => {
      const texts = 'values' in a ? a.values : [];
      let next = 0;
      return stored.map((s) => (typeof s === 'string' ? s : texts[next++]));
    });
  }

  /** Whether big batches go to the thread (false once it failed). */
  get onThread(): boolean {
    return !this.failed;
  }

  private ask<T>(message: object, transfer: ArrayBuffer[], inPlace: () => T, fromAnswer: (a: Answer) => T): Promise<T> {
    const worker = this.start();
    if (!worker) return Promise.resolve(inPlace());
    const id = this.nextId++;
    // Held while an answer is due: an unref'd thread would let the process exit mid-publish.
    if (this.pending.size === 0) worker.ref();
    return new Promise((resolve) => {
      this.pending.set(id, { inPlace: () => resolve(inPlace()), settle: (a) => resolve(fromAnswer(a)) });
      worker.postMessage({ id, ...message }, transfer);
    });
  }

  private start(): Worker | undefined {
    if (this.worker || this.failed) return this.worker;
    this.worker = startHelperThread<Answer>(WORKER_SOURCE, {
      onMessage: (a) => this.settle(a),
      onLost: (worker) => this.worker === worker && this.stop(),
    });
    this.failed = !this.worker;
    return this.worker;
  }

  private settle(answer: Answer): void {
    const request = this.pending.get(answer.id);
    if (!request) return;
    this.pending.delete(answer.id);
    if (this.pending.size === 0) this.worker?.unref();
    request.settle(answer);
  }

  /** The thread is gone: what it still owed is done here, in request order, and so is all after. */
  private stop(): void {
    this.failed = true;
    this.worker = undefined;
    const owed = [...this.pending.values()];
    this.pending.clear();
    for (const r of owed) r.inPlace();
  }

  /** Ends the thread (tests); later calls work in place. */
  async terminate(): Promise<void> {
    const worker = this.worker;
    this.stop();
    await worker?.terminate();
  }
}

/** One thread per process, started by the first batch big enough for it. */
export const backgroundZlib = new BackgroundZlib();
