'use strict';
// Jest globalSetup/globalTeardown for the whole run: every temporary file the run's tests make
// (platforms' data dirs, which a stop keeps for a restart; browsers' profiles; fixtures) goes under
// one directory, removed when the run ends. Workers start after globalSetup and inherit TMPDIR.
// Plain CommonJS, Node builtins only.

const fs = require('fs');
const os = require('os');
const path = require('path');

const KEY = '__WELLSTREAM_TEST_TMPDIR__';

async function setup() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wellstream-jest-'));
  globalThis[KEY] = { dir, previous: process.env.TMPDIR };
  process.env.TMPDIR = dir;
}

async function teardown() {
  const run = globalThis[KEY];
  if (!run) return;
  delete globalThis[KEY];
  if (run.previous === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = run.previous;
  fs.rmSync(run.dir, { recursive: true, force: true });
}

module.exports = { setup, teardown };
