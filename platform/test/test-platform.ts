/**
 * Starts the whole platform in this process on port 0 with a fresh data dir, for HTTP tests.
 * `mode: 'distributed'` runs the same process on the real servers (integration project only).
 * Imported as `@wellstream/platform/testing`: it lives beside the platform it starts, so that
 * `@wellstream/testing`, a library, imports no deployable (.dependency-cruiser.cjs).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startPlatform, RunningPlatform } from '@wellstream/platform';
import type { SharedInfra } from '@wellstream/runtime';
import { distributedEnv, TEST_ADMIN_TOKEN } from '@wellstream/testing';

export interface TestPlatform extends RunningPlatform {
  dataDir: string;
  /** The settings it started with (a restart with these finds the same data, distributed too). */
  env: NodeJS.ProcessEnv;
  /** Stops the platform (data dir kept, so a restart can reuse it). */
  stop(): Promise<void>;
}

export async function startTestPlatform(
  options: {
    mode?: 'embedded' | 'distributed';
    env?: NodeJS.ProcessEnv;
    dataDir?: string;
    label?: string;
    /** Wraps each service's document store (the hot-path query guard). */
    observeStore?: SharedInfra['observeStore'];
    /** The clock the platform's sweeps read (retention tests move it forward). */
    clock?: SharedInfra['clock'];
  } = {},
): Promise<TestPlatform> {
  // Under the jest run's temporary directory, removed when the run ends (jest-tmpdir.js): a stop
  // keeps the dir so that a restart can reuse it.
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'wellstream-test-'));
  const env: NodeJS.ProcessEnv = {
    WELLSTREAM_PORT: '0',
    WELLSTREAM_HOST: '127.0.0.1',
    WELLSTREAM_DATA_DIR: dataDir,
    WELLSTREAM_ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    WELLSTREAM_LOG_LEVEL: process.env.WELLSTREAM_LOG_LEVEL ?? 'silent',
    WELLSTREAM_PUSH_FLUSH_MS: '200',
    WELLSTREAM_PUSH_RETRY_DELAYS_MS: '200,400',
    WELLSTREAM_PUSH_ALLOW_PRIVATE_TARGETS: 'true',
    ...(options.mode === 'distributed' ? distributedEnv(options.label ?? 'platform') : {}),
    ...options.env,
  };
  const platform = await startPlatform(env, { observeStore: options.observeStore, clock: options.clock });
  return Object.assign(platform, { dataDir, env });
}
