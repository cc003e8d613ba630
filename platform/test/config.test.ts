/**
 * Start-up configuration: bad values stop the process with a message naming the variable.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { ConfigError } from '@wellstream/config';
import { loadGatewayConfig } from '@wellstream/gateway';
import { startPlatform } from '@wellstream/platform';

const errorOf = (fn: () => unknown): ConfigError => {
  try {
    fn();
  } catch (e) {
    return e as ConfigError;
  }
  throw new Error('expected a ConfigError');
};

describe('configuration', () => {
  it('applies the documented defaults', () => {
    const c = loadGatewayConfig({});
    expect(c).toMatchObject({ WELLSTREAM_MODE: 'embedded', WELLSTREAM_PORT: 8080, WELLSTREAM_HOST: '127.0.0.1', WELLSTREAM_DATA_DIR: './data' });
    expect(c.WELLSTREAM_DEFAULT_RATE_LIMIT_PER_HOUR).toBe(2000);
  });

  it('names the bad variable', () => {
    const e = errorOf(() => loadGatewayConfig({ WELLSTREAM_PORT: 'eighty' }));
    expect(e).toBeInstanceOf(ConfigError);
    expect(e.variables).toEqual(['WELLSTREAM_PORT']);
    expect(e.message).toContain('WELLSTREAM_PORT');
  });

  it('requires the servers in distributed mode and names each missing one', () => {
    const e = errorOf(() => loadGatewayConfig({ WELLSTREAM_MODE: 'distributed' }));
    expect(e.variables).toEqual(expect.arrayContaining(['WELLSTREAM_KAFKA_BROKERS', 'WELLSTREAM_MONGO_URL', 'WELLSTREAM_REDIS_URL']));
  });

  it('refuses an unknown mode and a short admin token', () => {
    expect(errorOf(() => loadGatewayConfig({ WELLSTREAM_MODE: 'cluster' })).variables).toEqual(['WELLSTREAM_MODE']);
    expect(errorOf(() => loadGatewayConfig({ WELLSTREAM_ADMIN_TOKEN: 'short' })).variables).toEqual(['WELLSTREAM_ADMIN_TOKEN']);
  });

  it('validates the gateway keys: one or two (new,old), each at least 32 characters; required in distributed mode', () => {
    const key = 'k'.repeat(32);
    expect(loadGatewayConfig({ WELLSTREAM_GATEWAY_KEYS: `${key},${'o'.repeat(40)}` }).WELLSTREAM_GATEWAY_KEYS).toBe(`${key},${'o'.repeat(40)}`);
    for (const bad of ['short', `${key},`, `${key},${key},${key}`, `${key} ,${key}`]) {
      expect(errorOf(() => loadGatewayConfig({ WELLSTREAM_GATEWAY_KEYS: bad })).variables).toEqual(['WELLSTREAM_GATEWAY_KEYS']);
    }
    expect(errorOf(() => loadGatewayConfig({ WELLSTREAM_MODE: 'distributed' })).variables).toContain('WELLSTREAM_GATEWAY_KEYS');
  });

  it('makes the platform fail before it opens anything', async () => {
    await expect(startPlatform({ WELLSTREAM_PORT: '-1', WELLSTREAM_DATA_DIR: '/nonexistent/should-not-be-created' })).rejects.toBeInstanceOf(ConfigError);
    expect(require('node:fs').existsSync('/nonexistent/should-not-be-created')).toBe(false);
  });

  it('refuses a misspelled WELLSTREAM_MODE instead of falling back to embedded', async () => {
    const err = await startPlatform({ WELLSTREAM_MODE: 'embeded', WELLSTREAM_DATA_DIR: '/nonexistent/should-not-be-created' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).variables).toEqual(['WELLSTREAM_MODE']);
    expect(require('node:fs').existsSync('/nonexistent/should-not-be-created')).toBe(false);
  });

  it('`npm start` with a bad WELLSTREAM_MODE exits 1 with a message naming it', async () => {
    // The built entry point (npm test builds first), as `npm start` runs it.
    const main = path.resolve(__dirname, '../dist/main.js');
    const run = promisify(execFile);
    const failure = await run(process.execPath, [main], {
      env: { PATH: process.env.PATH, WELLSTREAM_MODE: 'cluster', WELLSTREAM_PORT: '0', WELLSTREAM_DATA_DIR: '/nonexistent/should-not-be-created' },
      timeout: 30_000,
    }).then(
      () => undefined,
      (e: { code?: number; stderr?: string }) => e,
    );
    expect(failure).toMatchObject({ code: 1 });
    expect(failure?.stderr).toMatch(/Invalid configuration:\n\s+WELLSTREAM_MODE: .*embedded.*distributed/);
  });
});
