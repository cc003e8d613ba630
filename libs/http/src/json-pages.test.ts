import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { sendJsonPages } from './json-pages';

/** A one-route server whose answer is written by sendJsonPages from `pages()`. */
async function serve(pages: () => AsyncIterable<unknown[]>, pauses: { n: number }) {
  const app = express();
  const failures: unknown[] = [];
  app.get('/list', (req, res) => {
    sendJsonPages(res, 'data', pages(), async () => void pauses.n++).catch((err) => {
      failures.push(err);
      if (!res.headersSent) res.status(503).json({ message: 'store unavailable' });
    });
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, failures, close: () => server.close() };
}

async function* from(...pages: unknown[][]) {
  for (const p of pages) yield p;
}

describe('sendJsonPages', () => {
  it('writes every page as one JSON document, in order, pausing between pages', async () => {
    const pauses = { n: 0 };
    const s = await serve(() => from([{ a: 1 }, { a: 2 }], [], [{ a: 3 }], [{ a: 'x,"]}' }]), pauses);
    try {
      const res = await fetch(`${s.base}/list`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await res.json()).toEqual({ data: [{ a: 1 }, { a: 2 }, { a: 3 }, { a: 'x,"]}' }] });
      expect(pauses.n).toBe(4);
      expect(await (await fetch(`${s.base}/list`)).text()).toBe('{"data":[{"a":1},{"a":2},{"a":3},{"a":"x,\\"]}"}]}');
    } finally {
      s.close();
    }
  });

  it('answers an empty result as {"data":[]}', async () => {
    const s = await serve(() => from(), { n: 0 });
    try {
      expect(await (await fetch(`${s.base}/list`)).json()).toEqual({ data: [] });
    } finally {
      s.close();
    }
  });

  it('lets a failure before the first page become an ordinary error answer', async () => {
    async function* failing(): AsyncIterable<unknown[]> {
      throw new Error('store down');
    }
    const s = await serve(failing, { n: 0 });
    try {
      const res = await fetch(`${s.base}/list`);
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ message: 'store unavailable' });
    } finally {
      s.close();
    }
  });

  it('cuts the connection on a failure after the first page: the client never gets a complete-looking body', async () => {
    async function* halfway(): AsyncIterable<unknown[]> {
      yield [{ a: 1 }];
      throw new Error('store down');
    }
    const s = await serve(halfway, { n: 0 });
    try {
      const body = new Promise<string>((resolve, reject) => {
        http
          .get(`${s.base}/list`, (res) => {
            let text = '';
            res.on('data', (c) => (text += c));
            res.on('error', () => {});
            // `complete` is false when the connection closed before the chunked body's end.
            res.on('close', () => (res.complete ? resolve(text) : reject(new Error('cut'))));
          })
          .on('error', reject); // cut before the head even arrived: socket hang up
      });
      await expect(body).rejects.toThrow(/^cut$|socket hang up/);
      expect(s.failures).toHaveLength(1);
    } finally {
      s.close();
    }
  });

  it('stops reading when the client leaves', async () => {
    let read = 0;
    async function* endless(): AsyncIterable<unknown[]> {
      for (;;) {
        read++;
        yield [{ filler: 'y'.repeat(64 * 1024) }];
      }
    }
    const s = await serve(endless, { n: 0 });
    try {
      await new Promise<void>((resolve) => {
        const req = http.get(`${s.base}/list`, (res) => {
          res.once('data', () => {
            req.destroy();
            resolve();
          });
        });
      });
      // The reader is held back by the full socket, then stops once the socket closes.
      const deadline = Date.now() + 5000;
      let before = -1;
      while (Date.now() < deadline && before !== read) {
        before = read;
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(before).toBe(read);
      expect(read).toBeLessThan(200);
    } finally {
      s.close();
    }
  });
});
