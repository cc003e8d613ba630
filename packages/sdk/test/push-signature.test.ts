/**
 * verifyPushSignature against a real push delivery: a receiver on loopback gets a batch the
 * platform signed, accepts it, and refuses the same delivery forged (other body, other secret,
 * garbled header) or replayed outside the tolerance.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestPlatform, TestPlatform } from '@wellstream/platform/testing';
import { constructPushBatch, signPushPayload, SignatureVerificationError, verifyPushSignature } from '../src';
import { postMeasurements, sdkTenant } from './sdk-fixtures';

jest.setTimeout(60_000);
let platform: TestPlatform;
beforeAll(async () => (platform = await startTestPlatform()));
afterAll(() => platform?.stop());

const SECRET = 'receiver-secret-0123456789';

it('accepts a real delivery and rejects forged and stale ones', async () => {
  const deliveries: { body: Buffer; headers: http.IncomingHttpHeaders }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      deliveries.push({ body: Buffer.concat(chunks), headers: req.headers });
      res.end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const t = await sdkTenant(platform.baseUrl);
    await t.client.notifications.setTarget(t.orgId, { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, secret: SECRET });
    await t.client.users.create(t.orgId, { uid: 'push-1' });
    await postMeasurements(t.client, (await t.client.users.get(t.orgId, 'push-1')).mobile.token, 2, 'push');
    const end = Date.now() + 20_000;
    while (deliveries.length === 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    const { body, headers } = deliveries[0];

    await expect(verifyPushSignature(body, headers, SECRET)).resolves.toBeUndefined();
    await expect(verifyPushSignature(body.toString('utf8'), new Headers(headers as Record<string, string>), SECRET)).resolves.toBeUndefined();

    const reason = (p: Promise<unknown>) => p.then(() => 'accepted', (e: SignatureVerificationError) => e.reason);
    const forgedBody = Buffer.from(body.toString('utf8').replace('"push-0"', '"push-9"'));
    expect(forgedBody.equals(body)).toBe(false);
    expect(await reason(verifyPushSignature(forgedBody, headers, SECRET))).toBe('mismatch');
    expect(await reason(verifyPushSignature(body, headers, 'another-secret-0123456'))).toBe('mismatch');
    expect(await reason(verifyPushSignature(body, { ...headers, 'x-wellstream-signature': 'sha256=zz' }, SECRET))).toBe('malformed_header');
    expect(await reason(verifyPushSignature(body, { ...headers, 'x-wellstream-signature': undefined }, SECRET))).toBe('missing_header');
    const sentAt = Number(headers['x-wellstream-timestamp']);
    expect(await reason(verifyPushSignature(body, headers, SECRET, { now: sentAt + 301 }))).toBe('stale_timestamp');
    expect(await reason(verifyPushSignature(body, headers, SECRET, { now: sentAt + 50, toleranceSeconds: 60 }))).toBe('accepted');
    // A delivery re-signed with a stale timestamp is refused even though the signature matches.
    const stale = await signPushPayload(body, SECRET, Math.floor(Date.now() / 1000) - 3600);
    expect(await reason(verifyPushSignature(body, stale, SECRET))).toBe('stale_timestamp');
    // A rotation: the old and the new secret are both accepted while batches signed with either are about.
    expect(await reason(verifyPushSignature(body, headers, ['new-secret-0123456789', SECRET]))).toBe('accepted');
    expect(await reason(verifyPushSignature(body, headers, ['new-secret-0123456789', 'older-secret-0123456']))).toBe('mismatch');
    // Parsed into its typed batch: the records as posted.
    const batch = await constructPushBatch(body, headers, ['new-secret-0123456789', SECRET]);
    expect(batch.id).toBe(headers['x-wellstream-batch-id']);
    expect(batch.withheldItems).toBe(0);
    expect(batch.items.map((i) => i.log_id).sort()).toEqual(['push-0', 'push-1']);
    expect(batch.items[0].user.uid).toBe('push-1');
    expect(await reason(constructPushBatch(forgedBody, headers, SECRET))).toBe('mismatch');
    const notABatch = '{"hello":1}';
    expect(await reason(constructPushBatch(notABatch, await signPushPayload(notABatch, SECRET), SECRET))).toBe('malformed_body');
    const otherId = { ...headers, ...(await signPushPayload(body, SECRET)), 'x-wellstream-batch-id': 'another-batch' };
    expect(await reason(constructPushBatch(body, otherId, SECRET))).toBe('malformed_body');
    // The SDK signs exactly as the platform does.
    expect(await signPushPayload(body, SECRET, sentAt)).toEqual({ 'X-Wellstream-Timestamp': String(sentAt), 'X-Wellstream-Signature': headers['x-wellstream-signature'] });
  } finally {
    server.close();
  }
});
