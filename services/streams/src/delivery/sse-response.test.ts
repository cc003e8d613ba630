/**
 * Backpressure: a client that stops reading does not make the server buffer without bound. The
 * writer waits for 'drain', so what the response holds stays within the socket's high-water mark
 * plus one frame; a client that never drains is dropped after the write timeout and the writer is
 * told (ClientGoneError), so nothing keeps producing for it.
 */
import express from 'express';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { ClientGoneError } from './event-sink';
import { openSse } from './sse-response';

const FRAME = 'x'.repeat(8 * 1024);

it('holds a bounded buffer for a client that stops reading, then drops it', async () => {
  let maxBuffered = 0;
  let sent = 0;
  let outcome: unknown;
  const finished = new Promise<void>((resolve) => {
    const app = express();
    app.get('/sse', async (req, res) => {
      const sink = openSse(req, res, { writeTimeoutMs: 500, maxBufferBytes: 1024 * 1024, trackLongLived: () => () => {} });
      try {
        // Far more than any socket buffer holds: 64 MiB.
        for (let i = 0; i < 8192; i++) {
          await sink.send('data', JSON.stringify({ i, pad: FRAME }));
          sent++;
          maxBuffered = Math.max(maxBuffered, res.writableLength);
        }
        outcome = 'finished';
      } catch (err) {
        outcome = err;
      }
      resolve();
    });
    const server = app.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      const client = net.connect(port, '127.0.0.1', () => client.write('GET /sse HTTP/1.1\r\nHost: x\r\n\r\n'));
      client.once('data', () => client.pause()); // reads the head, then never again
      void finished.then(() => {
        client.destroy();
        server.close();
      });
    });
  });
  await finished;
  expect(outcome).toBeInstanceOf(ClientGoneError);
  expect(sent).toBeLessThan(8192);
  // High-water mark (16 KiB) plus one frame: never more queued in the process.
  expect(maxBuffered).toBeLessThanOrEqual(16 * 1024 + FRAME.length + 64);
});
