/**
 * A user created right after its organization, on the distributed runtime with every service in
 * its own process (as under Kubernetes): the users service learns of organizations from the
 * `organizations` log, so the gateway's answer to the organization's creation must not come before
 * the users service can know it. Many rounds, the first right after the platform started (a new
 * log, consumers just joined), each creating the user at once.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTenant, distributedEnv, ProcessPlatform, startProcessPlatform } from '@wellstream/testing';

jest.setTimeout(300_000);

const ROUNDS = 40;

describe('an organization, then at once a user in it (distributed, one process per service)', () => {
  let platform: ProcessPlatform;

  beforeAll(async () => {
    platform = await startProcessPlatform({ ...distributedEnv('orguser'), WELLSTREAM_LOG_LEVEL: 'warn', WELLSTREAM_DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'wellstream-orguser-')) });
  }, 180_000);

  afterAll(async () => platform?.stop(), 60_000);

  it(`creates the user every time, ${ROUNDS} rounds from the platform's start`, async () => {
    const answers: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const tenant = await createTenant(platform.baseUrl);
      // Not the conformance-checking client: every answer is counted, whatever it is.
      const res = await fetch(`${platform.baseUrl}/organizations/${tenant.organizationId}/users?token=${tenant.token}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ uid: `user-${round}` }),
      });
      answers.push(res.status === 201 ? '201' : `${res.status} ${await res.text()}`);
    }
    if (answers.some((a) => a !== '201')) console.log(platform.describe());
    expect(answers).toEqual(Array(ROUNDS).fill('201'));
  });
});
