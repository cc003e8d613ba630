/**
 * A user's uid as a FHIR id, reversibly. A FHIR id is 1–64 characters of [A-Za-z0-9-.]; a uid is
 * any string the customer chose (any characters, any length, even empty). The encoding:
 *
 * - a uid of 1–64 letters, digits and hyphens is its own id (most uids: readable ids);
 * - otherwise every UTF-8 byte outside [A-Za-z0-9-] becomes `.` and two upper-case hex digits
 *   (`.` is the escape, so an encoded id always holds one and a plain id never does); the empty
 *   uid is `.`;
 * - a uid whose escaped form exceeds 64 characters cannot be carried reversibly in an id: it gets
 *   `..` and the first 48 hex digits of the uid's SHA-256 (`..` cannot come out of the escaping),
 *   which the server looks up by a key of its own (records' user projection). Such a Patient is still found by
 *   `Patient?identifier=` with the uid itself.
 */
import { createHash } from 'node:crypto';

const PLAIN = /^[A-Za-z0-9-]{1,64}$/;
const KEEP = /[A-Za-z0-9-]/;

export function patientIdOf(uid: string): string {
  if (PLAIN.test(uid)) return uid;
  if (uid === '') return '.';
  let out = '';
  for (const byte of Buffer.from(uid, 'utf8')) {
    const ch = String.fromCharCode(byte);
    out += byte < 0x80 && KEEP.test(ch) ? ch : `.${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    if (out.length > 64) return hashedPatientId(uid);
  }
  return out;
}

export const hashedPatientId = (uid: string) => `..${createHash('sha256').update(uid, 'utf8').digest('hex').slice(0, 48)}`;

/** What a Patient id names: the uid itself, or (a long uid) only its hash, to compare with uids. */
export type DecodedPatientId = { uid: string } | { hashed: string } | undefined;

/** The uid an id stands for; undefined when the id is not one this encoding produces. */
export function uidOfPatientId(id: string): DecodedPatientId {
  if (PLAIN.test(id)) return { uid: id };
  if (id === '.') return { uid: '' };
  if (/^\.\.[0-9a-f]{48}$/.test(id)) return { hashed: id };
  if (!/^(?:[A-Za-z0-9-]|\.[0-9A-F]{2}){1,64}$/.test(id) || id.length > 64) return undefined;
  const bytes: number[] = [];
  for (let i = 0; i < id.length; ) {
    if (id[i] === '.') {
      bytes.push(parseInt(id.slice(i + 1, i + 3), 16));
      i += 3;
    } else {
      bytes.push(id.charCodeAt(i));
      i += 1;
    }
  }
  const uid = Buffer.from(bytes).toString('utf8');
  // Only the canonical form decodes: an id that escapes a letter, or holds invalid UTF-8, names no uid.
  return patientIdOf(uid) === id ? { uid } : undefined;
}
