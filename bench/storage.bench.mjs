#!/usr/bin/env node
/**
 * Disk per stored record on the embedded runtime: ingests `--records` measurements (100 per
 * request), waits until the platform is quiet (outbox published, push batches formed), stops it
 * cleanly and prints each database file's size divided by the record count, and the total. A push
 * target that never answers keeps every batch (with its records) in the push queue: the worst case.
 *
 *   node bench/storage.bench.mjs [--records 10000] [--root DIR]
 */
import fs from 'node:fs';
import path from 'node:path';
import { args, createTenant, createUser, ingest, settle, sleep, startEmbedded } from './harness.mjs';

const N = Number(args.records ?? 10_000);
const platform = await startEmbedded({ WELLSTREAM_PUSH_ALLOW_PRIVATE_TARGETS: 'true' });
try {
  const t = await createTenant(platform.base, 'storage');
  // A push target, so the push queue holds what it holds in production.
  const res = await fetch(`${platform.base}/organizations/${t.organizationId}/notification_target?token=${t.token}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url: 'http://127.0.0.1:9/unreachable', secret: 'bench-secret-0123456789' }),
  });
  if (res.status !== 200) throw new Error(`push target: ${res.status} ${await res.text()}`);
  const users = await Promise.all(Array.from({ length: 10 }, (_, i) => createUser(platform.base, t, `storage-${i}`)));
  await Promise.all(users.map((u, i) => ingest(platform.base, u, N / users.length, { perRequest: 100, concurrency: 1, tag: `s${i}` })));
  await settle(platform.pid, 5);
  await sleep(2000);
  // Measured after a clean shutdown: SQLite then folds its write-ahead logs into the databases.
  await platform.stop({ keepData: true });
  const files = fs.readdirSync(platform.dataDir).filter((f) => f.endsWith('.db'));
  const sizeOf = (f) => ['', '-wal'].reduce((sum, ext) => sum + (fs.existsSync(path.join(platform.dataDir, f + ext)) ? fs.statSync(path.join(platform.dataDir, f + ext)).size : 0), 0);
  const perRecord = Object.fromEntries(files.map((f) => [f, Math.round(sizeOf(f) / N)]));
  const total = Object.values(perRecord).reduce((a, b) => a + b, 0);
  console.log(JSON.stringify({ root: args.root ?? '.', records: N, bytes_per_record: perRecord, total_bytes_per_record: total }, null, 2));
} finally {
  await platform.stop().catch(() => {});
  fs.rmSync(platform.dataDir, { recursive: true, force: true });
}
process.exit(0);
