/**
 * The FHIR read API over the stored records: Patient read and search, Observation search, Device
 * read. Tenancy as the REST API: the user must be the calling customer's, in the path's
 * organization, and not deleted; records older than the organization's history are not served.
 * Every answer that shows a user's data is written to the audit log (action `fhir.read`).
 */
import { RESOURCE_TYPES } from '@wellstream/catalog';
import { DEFAULT_HISTORY_DAYS, auditEntry, auditLogTopic } from '@wellstream/contracts';
import type { Clock } from '@wellstream/clock';
import { notFound } from '@wellstream/errors';
import { deviceIdOf, deviceResource, observationsOf, patientResource, searchsetBundle, uidOfPatientId, uidSystem, userIdOfDeviceId, type FhirResource } from '@wellstream/fhir';
import type { Outbox } from '@wellstream/outbox';
import type { RecordRepository } from '../records/record.repository';
import { addDays } from '@wellstream/clock';
import type { ProjectedUser } from '../users/user-projection';
import { USER_PROJECTION_SPEC, type UserProjectionRepository } from '../users/user-projection.repository';
import { parseObservationSearch, parsePatientSearch, type Token } from './fhir-query';

export interface FhirReadDeps {
  records: RecordRepository;
  users: UserProjectionRepository;
  organizations: { find(organizationId: string): Promise<{ history_days: number } | null> };
  clock: Clock;
  outbox: Outbox;
  /** Lets other requests run between pages of a long search. */
  pause: () => Promise<void>;
}

export interface FhirCaller {
  customerId: string;
  organizationId: string;
  /** `<scheme>://<host>/v2/organizations/<org>/fhir`, for fullUrls and links. */
  baseUrl: string;
}

const PAGE = 200;
const patientNotFound = (id: string) => notFound('PATIENT_NOT_FOUND', `No Patient ${id} in this organization.`);

async function userOfPatientId(deps: FhirReadDeps, caller: FhirCaller, patientId: string): Promise<ProjectedUser> {
  const decoded = uidOfPatientId(patientId);
  // A hashed id names a uid too long to carry: its own key in the projection finds it.
  const user = !decoded ? null : 'uid' in decoded ? await deps.users.byUid(caller.organizationId, decoded.uid) : await deps.users.byHashedPatientId(caller.organizationId, decoded.hashed);
  if (!user || user.customer_id !== caller.customerId) throw patientNotFound(patientId);
  return user;
}

async function audit(deps: FhirReadDeps, caller: FhirCaller, user: ProjectedUser, details: Record<string, unknown>): Promise<void> {
  const entry = auditEntry({
    at: deps.clock.now().toISOString(),
    actor: `customer:${caller.customerId}`,
    action: 'fhir.read',
    customer_id: caller.customerId,
    organization_id: caller.organizationId,
    uid: user.uid,
    user_id: user._id,
    service: 'records',
    details,
  });
  await deps.outbox.write([deps.outbox.message(auditLogTopic, entry, { collection: USER_PROJECTION_SPEC.name, filter: { _id: user._id } })], async () => undefined);
}

export async function readPatient(deps: FhirReadDeps, caller: FhirCaller, patientId: string): Promise<FhirResource> {
  const user = await userOfPatientId(deps, caller, patientId);
  await audit(deps, caller, user, { interaction: 'read', resource_type: 'Patient' });
  return patientResource({ uid: user.uid, organization_id: caller.organizationId });
}

export async function searchPatients(deps: FhirReadDeps, caller: FhirCaller, query: Record<string, unknown>, self: string): Promise<FhirResource> {
  const token = parsePatientSearch(query);
  const systemMatches = token.system === undefined || token.system === uidSystem(caller.organizationId);
  const user = systemMatches ? await deps.users.byUid(caller.organizationId, token.code) : null;
  const found = user && user.customer_id === caller.customerId ? user : null;
  if (found) await audit(deps, caller, found, { interaction: 'search-type', resource_type: 'Patient', count: 1 });
  const resources = found ? [patientResource({ uid: found.uid, organization_id: caller.organizationId })] : [];
  return searchsetBundle({ baseUrl: caller.baseUrl, self, resources, total: resources.length });
}

const matchesToken = (codings: { system?: string; code?: string }[], tokens: Token[] | undefined) =>
  !tokens || tokens.some((t) => codings.some((c) => c.code === t.code && (t.system === undefined || c.system === t.system)));

const codingsOf = (concept: unknown): { system?: string; code?: string }[] => (concept as { coding?: { system?: string; code?: string }[] } | undefined)?.coding ?? [];

async function earliestServed(deps: FhirReadDeps, organizationId: string, today: string): Promise<string> {
  const historyDays = (await deps.organizations.find(organizationId))?.history_days ?? DEFAULT_HISTORY_DAYS;
  return addDays(today, -historyDays);
}

export async function searchObservations(deps: FhirReadDeps, caller: FhirCaller, query: Record<string, unknown>, self: string): Promise<FhirResource> {
  const today = deps.clock.now().toISOString().slice(0, 10);
  const q = parseObservationSearch(query, today);
  const user = await userOfPatientId(deps, caller, q.patient);
  const earliest = await earliestServed(deps, caller.organizationId, today);
  const fromDate = q.fromDate < earliest ? earliest : q.fromDate;
  const matches: FhirResource[] = [];
  let skipped = 0;
  let more = false;
  if (fromDate <= q.toDate) {
    search: for (const type of RESOURCE_TYPES) {
      for await (const page of deps.records.findPages({ userId: user._id, type, fromDate, toDate: q.toDate }, PAGE)) {
        for (const doc of page) {
          for (const o of observationsOf(doc.payload)) {
            if (!matchesToken(codingsOf(o.code), q.codes) || !matchesToken((o.category as unknown[]).flatMap(codingsOf), q.categories)) continue;
            if (skipped < q.offset) {
              skipped++;
              continue;
            }
            if (matches.length === q.count) {
              more = true;
              break search;
            }
            matches.push(o);
          }
        }
        await deps.pause();
      }
    }
  }
  await audit(deps, caller, user, { interaction: 'search-type', resource_type: 'Observation', count: matches.length, from_date: fromDate, to_date: q.toDate });
  const next = more ? withPage(self, q.offset + matches.length) : undefined;
  return searchsetBundle({ baseUrl: caller.baseUrl, self, next, resources: matches });
}

function withPage(self: string, offset: number): string {
  const url = new URL(self);
  url.searchParams.set('_page', String(offset));
  return url.toString();
}

export async function readDevice(deps: FhirReadDeps, caller: FhirCaller, deviceId: string): Promise<FhirResource> {
  const missing = notFound('DEVICE_NOT_FOUND', `No Device ${deviceId} in this organization.`);
  const userId = userIdOfDeviceId(deviceId);
  const user = userId ? await deps.users.byId(userId) : null;
  if (!user || user.status === 'deleted' || user.organization_id !== caller.organizationId || user.customer_id !== caller.customerId) throw missing;
  const today = deps.clock.now().toISOString().slice(0, 10);
  const earliest = await earliestServed(deps, caller.organizationId, today);
  for (const type of RESOURCE_TYPES) {
    for await (const page of deps.records.findPages({ userId: user._id, type, fromDate: earliest, toDate: addDays(today, 1) }, PAGE)) {
      const doc = page.find((d) => deviceIdOf(user._id, d.payload.source) === deviceId);
      if (doc) {
        await audit(deps, caller, user, { interaction: 'read', resource_type: 'Device' });
        return deviceResource(user._id, patientResource({ uid: user.uid, organization_id: caller.organizationId }).id as string, doc.payload.source);
      }
      await deps.pause();
    }
  }
  throw missing;
}
