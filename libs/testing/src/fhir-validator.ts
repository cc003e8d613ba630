/**
 * HL7's FHIR R4 validator (HAPI FHIR, deploy/fhir-validator) as one JVM per test file: built into
 * the cache by ensure-validator.sh on first use, started once, then fed resources one JSON line at a
 * time. Starting it fails loudly (with the harness's stderr) rather than letting a FHIR test pass
 * without the validator.
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';

const ENSURE = path.resolve(__dirname, '../../../deploy/fhir-validator/ensure-validator.sh');
const MAIN_CLASS = 'dev.wellstream.fhirvalidator.ValidatorServer';

export interface FhirValidationMessage {
  severity: 'fatal' | 'error' | 'warning' | 'information';
  location: string;
  message: string;
}

type Pending = { resolve: (m: FhirValidationMessage[]) => void; reject: (e: Error) => void };

export class FhirValidator {
  private nextId = 0;
  private readonly pending = new Map<string, Pending>();
  private stderrTail: string[] = [];
  private exited: string | undefined;

  private constructor(private readonly child: ChildProcessWithoutNullStreams) {}

  /** Builds the harness when missing, starts the JVM and waits until it has loaded the R4 definitions. */
  static async start(options: { timeoutMs?: number; env?: NodeJS.ProcessEnv } = {}): Promise<FhirValidator> {
    const { timeoutMs = 180_000, env = process.env } = options;
    const built = spawnSync('bash', [ENSURE], { encoding: 'utf8', env, timeout: 15 * 60_000, stdio: ['ignore', 'pipe', 'pipe'] });
    process.stderr.write(built.stderr ?? '');
    const dir = built.stdout?.trim().split('\n').pop();
    if (built.status !== 0 || !dir) {
      const said = (built.stderr ?? '').trim().split('\n').slice(-5).join('\n');
      throw new Error(`FHIR validator: ensure-validator.sh failed (${built.status ?? built.signal ?? built.error?.message}); the FHIR tests cannot run without it\n${said}`);
    }
    const child = spawn('java', ['-Xmx1g', '-XX:+UseSerialGC', '-cp', `${dir}/classes:${dir}/libs/*`, MAIN_CLASS], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    const v = new FhirValidator(child);
    return v.waitReady(timeoutMs);
  }

  private waitReady(timeoutMs: number): Promise<FhirValidator> {
    return new Promise((resolve, reject) => {
      const fail = (why: string) => {
        clearTimeout(timer);
        this.child.kill('SIGKILL');
        reject(new Error(`FHIR validator did not start: ${why}\n--- its stderr (last lines) ---\n${this.stderrTail.join('\n')}`));
      };
      const timer = setTimeout(() => fail(`not ready after ${timeoutMs} ms`), timeoutMs);
      readline.createInterface({ input: this.child.stderr }).on('line', (l) => {
        this.stderrTail.push(l);
        if (this.stderrTail.length > 40) this.stderrTail.shift();
      });
      this.child.on('error', (e) => fail(e.message));
      this.child.on('exit', (code, signal) => {
        this.exited = `exited (${code ?? signal})`;
        for (const p of this.pending.values()) p.reject(new Error(`FHIR validator ${this.exited}\n${this.stderrTail.join('\n')}`));
        this.pending.clear();
        fail(this.exited);
      });
      let ready = false;
      readline.createInterface({ input: this.child.stdout }).on('line', (line) => {
        const msg = JSON.parse(line) as { ready?: boolean; id?: string; messages?: FhirValidationMessage[]; failure?: string };
        if (!ready) {
          if (msg.ready) {
            ready = true;
            clearTimeout(timer);
            resolve(this);
          }
          return;
        }
        const p = msg.id === undefined ? undefined : this.pending.get(msg.id);
        if (!p || msg.id === undefined) return;
        this.pending.delete(msg.id);
        if (msg.failure) p.reject(new Error(`FHIR validator could not validate: ${msg.failure}`));
        else p.resolve(msg.messages ?? []);
      });
    });
  }

  /** Every message the validator gives for one resource, against R4 core and the profiles named. */
  validate(resource: unknown, profiles: string[] = []): Promise<FhirValidationMessage[]> {
    if (this.exited) return Promise.reject(new Error(`FHIR validator ${this.exited}`));
    const id = String(++this.nextId);
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.child.stdin.write(`${JSON.stringify({ id, resource, profiles })}\n`);
    });
  }

  /** Only the errors (and fatal messages): what must be none for a resource to conform. */
  async errors(resource: unknown, profiles: string[] = []): Promise<FhirValidationMessage[]> {
    return (await this.validate(resource, profiles)).filter((m) => m.severity === 'error' || m.severity === 'fatal');
  }

  async stop(): Promise<void> {
    if (this.exited) return;
    const done = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 5000);
    await done;
    clearTimeout(timer);
  }
}

/** One line per message, for a failing expectation that shows what the validator said. */
export const formatFhirMessages = (messages: FhirValidationMessage[]): string => messages.map((m) => `${m.severity} ${m.location}: ${m.message}`).join('\n');
