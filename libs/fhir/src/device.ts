/**
 * One FHIR Device per user, source and device: where an Observation's value came from. A record's
 * `source.device` (id, name, type, model, manufacturer) describes the physical device when the
 * source says; without it the Device is the source itself (an app or a cloud service), so every
 * Observation still names one. The id is the user's id and a hash of the source and the device
 * fields, stable across records (the same watch is one Device), and a server can tell from it
 * whose records to look in.
 */
import { createHash } from 'node:crypto';
import { sourceDefinition } from '@wellstream/catalog';
import type { RecordPayload } from '@wellstream/contracts';
import type { FhirResource } from './fhir-types';
import { deviceIdSystem, WELLSTREAM_SOURCE } from './systems';

type Source = RecordPayload['source'];

export function deviceIdOf(userId: string, source: Source): string {
  const d = source.device ?? {};
  const key = [userId, source.type, d.id ?? '', d.manufacturer ?? '', d.model ?? '', d.name ?? '', d.type ?? ''].join('\u0000');
  const hash = createHash('sha256').update(key).digest('hex');
  return USER_ID.test(userId) ? `${userId}.${hash.slice(0, 24)}` : `d.${hash.slice(0, 40)}`;
}

// User ids are UUIDs; 39 characters leave room for the hash within a FHIR id's 64.
const USER_ID = /^[A-Za-z0-9-]{1,39}$/;

/** The user id a Device id names, or undefined when the id is not one deviceIdOf produces. */
export function userIdOfDeviceId(id: string): string | undefined {
  return /^([A-Za-z0-9-]{1,39})\.[0-9a-f]{24}$/.exec(id)?.[1];
}

export function deviceResource(userId: string, patientId: string, source: Source): FhirResource {
  const d = source.device;
  const sourceName = sourceDefinition(source.type)?.name ?? source.type;
  const names = [
    ...(d?.name ? [{ name: d.name, type: 'user-friendly-name' }] : []),
    ...(d?.model ? [{ name: d.model, type: 'model-name' }] : []),
    ...(!d?.name && !d?.model ? [{ name: sourceName, type: 'user-friendly-name' }] : []),
  ];
  return {
    resourceType: 'Device',
    id: deviceIdOf(userId, source),
    ...(d?.id ? { identifier: [{ system: deviceIdSystem(source.type), value: d.id }] } : {}),
    status: 'active',
    ...(d?.manufacturer ? { manufacturer: d.manufacturer } : {}),
    // deviceName.type is bound (required) to device-nametype; both names used are codes of it.
    deviceName: names,
    ...(d?.model ? { modelNumber: d.model } : {}),
    type: {
      coding: [{ system: WELLSTREAM_SOURCE, code: source.type, display: sourceName }],
      text: d?.type ?? sourceName,
    },
    patient: { reference: `Patient/${patientId}` },
  };
}
