/**
 * Steady load for the fault and container tests: a writer posting records through the gateway (what
 * was acknowledged, and how long each answer took) and a stream client that reconnects with
 * Last-Event-ID whenever its connection ends. Every loop is bounded in count and time.
 */
import { connectSse, SseConnection } from '@wellstream/testing';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** The day every generated record falls on (yesterday, UTC). */
export const DAY = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
/** Hard bounds: the loops stop by themselves even if a test step hangs. */
export const LOAD_MAX_REQUESTS = 4_000;
export const LOAD_MAX_MS = 480_000;

export interface Attempt {
  started: number;
  ms: number;
  status: number | 'error';
  ids: string[];
  /** The answer's body when it was not a 200 (for failure messages). */
  error?: string;
  /** The Retry-After header of the answer, if any. */
  retryAfter?: string;
}

let seq = 0;
export function measurement(): Record<string, unknown> {
  const n = seq++;
  const at = new Date(Date.parse(`${DAY}T00:00:00Z`) + n * 7_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  return {
    type: 'measurement',
    source: { type: 'withings' },
    log_id: `fault-${n}`,
    start_time: at,
    end_time: at,
    metrics: [{ type: 'body_weight', unit: 'kg', value: 70 + (n % 50) / 10, origin: 'device' }],
  };
}

/** Posts records through the gateway and keeps what was acknowledged (200) and how long each took. */
export class Ingestion {
  readonly attempts: Attempt[] = [];
  readonly acked = new Set<string>();
  private running = true;
  private loop?: Promise<void>;

  constructor(private readonly baseUrl: string, private readonly mobileToken: string) {}

  async post(count: number): Promise<Attempt> {
    const records = Array.from({ length: count }, measurement);
    const started = Date.now();
    let status: Attempt['status'] = 'error';
    let ids: string[] = [];
    let error: string | undefined;
    let retryAfter: string | undefined;
    try {
      const res = await fetch(`${this.baseUrl}/mobile/records?token=${this.mobileToken}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ records }),
        signal: AbortSignal.timeout(8_000),
      });
      status = res.status;
      retryAfter = res.headers.get('retry-after') ?? undefined;
      const text = await res.text();
      if (res.status === 200) ids = ((JSON.parse(text) as { data: { id: string }[] }).data ?? []).map((r) => r.id);
      else error = text.slice(0, 300);
    } catch (err) {
      status = 'error';
      error = String(err);
    }
    const attempt: Attempt = { started, ms: Date.now() - started, status, ids, error, retryAfter };
    this.attempts.push(attempt);
    for (const id of ids) this.acked.add(id);
    return attempt;
  }

  /** One record per request, back to back, until stopped (or the hard bounds). */
  start(): void {
    const t0 = Date.now();
    this.loop = (async () => {
      while (this.running && this.attempts.length < LOAD_MAX_REQUESTS && Date.now() - t0 < LOAD_MAX_MS) {
        const a = await this.post(1);
        await sleep(a.status === 200 ? 40 : 200);
      }
    })();
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
  }

  between(from: number, to: number): Attempt[] {
    return this.attempts.filter((a) => a.started >= from && a.started <= to);
  }
}

/** A stream client that reconnects with Last-Event-ID whenever its connection ends. */
export class ReconnectingStream {
  readonly ids = new Set<string>();
  /** Reconnects the platform caused (it ended the stream or refused a connect); `drop()` is not one. */
  reconnects = 0;
  /** Why each of those happened (a refused connect's status, or how long the stream had lasted). */
  readonly reconnectReasons: string[] = [];
  /** Connections the test itself ended with `drop()`. */
  drops = 0;
  private dropping = false;
  private lastId?: string;
  private current?: SseConnection;
  private running = true;
  private loop?: Promise<void>;

  constructor(private readonly url: string) {}

  private absorb(conn: SseConnection, from: number): number {
    for (const e of conn.events.slice(from)) {
      if (e.id) this.lastId = e.id;
      if (e.event === 'data') this.ids.add(e.json().id);
    }
    return conn.events.length;
  }

  start(): void {
    this.loop = (async () => {
      const t0 = Date.now();
      for (let i = 0; this.running && i < 2_000 && Date.now() - t0 < LOAD_MAX_MS; i++) {
        const connectedAt = Date.now();
        let reason = '';
        const conn = await connectSse(this.url, { headers: this.lastId ? { 'last-event-id': this.lastId } : {} }).catch((err) => {
          reason = `connect failed: ${String(err?.message ?? err)}`;
          return undefined;
        });
        if (conn && conn.status !== 200) reason = `connect answered ${conn.status}`;
        if (conn?.status === 200) {
          this.current = conn;
          let seen = 0;
          let ended = false;
          void conn.closed.then(() => (ended = true));
          while (this.running && !ended) {
            seen = this.absorb(conn, seen);
            await sleep(100);
          }
          this.absorb(conn, seen);
          conn.close();
          reason = `the stream ended after ${Date.now() - connectedAt} ms (at ${new Date().toISOString()})`;
        } else conn?.close();
        if (this.running && this.dropping) this.drops++;
        else if (this.running) {
          this.reconnects++;
          this.reconnectReasons.push(reason);
        }
        this.dropping = false;
        if (this.running) await sleep(500);
      }
    })();
  }

  /** Ends the current connection from the client side; the loop reconnects with Last-Event-ID. */
  drop(): void {
    this.dropping = true;
    this.current?.close();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.current?.close();
    await this.loop;
  }
}

