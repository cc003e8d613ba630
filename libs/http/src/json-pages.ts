/**
 * A JSON answer `{"<key>": [...]}` written page by page. A REST read of a large range (a month of
 * one-minute measurements is ~40,000 records) serialised with res.json holds the event loop for
 * the whole read and encode, which stalls every other customer's request in the process: here each
 * page is read, encoded and written on its own, the caller's `pause` decides when to yield between
 * pages, and a client slower than the read holds back the next page (socket backpressure).
 *
 * The status and headers go out with the first page, so everything that can answer 4xx must have
 * been checked before `pages` yields; a failure after that can only cut the connection (the
 * client sees a truncated body, never a 200 with half the data as if it were whole).
 */
import type express from 'express';

/** Resolves once the socket takes more (drain) or is gone (close), removing both listeners. */
export function writable(res: express.Response): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

export async function sendJsonPages<T>(res: express.Response, key: string, pages: AsyncIterable<T[]>, pause: () => Promise<void>): Promise<void> {
  const iterator = pages[Symbol.asyncIterator]();
  let next = await iterator.next(); // the first page's errors still become a normal error answer
  res.status(200).type('application/json');
  let first = true;
  const write = async (text: string) => {
    if (!res.write(text) && !res.destroyed) await writable(res);
  };
  try {
    await write(`{${JSON.stringify(key)}:[`);
    while (!next.done) {
      if (res.destroyed) return; // the client left: stop reading
      const items = next.value.map((item) => JSON.stringify(item)).join(',');
      if (items) {
        await write(first ? items : `,${items}`);
        first = false;
      }
      await pause();
      next = await iterator.next();
    }
    res.end(']}');
  } catch (err) {
    res.destroy(err instanceof Error ? err : new Error(String(err)));
    throw err;
  } finally {
    if (!next.done) await iterator.return?.();
  }
}
