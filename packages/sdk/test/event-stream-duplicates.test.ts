/**
 * After a reconnect the server sends again what the old connection may not have read (at least
 * once): the stream hands out each event of a partition once, unless told to keep duplicates.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { EventStream } from '../src/events/event-stream';

const frames = (ids: string[]) => ids.map((id) => `event: data\nid: ${id}\ndata: {"n":"${id}"}\n\n`).join('');

async function serve(connections: string[][]) {
  const asked: (string | undefined)[] = [];
  const server = http.createServer((req, res) => {
    asked.push(req.headers['last-event-id'] as string | undefined);
    const ids = connections.shift();
    if (!ids) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(frames(ids));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/s`), asked, close: () => server.close() };
}

async function collect(stream: EventStream, n: number): Promise<string[]> {
  const ids: string[] = [];
  for await (const e of stream) {
    ids.push(e.id!);
    if (ids.length === n) break;
  }
  return ids;
}

it('skips events at or before the last one handed out of their partition; resumes after the last one handed out', async () => {
  const s = await serve([['0-1', '1-1', '0-2'], ['1-1', '0-2', '0-1', '0-3', '1-2']]);
  try {
    const stream = new EventStream({ url: s.url, fetch }, { reconnect: { baseDelayMs: 1, maxDelayMs: 1 } });
    expect(await collect(stream, 5)).toEqual(['0-1', '1-1', '0-2', '0-3', '1-2']);
    expect(s.asked).toEqual([undefined, '0-2']);
  } finally {
    s.close();
  }
});

it('hands them out with keepDuplicates, and counts an id given to start after as handed out', async () => {
  const kept = await serve([['0-1', '1-1'], ['1-1', '0-2']]);
  const started = await serve([['0-4', '0-5', '1-1']]);
  try {
    const all = new EventStream({ url: kept.url, fetch }, { keepDuplicates: true, reconnect: { baseDelayMs: 1, maxDelayMs: 1 } });
    expect(await collect(all, 4)).toEqual(['0-1', '1-1', '1-1', '0-2']);
    const after = new EventStream({ url: started.url, fetch }, { lastEventId: '0-4', reconnect: { maxAttempts: 0 } });
    expect(await collect(after, 2)).toEqual(['0-5', '1-1']);
  } finally {
    kept.close();
    started.close();
  }
});

it('a stream connection resumes every partition after its own last event; position carries them across a restart', async () => {
  const s = await serve([['0-1', '1-1', '0-2', '1-4'], ['0-3'], ['2-9']]);
  try {
    const stream = new EventStream({ url: s.url, fetch, resumeEachPartition: true }, { reconnect: { baseDelayMs: 1, maxDelayMs: 1 } });
    expect(await collect(stream, 5)).toEqual(['0-1', '1-1', '0-2', '1-4', '0-3']);
    expect(s.asked).toEqual([undefined, '0-2,1-4']);
    expect(stream.position).toBe('0-3,1-4');
    stream.close();
    const restarted = new EventStream({ url: s.url, fetch, resumeEachPartition: true }, { lastEventId: stream.position });
    expect(await collect(restarted, 1)).toEqual(['2-9']);
    expect(s.asked[2]).toBe('0-3,1-4');
  } finally {
    s.close();
  }
});

it('does not count the time the consumer holds an event as the server being silent', async () => {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(frames(['0-1', '0-2']));
    setTimeout(() => res.end(frames(['0-3'])), 1_200);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const reconnects: string[] = [];
  try {
    const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/s`);
    const stream = new EventStream({ url, fetch }, { idleTimeoutMs: 800, onReconnect: (r) => reconnects.push(r.reason) });
    const ids: string[] = [];
    for await (const e of stream) {
      ids.push(e.id!);
      if (e.id === '0-1') await new Promise((r) => setTimeout(r, 1_000)); // held longer than the idle timeout
      if (ids.length === 3) break;
    }
    expect(ids).toEqual(['0-1', '0-2', '0-3']);
    expect(reconnects).toEqual([]);
  } finally {
    server.closeAllConnections();
    server.close();
  }
});
