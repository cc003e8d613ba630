/**
 * The physical reference for ingest → stream-client latency: a bare node:http server that writes
 * every POSTed body as one Server-Sent Event to each connected `GET /sse` client and answers 200.
 * No framework, no storage, no log. Run as its own process: `BARE_PORT=<port> node bench/bare-relay.mjs`.
 */
import http from 'node:http';

const clients = new Set();
http
  .createServer((req, res) => {
    if (req.method === 'GET' && req.url.startsWith('/sse')) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.write(': connected\n\n');
      clients.add(res);
      req.on('close', () => clients.delete(res));
      return;
    }
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      if (req.method === 'POST') for (const c of clients) c.write(`event: data\ndata: ${body}\n\n`);
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': 2 });
      res.end('{}');
    });
  })
  .listen(Number(process.env.BARE_PORT), '127.0.0.1');
