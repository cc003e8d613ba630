/**
 * One try of a push POST, on node:http like production's sender (so the receiver sees the same
 * request line and headers, not fetch's extra ones): no redirects followed, a timeout per try, the
 * first 2 KiB of the answer kept for the message.
 */
import http from 'node:http';
import https from 'node:https';

export interface PushAnswer {
  /** The HTTP status; 0 when nothing answered. */
  status: number;
  /** The answer's first bytes, or what went wrong when nothing answered. */
  detail: string;
}

const LIMIT = 2048;

export function postOnce(url: URL, headers: Record<string, string>, body: string, timeoutMs: number, signal?: AbortSignal): Promise<PushAnswer> {
  return new Promise((resolve) => {
    const timeout = AbortSignal.timeout(timeoutMs);
    const combined = signal ? AbortSignal.any([timeout, signal]) : timeout;
    let settled = false;
    const done = (a: PushAnswer) => {
      if (settled) return;
      settled = true;
      resolve(a);
    };
    const client = url.protocol === 'https:' ? https : http;
    const req = client.request(url, { method: 'POST', headers: { ...headers, 'content-length': Buffer.byteLength(body) }, signal: combined, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const finish = () => {
        done({ status: res.statusCode ?? 0, detail: Buffer.concat(chunks).toString('utf8').slice(0, LIMIT) });
        res.destroy();
      };
      res.on('data', (chunk: Buffer) => {
        if (size < LIMIT) chunks.push(chunk.subarray(0, LIMIT - size));
        size += chunk.length;
      });
      res.on('end', finish);
      res.on('error', finish);
      res.on('aborted', finish);
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (timeout.aborted) return done({ status: 0, detail: `no answer within ${timeoutMs} ms (timeout)` });
      if (signal?.aborted) return done({ status: 0, detail: 'stopped' });
      done({ status: 0, detail: err.code ?? err.message });
    });
    req.end(body);
  });
}
