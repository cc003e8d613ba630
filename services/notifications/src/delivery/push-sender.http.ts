/**
 * The PushSender on node:http/https. The address policy is applied inside the socket's DNS lookup,
 * so the address that is judged is the address that is connected to (no DNS-rebinding window);
 * IP literals, which skip the lookup, are judged before connecting. Redirects are not followed
 * (a 3xx is a failed try), and only the first 2 KiB of an answer are read.
 */
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import { AddressPolicy, bareHost, refusalReason, refusedHostName } from '../targets/address-policy';
import { RESPONSE_BODY_LIMIT } from '../batches/batch';
import type { PushRequest, PushResponse, PushSender } from './push-sender';

class RefusedAddressError extends Error {
  readonly code = 'EREFUSEDADDRESS';
}

function guardedLookup(policy: AddressPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const list = addresses as dns.LookupAddress[];
      for (const a of list) {
        const reason = refusalReason(a.address, policy);
        if (reason) return callback(new RefusedAddressError(`refused to connect: ${reason}`), '', 0);
      }
      if ((options as dns.LookupOptions).all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
      if (!list.length) return callback(Object.assign(new Error(`${hostname} has no addresses`), { code: 'ENOTFOUND' }), '', 0);
      callback(null, list[0].address, list[0].family);
    });
  };
}

const describe = (err: NodeJS.ErrnoException, timeoutMs: number, timedOut: boolean): string => {
  if (timedOut) return `no response within ${timeoutMs} ms (timeout)`;
  if (err instanceof RefusedAddressError) return err.message;
  switch (err.code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `host could not be resolved (${err.code})`;
    case 'ECONNRESET':
      return 'connection reset by the receiver';
    default:
      return `no response: ${err.code ?? err.message}`;
  }
};

export class HttpPushSender implements PushSender {
  constructor(private readonly options: { timeoutMs: number; policy: AddressPolicy }) {}

  send(request: PushRequest, signal?: AbortSignal): Promise<PushResponse> {
    const { timeoutMs, policy } = this.options;
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return Promise.resolve({ code: 0, body: 'the target url is not valid' });
    }
    const host = bareHost(url.hostname);
    const refused = refusedHostName(host) ?? (net.isIP(host) ? refusalReason(host, policy) : null);
    if (refused) return Promise.resolve({ code: 0, body: `refused to connect: ${refused}` });

    return new Promise<PushResponse>((resolve) => {
      const timeout = AbortSignal.timeout(timeoutMs);
      const combined = signal ? AbortSignal.any([timeout, signal]) : timeout;
      let settled = false;
      const done = (r: PushResponse) => {
        if (settled) return;
        settled = true;
        resolve(r);
      };
      const client = url.protocol === 'https:' ? https : http;
      const req = client.request(
        url,
        {
          method: 'POST',
          headers: { ...request.headers, 'content-length': Buffer.byteLength(request.body) },
          lookup: guardedLookup(policy),
          signal: combined,
          agent: false,
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          const finish = () => {
            done({ code: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8').slice(0, RESPONSE_BODY_LIMIT) });
            res.destroy();
          };
          res.on('data', (chunk: Buffer) => {
            if (size >= RESPONSE_BODY_LIMIT) return;
            chunks.push(chunk.subarray(0, RESPONSE_BODY_LIMIT - size));
            size += chunk.length;
            if (size >= RESPONSE_BODY_LIMIT) finish();
          });
          res.on('end', finish);
          // The status arrived: a body cut short (timeout, reset) still leaves a real answer.
          res.on('error', finish);
          res.on('aborted', finish);
        },
      );
      req.on('error', (err: NodeJS.ErrnoException) => done({ code: 0, body: describe(err, timeoutMs, timeout.aborted) }));
      req.end(request.body);
    });
  }
}
