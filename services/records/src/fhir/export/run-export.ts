/**
 * The export's work: for each of the organization's users (by uid), the Patient, then the user's
 * records within the organization's history (stored at or after `_since`) as Observations, and the
 * Devices they name, appended to one NDJSON file per resource type in parts. The cost is the
 * customer's own data only, and the work yields between pages (a TimeSlice that gives way), so
 * it never stalls another customer's requests. Stops when the job is cancelled, taken over by
 * another replica, or this process stops (`live` turns false); the job is then finished elsewhere.
 */
import { RESOURCE_TYPES } from '@wellstream/catalog';
import { deviceIdOf, deviceResource, observationsOf, patientIdOf, patientResource, type FhirResource } from '@wellstream/fhir';
import type { Logger } from '@wellstream/logging';
import type { RecordRepository } from '../../records/record.repository';
import { addDays } from '@wellstream/clock';
import type { UserProjectionRepository } from '../../users/user-projection.repository';
import type { ExportJob, ExportJobRepository, ExportType } from './export-job.repository';

const PART_BYTES = 512 * 1024;
// Smaller pages than a REST read: an intraday record maps to 72+ Observations, and each page is one synchronous read on SQLite.
const PAGE = 50;

export interface RunExportDeps {
  jobs: ExportJobRepository;
  records: RecordRepository;
  users: UserProjectionRepository;
  logger: Logger;
  pause: () => Promise<void>;
}

/** One attempt of one job: who runs it, and whether it may go on. */
export interface ExportRun {
  owner: string;
  live: () => boolean;
  /** The instant now, from the worker's clock (retention counts from the job's end). */
  now: () => string;
}

class NdjsonFile {
  count = 0;
  parts = 0;
  private buffer = '';
  constructor(
    private readonly deps: RunExportDeps,
    private readonly job: ExportJob,
    readonly type: ExportType,
  ) {}
  async add(resource: FhirResource): Promise<void> {
    this.buffer += `${JSON.stringify(resource)}\n`;
    this.count++;
    if (this.buffer.length >= PART_BYTES) await this.flush();
  }
  async flush(): Promise<void> {
    if (!this.buffer) return;
    const seq = this.parts++;
    const { _id: jobId, attempt } = this.job;
    await this.deps.jobs.addPart({ _id: `${jobId}:${attempt}:${this.type}:${seq}`, job_id: jobId, attempt, type: this.type, seq, ndjson: this.buffer });
    this.buffer = '';
  }
}

export async function runExport(deps: RunExportDeps, run: ExportRun, job: ExportJob, earliestDate: string, today: string): Promise<void> {
  const files = new Map(job.types.map((t) => [t, new NdjsonFile(deps, job, t)]));
  const users = (await deps.users.ofOrganization(job.organization_id)).filter((u) => u.customer_id === job.customer_id);
  if (!(await deps.jobs.progress(job._id, run.owner, { users_total: users.length }))) return;
  const observations = files.get('Observation');
  const devices = files.get('Device');
  for (const [i, user] of users.entries()) {
    const patientId = patientIdOf(user.uid);
    await files.get('Patient')?.add(patientResource({ uid: user.uid, organization_id: job.organization_id }));
    const seenDevices = new Set<string>();
    if (observations || devices) {
      for (const type of RESOURCE_TYPES) {
        for await (const page of deps.records.findPages({ userId: user._id, type, fromDate: earliestDate, toDate: addDays(today, 1) }, PAGE)) {
          for (const doc of page) {
            // A page of intraday records maps to thousands of Observations: yield within it too
            // (the slice returns at once until its few milliseconds are used).
            await deps.pause();
            if (!run.live()) return;
            if (job.since && doc.payload.created_at < job.since) continue;
            if (observations) for (const o of observationsOf(doc.payload)) await observations.add(o);
            const deviceId = deviceIdOf(user._id, doc.payload.source);
            if (devices && !seenDevices.has(deviceId)) {
              seenDevices.add(deviceId);
              await devices.add(deviceResource(user._id, patientId, doc.payload.source));
            }
          }
        }
      }
    }
    if (!run.live() || !(await deps.jobs.progress(job._id, run.owner, { users_done: i + 1 }))) return;
  }
  for (const f of files.values()) await f.flush();
  if (!run.live()) return;
  await deps.jobs.progress(job._id, run.owner, {
    status: 'completed',
    completed_at: run.now(),
    output: [...files.values()].map((f) => ({ type: f.type, count: f.count, parts: f.parts })),
  });
}
