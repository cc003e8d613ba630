'use strict';
// Jest globalSetup: see jest-tmpdir.js.
module.exports = require('./jest-tmpdir').setup;
