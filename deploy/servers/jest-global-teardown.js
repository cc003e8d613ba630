'use strict';
// Jest globalTeardown: stops the servers that jest-global-setup.js started (and only those).
// Set WELLSTREAM_TEST_KEEP_SERVERS=1 to leave them running for inspection; a later
// `servers.sh start` or `servers.sh stop <state-dir>` cleans them up.
// Plain CommonJS, Node builtins only.

const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');

const SCRIPT = path.join(__dirname, 'servers.sh');
const STARTED_KEY = '__WELLSTREAM_TEST_SERVERS__';

module.exports = async function wellstreamGlobalTeardown() {
  const started = globalThis[STARTED_KEY];
  if (!started) return; // servers came from the environment, or setup started nothing
  delete globalThis[STARTED_KEY];
  if (process.env.WELLSTREAM_TEST_KEEP_SERVERS === '1') {
    console.log(`[wellstream] keeping test servers running (state dir ${started.stateDir})`);
    return;
  }
  // Quiet like the start: what servers.sh says goes to the state dir, shown only if stopping fails.
  const res = spawnSync('bash', [SCRIPT, 'stop', started.stateDir, ...started.names], { encoding: 'utf8' });
  fs.writeFileSync(path.join(started.stateDir, 'servers-stop.log'), `${res.stdout ?? ''}${res.stderr ?? ''}`);
  if (res.error || res.status !== 0) {
    // Do not mask test results; just say so. Leftovers are stopped by the next start.
    process.stderr.write(`${res.stdout ?? ''}${res.stderr ?? ''}`);
    console.error(
      `[wellstream] stopping test servers failed (${res.error ? res.error.message : `exit ${res.status}`}); ` +
        `run: ${SCRIPT} stop ${started.stateDir}`,
    );
  }
};
