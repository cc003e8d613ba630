// What a FerretDB server does with the platform's query shapes: fills a `records` collection the
// way the records service declares it (index user_id, type, start_time, _id), then for each shape
// prints FerretDB's explain (its pushdown flags and the backend's own plan: node types, index
// names, the filter the backend ran) and the query's time. Used by ferretdb-pg-explain.sh;
// usage: node ferretdb-explain-probe.mjs <mongodb-url> <label> [documents]
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { mongo } = createRequire(path.join(root, 'libs/store/package.json'))('mongoose');
const [url, label = 'server', total = '20000'] = process.argv.slice(2);
if (!url) throw new Error('usage: node ferretdb-explain-probe.mjs <mongodb-url> <label> [documents]');

const USERS = 50;
const TYPES = ['measurement', 'sleep', 'summary', 'workout'];
const client = await mongo.MongoClient.connect(url);
const db = client.db('explain_probe');
await db.dropDatabase();
const records = db.collection('records');
await records.createIndex({ user_id: 1, type: 1, start_time: 1, _id: 1 });
const docs = Array.from({ length: Number(total) }, (_, i) => ({
  _id: `r${String(i).padStart(7, '0')}`,
  user_id: `u${i % USERS}`,
  type: TYPES[i % TYPES.length],
  start_time: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
  value: i,
}));
for (let i = 0; i < docs.length; i += 1000) await records.insertMany(docs.slice(i, i + 1000), { ordered: false });

const mid = docs[Math.floor(docs.length / 2)].start_time;
const shapes = [
  ['_id equality', { _id: docs[123]._id }],
  ['_id $in of 100', { _id: { $in: docs.slice(200, 300).map((d) => d._id) } }],
  ['user + _id $in of 100', { user_id: 'u7', _id: { $in: docs.slice(200, 300).map((d) => d._id) } }],
  ['user equality', { user_id: 'u7' }],
  ['user + type equality', { user_id: 'u7', type: 'sleep' }],
  ['user + type + start_time range, sorted, limit 50', { user_id: 'u7', type: 'sleep', start_time: { $gte: mid } }, { start_time: 1, _id: 1 }, 50],
  ['empty filter, sorted by start_time, limit 10', {}, { start_time: 1 }, 10],
];

/** The backend plan's nodes: type, relation, index, filter (PostgreSQL JSON plan or SQLite rows). */
function nodes(plan, out = []) {
  if (Array.isArray(plan)) plan.forEach((p) => nodes(p, out));
  else if (plan && typeof plan === 'object') {
    if (plan['Node Type']) out.push([plan['Node Type'], plan['Index Name'] && `index ${plan['Index Name']}`, plan.Filter && `filter ${plan.Filter}`].filter(Boolean).join(', '));
    if (typeof plan.detail === 'string') out.push(plan.detail);
    for (const [k, v] of Object.entries(plan)) if (k !== 'Node Type' && typeof v === 'object') nodes(v, out);
  }
  return out;
}

console.log(`## ${label}: ${docs.length} documents, ${USERS} users, index (user_id, type, start_time, _id)`);
for (const [name, filter, sort, limit] of shapes) {
  const find = { find: 'records', filter, ...(sort && { sort }), ...(limit && { limit }) };
  const explained = await db.command({ explain: find, verbosity: 'queryPlanner' });
  const t0 = process.hrtime.bigint();
  const rounds = 5;
  for (let r = 0; r < rounds; r++) {
    let cursor = records.find(filter);
    if (sort) cursor = cursor.sort(sort);
    if (limit) cursor = cursor.limit(limit);
    await cursor.toArray();
  }
  const ms = Number(process.hrtime.bigint() - t0) / 1e6 / rounds;
  const flags = ['filterPushdown', 'sortPushdown', 'limitPushdown'].map((f) => `${f}=${explained[f]}`).join(' ');
  console.log(`- ${name}: ${ms.toFixed(1)} ms; ${flags}; plan: ${nodes(explained.queryPlanner).join(' / ') || JSON.stringify(explained.queryPlanner)}`);
}
await client.close();
