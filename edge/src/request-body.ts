/**
 * The request body, held whole before anything is sent upstream. Why hold it: a gateway that
 * refuses or resets must not cost the caller its request, and a body half-streamed to a gateway
 * that went away cannot be sent again; held, it can. The platform's bodies are small (records
 * batches, settings; the services refuse more than 5 MiB), so holding them costs little.
 */
import type { IncomingMessage } from 'node:http';

export class BodyTooLarge extends Error {
  constructor(readonly limit: number) {
    super('The request body is too large.');
  }
}

/** Resolves with the body (undefined for a request without one); rejects with BodyTooLarge past `limit`. */
export function readRequestBody(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  // Most requests (GET, SSE connects) carry no body: nothing to wait for.
  if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      // Past the limit the rest is read and dropped (memory stays bounded), as the services'
      // body parser does: a caller still sending would otherwise see its upload cut, not the 413.
      if (size <= limit) chunks.push(chunk);
    });
    req.on('end', () => (size > limit ? reject(new BodyTooLarge(limit)) : resolve(Buffer.concat(chunks, size))));
    req.on('error', reject);
    // A client that leaves mid-body: nothing to forward.
    req.on('aborted', () => reject(new Error('the client left before its body arrived')));
  });
}
