/**
 * What a Kubernetes Service or any load balancer is to replicas of one service, in a process of its
 * own (so its CPU is measured apart): libs/testing's round-robin proxy, the one the replica tests use.
 * `PROXY_PORT=<port> PROXY_UPSTREAMS=http://127.0.0.1:a,http://127.0.0.1:b node bench/round-robin-proxy.mjs`.
 * Loopback only; no retry (a failed upstream answers 502).
 */
import path from 'node:path';
import { requireTs } from '../scripts/ts-require.mjs';

const { startRoundRobinProxy } = requireTs(path.resolve(new URL('..', import.meta.url).pathname, 'libs/testing/src/round-robin-proxy.ts'));

await startRoundRobinProxy(process.env.PROXY_UPSTREAMS.split(','), Number(process.env.PROXY_PORT));
