/**
 * The FHIR validator harness fails loudly: a machine without Java makes start() throw with the
 * reason, never a FHIR suite that passes without validating.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FhirValidator } from '../src/fhir-validator';

it('refuses to start, naming the missing tool, where java is not on the PATH', async () => {
  // A PATH with the tools the set-up script itself needs, but no java, javac or mvn.
  const bin = fs.mkdtempSync(path.join(os.tmpdir(), 'no-java-'));
  for (const tool of ['bash', 'dirname', 'cat', 'sha256sum', 'cut', 'find', 'sort', 'mkdir', 'flock', 'tail', 'grep', 'id', 'printf']) {
    const found = ['/usr/bin', '/bin'].map((d) => path.join(d, tool)).find((p) => fs.existsSync(p));
    if (found) fs.symlinkSync(found, path.join(bin, tool));
  }
  await expect(FhirValidator.start({ env: { ...process.env, PATH: bin } })).rejects.toThrow(/java is required/);
});
