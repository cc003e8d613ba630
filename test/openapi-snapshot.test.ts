/**
 * The published /v2/openapi.json against the copy kept beside this test, byte for byte (only the
 * server URL, which carries the test's port, is set aside). The SDK is generated from this document,
 * so any change to it shows up here as a diff in review. After an intended change, write the new
 * copy with WELLSTREAM_UPDATE_OPENAPI_SNAPSHOT=1 and commit it with the change.
 */
import fs from 'node:fs';
import path from 'node:path';
import { startTestPlatform, TestPlatform } from '@wellstream/platform/testing';

jest.setTimeout(60_000);

const SNAPSHOT = path.join(__dirname, 'openapi-published.snapshot.json');

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform?.stop());

it('publishes the same document as the committed copy', async () => {
  const doc = (await (await fetch(`${platform.baseUrl}/openapi.json`)).json()) as { servers: unknown };
  expect(doc.servers).toEqual([{ url: platform.baseUrl }]);
  const text = `${JSON.stringify({ ...doc, servers: [{ url: '{public_url}/v2' }] }, null, 2)}\n`;
  if (process.env.WELLSTREAM_UPDATE_OPENAPI_SNAPSHOT === '1') fs.writeFileSync(SNAPSHOT, text);
  // Compared as text: key order is part of what generators read.
  expect(text).toBe(fs.readFileSync(SNAPSHOT, 'utf8'));
});
