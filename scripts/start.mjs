#!/usr/bin/env node
/** `npm start`: install and build what is missing, then run the embedded platform in this process. */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const boot = spawnSync(process.execPath, [path.join(root, 'scripts', 'bootstrap.mjs')], { stdio: 'inherit' });
if (boot.status !== 0) process.exit(boot.status ?? 1);
// In this very process, so Ctrl-C reaches the platform's own clean shutdown.
createRequire(import.meta.url)(path.join(root, 'platform', 'dist', 'main.js'));
