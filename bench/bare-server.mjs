/**
 * The physical reference for HTTP benchmarks: a bare node:http server answering a small JSON body,
 * no framework, no work. Run as its own process: `BARE_PORT=<port> node bench/bare-server.mjs`.
 */
import http from 'node:http';

const body = '{"data":[]}';
http
  .createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  })
  .listen(Number(process.env.BARE_PORT), '127.0.0.1');
