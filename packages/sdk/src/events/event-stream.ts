/**
 * An SSE connection (a stream's connect or the replay) as an async iterator of typed events that
 * survives drops: after a network failure, a server that ends the response, a 503/429 or silence
 * longer than `idleTimeoutMs` (a poke is due every 5 s), it reconnects with `Last-Event-ID` set to
 * the last event it handed out, waiting Retry-After or an exponential backoff with full jitter.
 * Errors a retry cannot fix (401, 404, 400, the member limit's 422) end the iteration with an
 * ApiError. An AbortSignal, `close()` or leaving a `for await` loop stops it.
 *
 * Delivery is at least once: after a reconnect the server sends again what the old connection may
 * not have read. A stream connection resumes each partition (user group) after the last event handed
 * out of it (`position`), so events of several users held by a slow consumer are all sent again. Ids are `<partition>-<offset>` and each partition's offsets only grow, so an event
 * at or before the last one handed out of its partition is one this stream had: it is skipped
 * (`keepDuplicates` to see them).
 */
import { createParser, EventSourceMessage } from 'eventsource-parser';
import { apiErrorFor, WellstreamError } from '../errors';
import { redact } from '../http-client';
import { rateLimitOf, retryAfterSeconds } from '../rate-limit';
import { backoffMs, sleep } from '../retry-policy';
import type { WellstreamEvent } from './event-types';

export interface EventStreamOptions {
  signal?: AbortSignal;
  /** Start after this event id, or (streams) after each id of a `position` kept from an earlier run. */
  lastEventId?: string;
  /** Hand out `poke` heartbeats too. Default false. */
  includePokes?: boolean;
  /** Reconnect after this long without any byte from the server, ms. Default 30 000 (pokes come every 5 s). */
  idleTimeoutMs?: number;
  /** Reconnection backoff; `maxAttempts` consecutive failures end the iteration (default: never give up). */
  reconnect?: { baseDelayMs?: number; maxDelayMs?: number; maxAttempts?: number };
  /** Called once the server answered 200 with an event stream (first connect and each reconnect). */
  onOpen?: (info: { reconnect: boolean; lastEventId: string | undefined }) => void;
  /** Called before each reconnect wait. */
  onReconnect?: (info: { attempt: number; delayMs: number; lastEventId: string | undefined; reason: string }) => void;
  /** SSE comments, e.g. `replay caught up` at the end of a replay's history. */
  onComment?: (comment: string) => void;
  /** Hand out events sent again after a reconnect too (by default skipped: see above). Default false. */
  keepDuplicates?: boolean;
}

export interface EventSource {
  /** The URL to GET (with the token); the stream adds Last-Event-ID itself. */
  url: URL;
  fetch: typeof fetch;
  /** Sent with every connection (the token as Authorization, the User-Agent). */
  headers?: Record<string, string>;
  /** Resume with every partition's last id (stream connections) rather than the last id alone (the replay). */
  resumeEachPartition?: boolean;
}

export class EventStream implements AsyncIterable<WellstreamEvent> {
  private lastId: string | undefined;
  /** Per partition, the offset of the last event handed out (duplicates are skipped against it). */
  private readonly handedOut = new Map<string, number>();
  private readonly stop = new AbortController();

  constructor(
    private readonly source: EventSource,
    private readonly options: EventStreamOptions = {},
  ) {
    const ids = options.lastEventId?.split(',').map((id) => id.trim()).filter(Boolean) ?? [];
    for (const id of ids) this.handOut(id);
    this.lastId = source.resumeEachPartition ? options.lastEventId : ids[ids.length - 1];
    options.signal?.addEventListener('abort', () => this.stop.abort(options.signal?.reason), { once: true });
  }

  /** The id of the last event handed out. */
  get lastEventId(): string | undefined {
    return this.lastId;
  }

  /**
   * Where a new connection resumes: per partition, the last event handed out, comma-separated
   * (`3-1042,7-88`). Keep it after each event you are done with and pass it back as
   * `lastEventId` after a restart: nothing after it is missed in any partition.
   */
  get position(): string | undefined {
    if (this.handedOut.size === 0) return this.lastId;
    return [...this.handedOut].sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true })).map(([p, o]) => `${p}-${o}`).join(',');
  }

  close(): void {
    this.stop.abort();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<WellstreamEvent> {
    const backoff = { baseDelayMs: 500, maxDelayMs: 30_000, maxAttempts: Infinity, ...this.options.reconnect };
    let failures = 0;
    let opened = false;
    try {
      while (!this.stop.signal.aborted) {
        let reason: string;
        let retryAfter: number | null = null;
        const attempt = new AbortController();
        const onStop = () => attempt.abort();
        this.stop.signal.addEventListener('abort', onStop, { once: true });
        try {
          const res = await this.source.fetch(this.source.url, {
            headers: { ...this.source.headers, accept: 'text/event-stream', ...(this.resumeFrom() ? { 'last-event-id': this.resumeFrom()! } : {}) },
            signal: attempt.signal,
          });
          if (res.ok && (res.headers.get('content-type') ?? '').startsWith('text/event-stream') && res.body) {
            this.options.onOpen?.({ reconnect: opened, lastEventId: this.resumeFrom() });
            opened = true;
            failures = 0;
            for await (const event of this.read(res.body, attempt)) {
              if (event.id && !this.handOut(event.id) && !this.options.keepDuplicates) continue;
              if (event.id) this.lastId = event.id;
              yield event;
            }
            reason = attempt.signal.aborted ? 'no data within the idle timeout' : 'the server ended the stream';
          } else {
            const text = await res.text().catch(() => '');
            const body = parseJson(text);
            retryAfter = retryAfterSeconds(res.headers);
            if (!(res.status === 503 || res.status === 429 || res.status >= 500)) {
              throw apiErrorFor({ status: res.status, body: body as never, method: 'GET', url: redact(this.source.url), requestId: res.headers.get('x-request-id'), rateLimit: rateLimitOf(res.headers), retryAfterSeconds: retryAfter });
            }
            reason = `HTTP ${res.status}`;
          }
        } catch (err) {
          if (this.stop.signal.aborted) return;
          if (err instanceof WellstreamError) throw err;
          reason = attempt.signal.aborted ? 'no data within the idle timeout' : `connection failed: ${(err as Error)?.message ?? err}`;
        } finally {
          this.stop.signal.removeEventListener('abort', onStop);
          attempt.abort();
        }
        if (this.stop.signal.aborted) return;
        failures++;
        if (failures > backoff.maxAttempts) throw new WellstreamError(`event stream gave up after ${backoff.maxAttempts} reconnection attempts: ${reason}`);
        const delayMs = retryAfter !== null ? retryAfter * 1000 : backoffMs(failures - 1, backoff.baseDelayMs, backoff.maxDelayMs);
        this.options.onReconnect?.({ attempt: failures, delayMs, lastEventId: this.lastId, reason });
        await sleep(delayMs, this.stop.signal).catch(() => undefined);
      }
    } finally {
      this.stop.abort();
    }
  }

  private resumeFrom(): string | undefined {
    return this.source.resumeEachPartition ? this.position : this.lastId;
  }

  /**
   * Records `id` as handed out; false when it already was (at or before the last id handed out of
   * its partition). An id not of the `<partition>-<offset>` form is always new.
   */
  private handOut(id: string): boolean {
    const at = id.lastIndexOf('-');
    const offset = Number(id.slice(at + 1));
    if (at <= 0 || !Number.isSafeInteger(offset)) return true;
    const partition = id.slice(0, at);
    if ((this.handedOut.get(partition) ?? -1) >= offset) return false;
    this.handedOut.set(partition, offset);
    return true;
  }

  /** Parses one response body with eventsource-parser; aborts `attempt` when the server falls silent. */
  private async *read(body: ReadableStream<Uint8Array>, attempt: AbortController): AsyncGenerator<WellstreamEvent> {
    const idleMs = this.options.idleTimeoutMs ?? 30_000;
    const queue: EventSourceMessage[] = [];
    const parser = createParser({ onEvent: (m) => queue.push(m), onComment: (c) => this.options.onComment?.(c.trim()) });
    const decoder = new TextDecoder();
    const reader = body.getReader();
    let idle = setTimeout(() => attempt.abort(), idleMs);
    const onAbort = () => void reader.cancel().catch(() => undefined);
    attempt.signal.addEventListener('abort', onAbort, { once: true });
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        clearTimeout(idle);
        idle = setTimeout(() => attempt.abort(), idleMs);
        parser.feed(decoder.decode(value, { stream: true }));
        while (queue.length) {
          const event = toEvent(queue.shift()!);
          if (!event || (event.type === 'poke' && !this.options.includePokes)) continue;
          // The idle timeout measures the server's silence, not the time the consumer holds an event.
          clearTimeout(idle);
          yield event;
          idle = setTimeout(() => attempt.abort(), idleMs);
        }
      }
    } finally {
      clearTimeout(idle);
      attempt.signal.removeEventListener('abort', onAbort);
      try {
        reader.releaseLock();
      } catch {
        // a read still pending after cancel(); the body is discarded either way
      }
    }
  }
}

const KNOWN = new Set(['poke', 'data', 'connection', 'rule']);

function toEvent(m: EventSourceMessage): WellstreamEvent | undefined {
  const type = m.event ?? 'message';
  // Event types this SDK does not know yet are skipped rather than mistyped.
  if (!KNOWN.has(type)) return undefined;
  return { type, id: m.id || undefined, data: parseJson(m.data) } as WellstreamEvent;
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return text;
  }
}
