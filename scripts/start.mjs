#!/usr/bin/env node
/** `npm start`: install and build what is missing, then run the embedded platform. */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const boot = spawnSync(process.execPath, [path.join(root, 'scripts', 'bootstrap.mjs')], { stdio: 'inherit' });
if (boot.status !== 0) process.exit(boot.status ?? 1);
// Replace this process's job with the platform: signals (Ctrl-C) go straight to it.
const r = spawnSync(process.execPath, [path.join(root, 'platform', 'dist', 'main.js')], { stdio: 'inherit' });
process.exit(r.status ?? 0);
