'use strict';
// Jest globalSetup: starts the real test servers (Redis, Kafka, FerretDB) with servers.sh and
// exports their addresses to the test workers through process.env:
//   WELLSTREAM_TEST_REDIS_URL, WELLSTREAM_TEST_KAFKA_BROKERS, WELLSTREAM_TEST_MONGO_URL,
//   WELLSTREAM_TEST_STATE_DIR (for `servers.sh restart-kafka <dir>` in broker-restart tests).
// Servers whose variable is already set (started outside jest) are reused and not started.
// If a server cannot start, this throws: the test run fails, it never skips.
// Plain CommonJS, Node builtins only.

const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');

const SCRIPT = path.join(__dirname, 'servers.sh');
const REPO_ROOT = path.resolve(__dirname, '..', '..');
const SERVERS = [
  { name: 'redis', env: 'WELLSTREAM_TEST_REDIS_URL', what: 'Redis' },
  { name: 'kafka', env: 'WELLSTREAM_TEST_KAFKA_BROKERS', what: 'Kafka' },
  { name: 'mongo', env: 'WELLSTREAM_TEST_MONGO_URL', what: 'FerretDB (MongoDB API)' },
];
const STARTED_KEY = '__WELLSTREAM_TEST_SERVERS__';

function parseEnvFile(file) {
  const out = {};
  for (const line of fs.readFileSync(file, 'utf8').split(/\r?\n/)) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line.trim());
    if (m) out[m[1]] = m[2];
  }
  return out;
}

function describe(names) {
  return names.map((n) => (SERVERS.find((s) => s.name === n) || { what: n }).what).join(', ');
}

module.exports = async function wellstreamGlobalSetup() {
  const missing = SERVERS.filter((s) => !process.env[s.env]);
  if (missing.length === 0) {
    console.log('[wellstream] test servers given by the environment; starting none');
    return;
  }

  const stateDir = path.resolve(
    process.env.WELLSTREAM_TEST_STATE_DIR || path.join(REPO_ROOT, '.test-servers'),
  );
  const names = missing.map((s) => s.name);
  fs.mkdirSync(stateDir, { recursive: true });
  const failedFile = path.join(stateDir, 'start-failed');
  fs.rmSync(failedFile, { force: true });

  console.log(`\n[wellstream] starting test servers (${names.join(', ')}) in ${stateDir}`);
  const res = spawnSync('bash', [SCRIPT, 'start', stateDir, ...names], {
    stdio: 'inherit',
    env: process.env,
  });

  if (res.error || res.status !== 0) {
    let failed = [];
    try {
      failed = fs.readFileSync(failedFile, 'utf8').split(/\s+/).filter(Boolean);
    } catch (_) {
      /* no failure file: servers.sh died before it could name the server */
    }
    const who = failed.length ? describe(failed) : `one of ${describe(names)}`;
    const how = res.error
      ? `could not run ${SCRIPT}: ${res.error.message}`
      : `servers.sh start exited with ${res.status === null ? `signal ${res.signal}` : `code ${res.status}`}`;
    throw new Error(
      `Wellstream test servers: could not start ${who} (${how}). ` +
        `See the log tail printed above; logs are under ${stateDir}.`,
    );
  }

  const envFile = path.join(stateDir, 'servers.env');
  const vars = parseEnvFile(envFile);
  const absent = missing.filter((s) => !vars[s.env]);
  if (absent.length) {
    spawnSync('bash', [SCRIPT, 'stop', stateDir, ...names], { stdio: 'inherit' });
    throw new Error(
      `Wellstream test servers: ${describe(absent.map((s) => s.name))} not listed in ${envFile} ` +
        'after servers.sh start succeeded',
    );
  }
  for (const s of missing) process.env[s.env] = vars[s.env];
  process.env.WELLSTREAM_TEST_STATE_DIR = stateDir;

  // Read by jest-global-teardown.js (same process): stop only what was started here.
  globalThis[STARTED_KEY] = { stateDir, names };
  for (const s of missing) console.log(`[wellstream] ${s.env}=${process.env[s.env]}`);
};
