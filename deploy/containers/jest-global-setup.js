/**
 * Global setup of the `containers` jest project: podman must run containers here (else the run
 * fails with the reason; it never skips), and every image is built from this checkout
 * (deploy/containers/build-images.sh: layers cached, so an unchanged tree builds in seconds).
 * WELLSTREAM_CONTAINERS_BUILD=0 uses the images as they are (while iterating on a test only).
 */
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const dir = __dirname;
const env = { ...process.env, CONTAINERS_CONF: path.join(dir, 'containers.conf') };

function fail(what, r) {
  const out = r ? `${r.stdout ?? ''}${r.stderr ?? ''}`.slice(-3000) : '';
  throw new Error(`[containers] ${what}\n${out}\nSee docs/deployment.md ("Running it here with podman") for what to install.`);
}

module.exports = async function globalSetup() {
  // Every tool the container tests use, podman's pause binary included, from one list.
  const tools = spawnSync('bash', [path.join(dir, '..', 'tools', 'ensure-tools.sh'), 'containers'], { env, stdio: ['ignore', 'inherit', 'pipe'], encoding: 'utf8' });
  if (tools.status !== 0) fail('a container tool could not be installed (deploy/tools/tools.tsv, group containers)', tools);
  for (const [cmd, hint] of [
    ['podman', 'apt-get install podman runc'],
    ['podman-compose', 'pip install podman-compose==1.2.0'],
  ]) {
    const r = spawnSync(cmd, ['--version'], { env, encoding: 'utf8' });
    if (r.status !== 0) fail(`${cmd} is not installed or does not run (${hint})`, r);
  }
  if (process.env.WELLSTREAM_CONTAINERS_BUILD !== '0') {
    const t0 = Date.now();
    const r = spawnSync('bash', [path.join(dir, 'build-images.sh')], { env, stdio: ['ignore', 'inherit', 'inherit'], timeout: 40 * 60_000 });
    if (r.status !== 0) fail(`building the images failed (exit ${r.status ?? r.signal})`);
    process.stdout.write(`[containers] images ready in ${Math.round((Date.now() - t0) / 1000)} s\n`);
  }
  // The smallest proof that podman can run a container on this machine (runtime, cgroups, rlimits).
  const probe = spawnSync('podman', ['run', '--rm', '--network', 'host', 'localhost/wellstream/users:local', 'node', '-e', 'process.exit(0)'], { env, encoding: 'utf8', timeout: 60_000 });
  if (probe.status !== 0) fail('podman cannot run a container here (podman run … node -e 0 failed)', probe);
};
