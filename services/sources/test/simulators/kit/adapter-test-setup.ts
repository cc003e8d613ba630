/**
 * The set-up the adapter-against-simulator tests share: settings read from the simulator's env, a
 * small webhook endpoint standing in for the service's, the ProviderError kind of a call, and a sync
 * over a span window by window and page by page as the service's backfill does. What each test asserts,
 * and how its endpoint answers (handshake or not, which status on success), stays in the test.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  FetchContext,
  InboundRequest,
  IngestRecord,
  isProviderError,
  ProviderAdapter,
  ProviderHttp,
  ProviderSettings,
} from '../../../src/providers/provider.port';

const DAY = 86_400_000;

/** ProviderSettings from `WELLSTREAM_SOURCE_<TYPE>_*`, as the service reads them, with our redirect and webhook URLs. */
export function settingsFrom(env: Record<string, string>, type: string, webhookUrl: string): ProviderSettings {
  const v = (name: string) => env[`WELLSTREAM_SOURCE_${type.toUpperCase()}_${name}`];
  return {
    clientId: v('CLIENT_ID'),
    clientSecret: v('CLIENT_SECRET'),
    authUrl: v('AUTH_URL'),
    tokenUrl: v('TOKEN_URL'),
    apiUrl: v('API_URL'),
    redirectUri: `https://wellstream.example/v2/sources/${type}/callback`,
    webhookUrl,
  };
}

/** The kind and details of the ProviderError `p` rejects with ('no error' when it resolves). */
export async function kindOf(p: Promise<unknown>) {
  try {
    await p;
  } catch (e) {
    return isProviderError(e) ? { kind: e.kind, ...e.details } : { kind: `not a ProviderError: ${String(e)}` };
  }
  return { kind: 'no error' };
}

export interface ReceiverReply {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

/**
 * Our webhook URL (`/v2/sources/<type>/webhook` on a loopback port), answering with `answer` as the
 * service would; a ProviderError thrown there is 401 for a bad signature, else 400.
 */
export async function startWebhookReceiver(type: string, answer: (inbound: InboundRequest) => ReceiverReply): Promise<{ url: string; close(): Promise<void> }> {
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const inbound = {
        method: req.method as InboundRequest['method'],
        query: Object.fromEntries(url.searchParams),
        headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k.toLowerCase(), String(v)])),
        rawBody: Buffer.concat(chunks),
      };
      try {
        const reply = answer(inbound);
        res.writeHead(reply.status, reply.headers).end(reply.body);
      } catch (e) {
        res.writeHead(isProviderError(e) && e.kind === 'bad_signature' ? 401 : 400).end();
      }
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/v2/sources/${type}/webhook`,
    close: () => new Promise<void>((resolve) => receiver.close(() => resolve())),
  };
}

/** Every record of `resource` over [from, to), window by window and page by page, as the service will. */
export async function syncAll(
  target: { adapter: ProviderAdapter; http: ProviderHttp; settings: ProviderSettings },
  accessToken: string,
  resource: string,
  from: Date,
  to: Date,
  ctx: FetchContext = { userTimezone: null },
) {
  const { adapter, http, settings } = target;
  const spec = adapter.resources.find((r) => r.name === resource)!;
  const records: IngestRecord[] = [];
  let pages = 0;
  for (let start = from.getTime(); start < to.getTime(); start += spec.maxWindowDays * DAY) {
    const window = { start: new Date(start), end: new Date(Math.min(start + spec.maxWindowDays * DAY, to.getTime())) };
    let cursor: string | undefined;
    do {
      const page = await adapter.fetchWindow(http, settings, accessToken, resource, { ...window, cursor }, ctx);
      records.push(...page.records);
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
  }
  return { records, pages };
}
