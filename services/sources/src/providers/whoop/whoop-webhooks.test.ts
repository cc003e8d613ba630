/**
 * WHOOP's signed webhooks, with the documented body `{user_id, id, type, trace_id}` and signature
 * base64(HMAC-SHA256(client secret, X-WHOOP-Signature-Timestamp + raw body)), timestamp in ms.
 */
import { createHmac } from 'node:crypto';
import { InboundRequest, isProviderError, ProviderSettings } from '../provider.port';
import { parseNotification, verify } from './whoop-webhooks';

const settings: ProviderSettings = {
  clientId: 'client',
  clientSecret: 'secret',
  authUrl: 'https://api.prod.whoop.com/oauth/oauth2/auth',
  tokenUrl: 'https://api.prod.whoop.com/oauth/oauth2/token',
  apiUrl: 'https://api.prod.whoop.com/developer',
  redirectUri: 'https://wellstream.example/v2/sources/whoop/callback',
  webhookUrl: 'https://wellstream.example/v2/sources/whoop/webhook',
};

/** The v2 example of WHOOP's "Example Request Flow". */
const documented = { user_id: 456, id: '550e8400-e29b-41d4-a716-446655440000', type: 'sleep.updated', trace_id: 'e369c784-5100-49e8-8098-75d35c47b31b' };

function signed(body: unknown, options: { secret?: string; timestamp?: string; raw?: string } = {}): InboundRequest {
  const raw = options.raw ?? JSON.stringify(body);
  const timestamp = options.timestamp ?? String(Date.now());
  const signature = createHmac('sha256', options.secret ?? settings.clientSecret).update(timestamp + raw).digest('base64');
  return { method: 'POST', query: {}, headers: { 'x-whoop-signature': signature, 'x-whoop-signature-timestamp': timestamp }, rawBody: Buffer.from(raw) };
}

const kindOf = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return isProviderError(e) ? e.kind : 'not a ProviderError';
  }
  return 'no error';
};

/** The delivery a notification of `type` signed at `at` carries: its trace_id with its type and id, good for two hours. */
const delivery = (type: string, at: number) => ({ id: `${documented.trace_id}:${type}:${documented.id}`, expiresAt: new Date(at + 2 * 3_600_000) });

describe('WHOOP webhooks', () => {
  it('parses updated events as changes of the right resource', () => {
    const at = Date.now();
    const ts = { timestamp: String(at) };
    expect(parseNotification(settings, signed(documented, ts))).toEqual([{ providerUserId: '456', resource: 'sleep', objectId: documented.id, delivery: delivery('sleep.updated', at) }]);
    expect(parseNotification(settings, signed({ ...documented, type: 'workout.updated' }))[0].resource).toBe('workout');
    // A v2 recovery event carries the UUID of the recovery's sleep (our recovery log_id is recovery:<it>).
    expect(parseNotification(settings, signed({ ...documented, type: 'recovery.updated' }, ts))).toEqual([{ providerUserId: '456', resource: 'recovery', objectId: documented.id, delivery: delivery('recovery.updated', at) }]);
  });

  it('parses deleted events as deletions of that id', () => {
    const at = Date.now();
    const ts = { timestamp: String(at) };
    for (const r of ['sleep', 'workout']) {
      expect(parseNotification(settings, signed({ ...documented, type: `${r}.deleted` }, ts))).toEqual([{ providerUserId: '456', resource: r, objectId: documented.id, deleted: true, delivery: delivery(`${r}.deleted`, at) }]);
    }
    expect(parseNotification(settings, signed({ ...documented, type: 'recovery.deleted' }, ts))).toEqual([
      { providerUserId: '456', resource: 'recovery', objectId: documented.id, deleted: true, deletedLogIds: [`recovery:${documented.id}`], delivery: delivery('recovery.deleted', at) },
    ]);
  });

  it('names the delivery by trace_id, type and id, so one action\'s several events are not taken for repeats', () => {
    const [sleep] = parseNotification(settings, signed(documented));
    const [recovery] = parseNotification(settings, signed({ ...documented, type: 'recovery.updated' }));
    expect(sleep.delivery!.id).not.toBe(recovery.delivery!.id);
    // A retry (same body, signed again later) is the same delivery.
    const [retry] = parseNotification(settings, signed(documented, { timestamp: String(Date.now() - 30 * 60_000) }));
    expect(retry.delivery!.id).toBe(sleep.delivery!.id);
    // Without a trace_id there is nothing to recognise a repeat by: every copy is acted on.
    const { trace_id: _omitted, ...untraced } = documented;
    expect(parseNotification(settings, signed(untraced))[0].delivery).toBeUndefined();
  });

  it('verifies the exact bytes received (a pretty-printed body too)', () => {
    expect(parseNotification(settings, signed(documented, { raw: JSON.stringify(documented, null, 2) }))).toHaveLength(1);
  });

  it('answers unknown event types with nothing, after verifying them', () => {
    expect(parseNotification(settings, signed({ ...documented, type: 'cycle.updated' }))).toEqual([]);
    expect(parseNotification(settings, signed({ ...documented, type: 'something' }))).toEqual([]);
  });

  it('refuses forged, unsigned, altered and stale notifications with bad_signature', () => {
    expect(kindOf(() => parseNotification(settings, signed(documented, { secret: 'not-our-secret' })))).toBe('bad_signature');
    expect(kindOf(() => parseNotification(settings, { ...signed(documented), headers: {} }))).toBe('bad_signature');
    const altered = { ...signed(documented), rawBody: Buffer.from(JSON.stringify({ ...documented, user_id: 457 })) };
    expect(kindOf(() => parseNotification(settings, altered))).toBe('bad_signature');
    const stale = String(Date.now() - 2 * 3_600_000 - 60_000);
    expect(kindOf(() => parseNotification(settings, signed(documented, { timestamp: stale })))).toBe('bad_signature');
    const future = String(Date.now() + 6 * 60_000);
    expect(kindOf(() => parseNotification(settings, signed(documented, { timestamp: future })))).toBe('bad_signature');
    expect(kindOf(() => parseNotification(settings, signed(documented, { timestamp: 'yesterday' })))).toBe('bad_signature');
    // A timestamp header swapped after signing breaks the signature.
    const swapped = signed(documented);
    swapped.headers['x-whoop-signature-timestamp'] = String(Date.now() - 1000);
    expect(kindOf(() => parseNotification(settings, swapped))).toBe('bad_signature');
  });

  it('accepts a timestamp up to two hours old (WHOOP retries for about one) or 5 minutes ahead, in milliseconds or seconds', () => {
    const at = 1_700_000_000_000;
    const req = signed(documented, { timestamp: String(at) });
    expect(verify(settings, req, at + 10 * 60_000)).toBe(at);
    expect(() => verify(settings, req, at + 2 * 3_600_000)).not.toThrow();
    expect(kindOf(() => verify(settings, req, at + 2 * 3_600_000 + 1))).toBe('bad_signature');
    expect(() => verify(settings, req, at - 5 * 60_000)).not.toThrow();
    expect(kindOf(() => verify(settings, req, at - 5 * 60_000 - 1))).toBe('bad_signature');
    expect(() => verify(settings, signed(documented, { timestamp: String(at / 1000) }), at)).not.toThrow();
  });

  it('answers bad_request for a signed body that is not a notification', () => {
    expect(kindOf(() => parseNotification(settings, signed(['x'])))).toBe('bad_request');
    expect(kindOf(() => parseNotification(settings, signed({ type: 'sleep.updated' })))).toBe('bad_request');
    expect(kindOf(() => parseNotification(settings, signed(null, { raw: 'not json' })))).toBe('bad_request');
  });
});
