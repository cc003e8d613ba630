/**
 * Bad input to a container: a missing or invalid required variable makes it exit at once, non-zero,
 * with the configuration error on stderr (the variable named, no stack trace). Every image.
 */
import { DEPLOYABLES } from './container-platform';
import { run } from './podman';

jest.setTimeout(120_000);

const STACK = /\n\s+at |node:internal|\.js:\d+/;

describe.each(DEPLOYABLES)('%s container with bad configuration', (name) => {
  const image = `localhost/wellstream/${name}:local`;
  const start = (env: Record<string, string>) =>
    run('podman', ['run', '--rm', '--read-only', '--tmpfs', '/tmp', ...Object.entries(env).flatMap(([k, v]) => ['-e', `${k}=${v}`]), image], { timeoutMs: 30_000 });

  it('a missing required variable: exits non-zero at once, names it on stderr', async () => {
    const t0 = Date.now();
    const r = await start({});
    expect(r.code).not.toBe(0);
    expect(Date.now() - t0).toBeLessThan(15_000);
    expect(r.stderr).toContain(`[${name}] Invalid configuration`);
    expect(r.stderr).toContain('WELLSTREAM_KAFKA_BROKERS is required');
    expect(r.stderr).not.toMatch(STACK);
  });

  it('an invalid value (a gateway key too short): exits non-zero, says which and why', async () => {
    const r = await start({ WELLSTREAM_KAFKA_BROKERS: '127.0.0.1:1', WELLSTREAM_MONGO_URL: 'mongodb://127.0.0.1:1', WELLSTREAM_REDIS_URL: 'redis://127.0.0.1:1', WELLSTREAM_GATEWAY_KEYS: 'short' });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/WELLSTREAM_GATEWAY_KEYS: must be one key.*at least 32 characters/);
    expect(r.stderr).not.toMatch(STACK);
  });
});

describe('edge (its own image) with bad configuration', () => {
  const start = (env: Record<string, string>) =>
    run('podman', ['run', '--rm', '--read-only', '--tmpfs', '/tmp', ...Object.entries(env).flatMap(([k, v]) => ['-e', `${k}=${v}`]), 'localhost/wellstream/edge:local'], { timeoutMs: 30_000 });

  it('no upstream gateways: exits non-zero at once, names the variable on stderr', async () => {
    const r = await start({});
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('[edge] Invalid configuration');
    expect(r.stderr).toContain('WELLSTREAM_EDGE_UPSTREAMS is required');
    expect(r.stderr).not.toMatch(STACK);
  });
});
