/**
 * What a Kubernetes Service or any load balancer is to replicas of one service: a bare node:http
 * proxy that sends each request to the next upstream in turn, over keep-alive connections, headers
 * and body untouched (the gateway's signed assertion included). Its own process:
 * `PROXY_PORT=<port> PROXY_UPSTREAMS=http://127.0.0.1:a,http://127.0.0.1:b node bench/round-robin-proxy.mjs`.
 * Loopback only; no retry (a failed upstream answers 502).
 */
import http from 'node:http';

const upstreams = process.env.PROXY_UPSTREAMS.split(',').map((u) => new URL(u));
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
let next = 0;

http
  .createServer((req, res) => {
    const to = upstreams[next++ % upstreams.length];
    const up = http.request({ agent, hostname: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    up.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
      res.end('{"message":"upstream failed"}');
    });
    req.pipe(up);
  })
  .listen(Number(process.env.PROXY_PORT), '127.0.0.1');
