/**
 * A Server-Sent Events client for tests: connects with fetch, parses events as they arrive, and
 * can be closed at any time (the server sees the disconnect).
 */
export interface SseEvent {
  event: string;
  data: string;
  id?: string;
  json<T = any>(): T;
}

export interface SseConnection {
  status: number;
  headers: Headers;
  events: SseEvent[];
  /** Resolves with the first event (at or after `fromIndex`) matching `pred`. */
  waitFor(pred: (e: SseEvent) => boolean, timeoutMs?: number, fromIndex?: number): Promise<SseEvent>;
  /** Body text when the server answered with something other than an event stream. */
  errorBody?: string;
  close(): void;
  closed: Promise<void>;
}

export async function connectSse(url: string, init: { headers?: Record<string, string> } = {}): Promise<SseConnection> {
  const controller = new AbortController();
  const res = await fetch(url, { headers: { accept: 'text/event-stream', ...init.headers }, signal: controller.signal });
  const events: SseEvent[] = [];
  const waiters = new Set<() => void>();
  const conn: SseConnection = {
    status: res.status,
    headers: res.headers,
    events,
    close: () => controller.abort(),
    closed: Promise.resolve(),
    waitFor(pred, timeoutMs = 10_000, fromIndex = 0) {
      return new Promise<SseEvent>((resolve, reject) => {
        const check = () => {
          const found = events.slice(fromIndex).find(pred);
          if (found) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(found);
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching SSE event within ${timeoutMs} ms (got ${events.map((e) => e.event).join(',')})`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
  };
  if (!String(res.headers.get('content-type')).startsWith('text/event-stream')) {
    conn.errorBody = await res.text();
    return conn;
  }
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  conn.closed = (async () => {
    let buf = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buf += decoder.decode(value, { stream: true });
        let idx;
        while ((idx = buf.indexOf('\n\n')) >= 0) {
          const block = buf.slice(0, idx);
          buf = buf.slice(idx + 2);
          const ev: SseEvent = { event: 'message', data: '', json: () => JSON.parse(ev.data) };
          const data: string[] = [];
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) continue;
            const c = line.indexOf(':');
            const field = c < 0 ? line : line.slice(0, c);
            const val = c < 0 ? '' : line.slice(c + 1).replace(/^ /, '');
            if (field === 'event') ev.event = val;
            else if (field === 'data') data.push(val);
            else if (field === 'id') ev.id = val;
          }
          if (data.length === 0 && ev.event === 'message') continue;
          ev.data = data.join('\n');
          events.push(ev);
          for (const w of [...waiters]) w();
        }
      }
    } catch {
      /* aborted */
    }
  })();
  return conn;
}
