/**
 * Test fixtures for the SDK and CLI suites: a tenant made through the SDK's own operator calls, a
 * user, and measurement records posted with the user's mobile token (all against a real platform).
 */
import { TEST_ADMIN_TOKEN } from '@wellstream/testing';
import { Wellstream } from '../src';

export interface SdkTenant {
  admin: Wellstream;
  client: Wellstream;
  customerId: string;
  orgId: string;
  token: string;
}

export async function sdkTenant(baseUrl: string, options: { rateLimitPerHour?: number } = {}): Promise<SdkTenant> {
  const admin = new Wellstream({ baseUrl, token: TEST_ADMIN_TOKEN });
  const customer = await admin.admin.createCustomer({ name: 'SDK customer' });
  const org = await admin.admin.createOrganization(customer.id, { name: 'SDK org' });
  const issued = await admin.admin.issueToken(customer.id, options.rateLimitPerHour ? { rate_limit_per_hour: options.rateLimitPerHour } : {});
  return { admin, client: new Wellstream({ baseUrl, token: issued.token }), customerId: customer.id, orgId: org.id, token: issued.token };
}

/** `count` distinct measurements, `batch` per request; returns their log ids. */
export async function postMeasurements(client: Wellstream, mobileToken: string, count: number, prefix: string, batch = 100): Promise<string[]> {
  const ids: string[] = [];
  const now = Date.now();
  for (let i = 0; i < count; i += batch) {
    const records = Array.from({ length: Math.min(batch, count - i) }, (_, j) => {
      const n = i + j;
      const at = new Date(now - n * 60_000).toISOString().replace(/\.\d+Z$/, 'Z');
      ids.push(`${prefix}-${n}`);
      return { type: 'measurement', source: { type: 'withings' }, log_id: `${prefix}-${n}`, start_time: at, end_time: at, metrics: [{ type: 'body_weight', unit: 'kg', value: 60 + (n % 40), origin: 'device' }] };
    });
    await client.mobile.ingest(mobileToken, { records } as never);
  }
  return ids;
}
