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
