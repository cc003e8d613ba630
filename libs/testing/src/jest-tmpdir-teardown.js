'use strict';
// Jest globalTeardown: see jest-tmpdir.js.
module.exports = require('./jest-tmpdir').teardown;
