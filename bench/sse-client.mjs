/**
 * The SSE bench's client side, shared by bench/sse-scale.bench.mjs and its worker
 * (bench/storm-bystanders.worker.mjs): a raw SSE client and the records it looks for.
 */
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { lib } from './harness.mjs';

const { signAssertion, ASSERTION_HEADER, CALLER_HEADERS } = lib('http');

/**
 * One raw SSE client: parses only `data` frames (their id and the send time in the record's
 * log_id), drops pokes. `signed`: straight to a streams process, as its gateway would call it.
 */
export function openSseClient(port, streamId, { gatewayKey, customerId, token, signed, lastEventId, onData = () => {}, i = 0 }) {
  return new Promise((resolve, reject) => {
    const target = `/v2/streams/${streamId}/connect`;
    const headers = [`Host: 127.0.0.1:${port}`, 'Accept: text/event-stream'];
    if (signed) {
      const requestId = randomUUID();
      headers.push(`x-request-id: ${requestId}`, `${CALLER_HEADERS.customerId}: ${customerId}`);
      headers.push(`${ASSERTION_HEADER}: ${signAssertion(gatewayKey, { method: 'GET', target, requestId, customerId, organizationId: '', operator: false })}`);
    }
    if (lastEventId) headers.push(`Last-Event-ID: ${lastEventId}`);
    const s = net.connect({ port, host: '127.0.0.1', localAddress: `127.0.0.${2 + (i % 8)}` });
    let head = '';
    let buf = '';
    const timer = setTimeout(() => (s.destroy(), reject(new Error('no response head within 60 s'))), 60_000);
    s.setEncoding('utf8');
    s.on('connect', () => s.write(`GET ${target}${signed ? '' : `?token=${token}`} HTTP/1.1\r\n${headers.join('\r\n')}\r\n\r\n`));
    const onFrames = (chunk) => {
      if (!chunk.includes('event: data') && buf === '') return;
      buf += chunk;
      let end;
      while ((end = buf.indexOf('\n\n')) >= 0) {
        const frame = buf.slice(0, end);
        buf = buf.slice(end + 2);
        // Chunked transfer encoding puts a size line before each write (one frame per write).
        if (!frame.includes('event: data')) continue;
        const id = /\nid: (\S+)/.exec(frame)?.[1];
        const mark = /"log_id":"([^"]+)"/.exec(frame)?.[1];
        onData(mark, id, Date.now());
      }
    };
    const onHead = (chunk) => {
      head += chunk;
      const at = head.indexOf('\r\n\r\n');
      if (at < 0) return;
      clearTimeout(timer);
      s.off('data', onHead);
      const status = Number(head.slice(9, 12));
      if (status !== 200) {
        const retryAfter = Number(/retry-after: (\d+)/i.exec(head)?.[1] ?? 0);
        s.destroy();
        return resolve({ status, retryAfter, body: head.slice(at + 4, at + 300) });
      }
      s.on('data', onFrames);
      onFrames(head.slice(at + 4).replace(/^[0-9a-f]+\r\n/gim, ''));
      resolve({ status, socket: s });
    };
    s.on('data', onHead);
    s.on('error', (err) => (clearTimeout(timer), reject(err)));
  });
}

let recordCount = 0;
/** A record whose content is its own (same content from one source is a duplicate, stored once: docs/merging.md). */
export const record = (mark) => {
  const n = recordCount++;
  const at = new Date(Date.now() - Math.floor(Math.random() * 86_400_000)).toISOString().replace(/\.\d+Z$/, 'Z');
  return { type: 'measurement', source: { type: 'withings' }, log_id: mark, start_time: at, end_time: at, metrics: [{ type: 'body_weight', unit: 'kg', value: 40 + (n % 100_000) / 1000, origin: 'device' }] };
};
