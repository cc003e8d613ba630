/**
 * The Kubernetes manifests (deploy/kubernetes): valid against the Kubernetes 1.30 schemas, strictly
 * (kubeconform, deploy/kubernetes/validate.sh), and complete: every deployable has a Deployment,
 * Service, ConfigMap and Secret; probes on /health; requests and limits; a read-only root; the
 * gateway keys from the shared Secret; a PodDisruptionBudget for streams. A manifest with an
 * unknown field or a wrong type is rejected (the validator can fail).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEPLOYABLES } from './container-platform';
import { ROOT, run } from './podman';

jest.setTimeout(300_000);
const DIR = path.join(ROOT, 'deploy/kubernetes');
const validate = (...files: string[]) => run('bash', [path.join(DIR, 'validate.sh'), ...files], { timeoutMs: 280_000 });
/** The documents of a manifest file, split on `---` (enough for these files: no block scalars). */
const docs = (file: string) => fs.readFileSync(path.join(DIR, file), 'utf8').split(/^---$/m);
const kindOf = (doc: string) => /^kind: (\w+)/m.exec(doc)?.[1];

it('every manifest is valid against the Kubernetes schemas (strict)', async () => {
  const r = await validate();
  expect(r.stderr + r.stdout).toMatch(/Invalid: 0, Errors: 0/);
  expect(r.code).toBe(0);
});

it('rejects an unknown field and a wrong type', async () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'wellstream-k8s-'));
  const users = fs.readFileSync(path.join(DIR, 'users.yaml'), 'utf8');
  fs.writeFileSync(path.join(tmp, 'unknown-field.yaml'), users.replace('imagePullPolicy: IfNotPresent', 'imagePullPolicy: IfNotPresent\n          imagePullPolicyy: Always'));
  fs.writeFileSync(path.join(tmp, 'wrong-type.yaml'), users.replace(/replicas: \d+/, 'replicas: "two"'));
  try {
    for (const file of ['unknown-field.yaml', 'wrong-type.yaml']) {
      const r = await validate(path.join(tmp, file));
      expect(r.code).not.toBe(0);
      expect(r.stdout + r.stderr).toMatch(/is invalid/);
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});

describe.each(DEPLOYABLES)('%s.yaml', (name) => {
  const all = docs(`${name}.yaml`);
  const deployment = all.find((d) => kindOf(d) === 'Deployment') ?? '';

  it('has a Deployment, Service, ConfigMap and Secret', () => {
    expect(all.map(kindOf).filter((k) => k !== 'PodDisruptionBudget').sort()).toEqual(['ConfigMap', 'Deployment', 'Secret', 'Service']);
  });

  it('probes /health, sets requests and limits, runs read-only as non-root, takes the gateway keys from the shared Secret', () => {
    expect(deployment).toMatch(/startupProbe: \{httpGet: \{path: \/health/);
    expect(deployment).toMatch(/readinessProbe: \{httpGet: \{path: \/health/);
    expect(deployment).toMatch(/requests: \{cpu: \w+, memory: \w+\}/);
    expect(deployment).toMatch(/limits: \{cpu: "?\w+"?, memory: \w+\}/);
    expect(deployment).toMatch(/readOnlyRootFilesystem: true/);
    expect(deployment).toMatch(/runAsNonRoot: true/);
    expect(deployment).toContain('secretRef: {name: wellstream-gateway-keys}');
    expect(deployment).toMatch(/maxUnavailable: 0/);
  });
});

it('streams has a PodDisruptionBudget keeping one replica up', () => {
  const pdb = docs('streams.yaml').find((d) => kindOf(d) === 'PodDisruptionBudget') ?? '';
  expect(pdb).toMatch(/minAvailable: 1/);
  expect(pdb).toContain('app.kubernetes.io/name: wellstream-streams');
});
