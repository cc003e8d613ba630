'use strict';
// Jest globalSetup: starts the real test servers (Redis, Kafka, FerretDB) with servers.sh and
// exports their addresses to the test workers through process.env:
//   WELLSTREAM_TEST_REDIS_URL, WELLSTREAM_TEST_KAFKA_BROKERS, WELLSTREAM_TEST_MONGO_URL,
//   WELLSTREAM_TEST_STATE_DIR (for `servers.sh restart-kafka <dir>` in broker-restart tests).
// Servers whose variable is already set (started outside jest) are reused and not started.
// If a server cannot start, this throws: the test run fails, it never skips.
// Quiet: servers.sh's output (Maven, Go, apt, server log tails) goes to <state dir>/servers-start.log;
// the terminal gets one line per server with its time, and on failure the log's last lines, its
// path and the command that retries. WELLSTREAM_VERBOSE=1 shows everything as it comes.
// Plain CommonJS, Node builtins only.

const fs = require('fs');
const path = require('path');
const { spawn, spawnSync } = require('child_process');

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

  const logFile = path.join(stateDir, 'servers-start.log');
  const shownLog = shown(logFile);
  console.log(`\n[wellstream] starting test servers (${describe(names)}); log: ${shownLog}`);
  const res = await startQuietly(['start', stateDir, ...names], logFile);

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
    console.error(
      [
        `[wellstream] could not start ${who} (${how}); last lines of ${shownLog}:`,
        tail(logFile, 60).replace(/^/gm, '  | '),
        `[wellstream] retry: bash ${shown(SCRIPT)} start ${stateDir} ${names.join(' ')}`,
      ].join('\n'),
    );
    throw new Error(
      `Wellstream test servers: could not start ${who} (${how}). ` +
        `See the log tail printed above; the whole log is ${logFile}, server logs are under ${stateDir}.`,
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
};

/** A path relative to the working directory when it lies inside it, else absolute. */
function shown(file) {
  const rel = path.relative(process.cwd(), file);
  return rel && !rel.startsWith('..') ? rel : file;
}

function tail(file, n) {
  try {
    return fs.readFileSync(file, 'utf8').replace(/\s+$/, '').split('\n').slice(-n).join('\n');
  } catch (err) {
    return `(no log: ${err.message})`;
  }
}

/**
 * Runs servers.sh with its output in `logFile`, printing one line as each server is ready (and
 * when one is being installed, which takes minutes the first time), each with its time since start.
 */
function startQuietly(args, logFile) {
  const started = Date.now();
  const since = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
  const out = fs.openSync(logFile, 'w');
  const verbose = process.env.WELLSTREAM_VERBOSE === '1';
  return new Promise((resolve) => {
    const child = spawn('bash', [SCRIPT, ...args], { env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let pending = '';
    const take = (chunk) => {
      fs.writeSync(out, chunk);
      if (verbose) process.stderr.write(chunk);
      pending += chunk.toString('utf8');
      const lines = pending.split('\n');
      pending = lines.pop();
      for (const line of lines) {
        // servers.sh's own progress lines: "[servers] <name>: ready after Ns", "<name>: fetching …".
        const m = /^\[servers\] (redis|kafka|mongo): (.*)$/.exec(line);
        if (!m) continue;
        if (m[2].startsWith('ready after')) console.log(`[wellstream]   ${describe([m[1]])} ready (${since()})`);
        else if (/^(fetching|building|redis-server not found)/.test(m[2])) console.log(`[wellstream]   ${describe([m[1]])}: installing, first time only (${m[2].split(' (')[0]})`);
      }
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    let done = false;
    const finish = (result) => {
      if (done) return;
      done = true;
      fs.closeSync(out);
      resolve(result);
    };
    child.on('error', (error) => finish({ error, status: null, signal: null }));
    child.on('close', (status, signal) => finish({ status, signal }));
  });
}
