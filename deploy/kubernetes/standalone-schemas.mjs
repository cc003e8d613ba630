#!/usr/bin/env node
/**
 * kubeconform wants one self-contained JSON schema per kind; the Kubernetes schemas we can fetch
 * here (the kubernetes-validate wheel on PyPI, the same openapi2jsonschema output as
 * yannh/kubernetes-json-schema, whose GitHub host is unreachable from this machine) refer to one
 * shared `/api/_definitions.json`. This copies the definitions into each schema of the given kinds
 * and points the references at them, nothing else.
 *   node standalone-schemas.mjs <local-strict dir> <out dir> <kind> [kind …]
 */
import fs from 'node:fs';
import path from 'node:path';

const [from, to, ...kinds] = process.argv.slice(2);
if (!from || !to || kinds.length === 0) {
  console.error('usage: standalone-schemas.mjs <local-strict dir> <out dir> <kind> [kind …]');
  process.exit(2);
}
const defs = JSON.parse(fs.readFileSync(path.join(from, '_definitions.json'), 'utf8'));
const local = (text) => text.replaceAll('"/api/_definitions.json#/', '"#/').replaceAll('"_definitions.json#/', '"#/');
const $defs = JSON.parse(local(JSON.stringify(defs.$defs ?? defs.definitions)));
fs.mkdirSync(to, { recursive: true });
let written = 0;
for (const file of fs.readdirSync(from)) {
  if (!kinds.some((k) => file.startsWith(`${k.toLowerCase()}-`)) || !file.endsWith('.json')) continue;
  const schema = JSON.parse(local(fs.readFileSync(path.join(from, file), 'utf8')));
  fs.writeFileSync(path.join(to, file), JSON.stringify({ ...schema, $defs }));
  written++;
}
if (written === 0) {
  console.error(`no schema in ${from} for ${kinds.join(', ')}`);
  process.exit(1);
}
