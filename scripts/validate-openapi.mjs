#!/usr/bin/env node
/**
 * Validates an OpenAPI document against the official OpenAPI 3.1 JSON Schema
 * (@seriousme/openapi-schema-validator, an ESM-only library, hence a script of its own).
 * Usage: node scripts/validate-openapi.mjs <url or file>. Exit 0 when valid; 1 with the errors otherwise.
 */
import fs from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';

const location = process.argv[2];
if (!location) {
  console.error('usage: validate-openapi.mjs <url or file>');
  process.exit(2);
}
const doc = /^https?:/.test(location) ? await (await fetch(location)).json() : JSON.parse(fs.readFileSync(location, 'utf8'));
const validator = new Validator();
const result = await validator.validate(doc);
if (!result.valid || validator.version !== '3.1') {
  console.error(`not a valid OpenAPI 3.1 document (version ${validator.version}):`);
  console.error(JSON.stringify(result.errors, null, 2));
  process.exit(1);
}
console.log(`valid OpenAPI ${validator.version}: ${Object.keys(doc.paths ?? {}).length} paths`);
