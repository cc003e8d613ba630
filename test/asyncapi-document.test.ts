/**
 * /v2/asyncapi.json: a valid AsyncAPI 3 document (checked by the official @asyncapi/parser),
 * generated from the schemas the services validate with: every Kafka topic of the catalog with its
 * schema version, and every SSE event type of /streams/{id}/connect and /replay.
 */
import { EVENT_TYPES } from '@wellstream/catalog';
import { ALL_TOPICS, CURRENT_SCHEMA_VERSION } from '@wellstream/contracts';
import { startTestPlatform, TestPlatform } from '@wellstream/platform/testing';

jest.setTimeout(60_000);

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform?.stop());

it('is served beside the OpenAPI document and is valid AsyncAPI 3, covering every topic and SSE event', async () => {
  const res = await fetch(`${platform.baseUrl}/asyncapi.json`);
  expect(res.status).toBe(200);
  const doc = (await res.json()) as any;
  expect(doc.asyncapi).toBe('3.0.0');

  const { Parser } = await import('@asyncapi/parser');
  const { document, diagnostics } = await new Parser().parse(doc);
  const errors = diagnostics.filter((d: { severity: number }) => d.severity === 0);
  expect(errors).toEqual([]);
  expect(document).toBeDefined();

  const addresses = Object.values(doc.channels as Record<string, { address: string }>).map((c) => c.address);
  for (const t of ALL_TOPICS) expect(addresses).toContain(t.spec.name);
  expect(addresses).toEqual(expect.arrayContaining(['/v2/streams/{id}/connect', '/v2/replay']));
  for (const type of ['poke', ...EVENT_TYPES]) expect(doc.components.messages[`sse_${type}`].name).toBe(type);
  // Generated from the joi schemas: the users topic's snapshot fields and the version field.
  const users = doc.components.messages.kafka_users.payload;
  expect(users.required).toEqual(expect.arrayContaining(['type', 'occurred_at', 'user']));
  expect(users.properties.user.required).toEqual(expect.arrayContaining(['id', 'uid', 'organization_id', 'customer_id', 'status']));
  expect(users.properties.schema_version.enum).toEqual([CURRENT_SCHEMA_VERSION - 1, CURRENT_SCHEMA_VERSION]);
});
