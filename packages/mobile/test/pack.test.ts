/**
 * `npm pack` of the package, installed into a plain React Native project's node_modules (the
 * other packages are the example app's: react, react-native, the bridges, AsyncStorage), type-
 * checks the example app against it; and the packed core loads and syncs in Node with no React
 * Native present (nothing of it imports React Native).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(__dirname, '../../..');
const tsc = path.join(root, 'node_modules/typescript/bin/tsc');
const example = path.join(root, 'examples/mobile-app');

let app: string;
beforeAll(() => {
  execFileSync(process.execPath, [tsc, '-b', path.join(root, 'packages/mobile')], { stdio: 'inherit' });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wellstream-mobile-pack-'));
  const tgz = execFileSync('npm', ['pack', '--silent', '--pack-destination', dir], { cwd: path.join(root, 'packages/mobile'), encoding: 'utf8' }).trim().split('\n').pop()!;
  app = path.join(dir, 'app');
  const target = path.join(app, 'node_modules/@wellstream/mobile');
  fs.mkdirSync(target, { recursive: true });
  execFileSync('tar', ['xzf', path.join(dir, tgz), '-C', target, '--strip-components=1']);
  for (const dep of ['react', 'react-native', '@kingstinct/react-native-healthkit', 'react-native-health-connect', 'react-native-nitro-modules', '@react-native-async-storage/async-storage', '@types/react']) {
    const link = path.join(app, 'node_modules', dep);
    fs.mkdirSync(path.dirname(link), { recursive: true });
    fs.symlinkSync(fs.realpathSync(path.join(example, 'node_modules', dep)), link);
  }
  fs.cpSync(path.join(example, 'src'), path.join(app, 'src'), { recursive: true });
  fs.copyFileSync(path.join(example, 'index.js'), path.join(app, 'index.js'));
  fs.copyFileSync(path.join(example, 'tsconfig.json'), path.join(app, 'tsconfig.json'));
  fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'plain-rn-app', private: true }));
}, 120_000);

it('holds the built core, its typings and the README, and no sources or tests', () => {
  const files = fs.readdirSync(path.join(app, 'node_modules/@wellstream/mobile'), { recursive: true }).map(String);
  expect(files).toEqual(expect.arrayContaining(['README.md', 'package.json', path.join('dist', 'index.js'), path.join('dist', 'index.d.ts')]));
  expect(files.some((f) => f.startsWith('src') || f.startsWith('test'))).toBe(false);
});

it('the example app type-checks against the packed package and the real bridges', () => {
  expect(() => execFileSync(process.execPath, [tsc, '-p', path.join(app, 'tsconfig.json')], { encoding: 'utf8', stdio: 'pipe' })).not.toThrow();
});

it('the packed core maps and syncs in Node, with no React Native to load', async () => {
  const packed = path.join(app, 'node_modules/@wellstream/mobile');
  const code = `
    const Module = require('node:module');
    const load = Module._load;
    Module._load = function (request, ...rest) {
      if (request === 'react-native' || request.startsWith('react-native/')) throw new Error('react-native loaded');
      return load.call(this, request, ...rest);
    };
    const m = require(${JSON.stringify(packed)});
    const store = new m.MemoryHealthKit();
    store.add(...m.appleWatchUser({ days: 2, hrMinutes: 60, stepMinutes: 60 }));
    const posted = [];
    const fetch = async (url, init) => { if (url.includes('/mobile/records')) posted.push(...JSON.parse(init.body).records); return { status: url.includes('/connect') ? 404 : 200, headers: { get: () => null }, text: async () => '{"data":[]}' }; };
    const mobile = new m.WellstreamMobile({ storage: m.memoryStorage(), source: m.healthKitSource(store.bridge), fetch });
    mobile.configure({ baseUrl: 'http://127.0.0.1:9/v2' });
    mobile.connect('token').then(() => mobile.sync()).then((r) => console.log(JSON.stringify({ uploaded: r.uploaded, types: [...new Set(posted.map((p) => p.type))].sort() })));
  `;
  const out = JSON.parse(execFileSync(process.execPath, ['-e', code], { cwd: os.tmpdir(), encoding: 'utf8' }));
  expect(out.uploaded).toBeGreaterThan(0);
  expect(out.types).toEqual(['intraday', 'measurement', 'nutrition', 'sleep', 'summary']);
});
