/**
 * Consumers decode each message once per process when the log hands the groups one shared, frozen
 * message (the embedded log does): later groups take the first one's value, which nobody can change.
 */
import type { LogMessage } from '@wellstream/bus';
import { decodeMessage, InvalidEventError, SourceDetection, sourceDetectionsTopic } from '@wellstream/contracts';

const detection: SourceDetection = { type: 'source.detected', user_id: 'usr_1', organization_id: 'org_1', source_type: 'withings', detected_at: '2026-01-02T03:04:05.000Z' };
const message = (value: string): LogMessage => ({ topic: 'source-detections', partition: 0, offset: 7, key: 'usr_1', value, headers: {}, timestamp: 0 });
const valid = () => message(JSON.stringify({ schema_version: 2, ...detection }));

describe('decodeMessage', () => {
  it('decodes a shared (frozen) message once: every group gets the same frozen value', () => {
    const shared = Object.freeze(valid());
    const first = decodeMessage(sourceDetectionsTopic, shared);
    expect(first).toEqual(detection);
    expect(decodeMessage(sourceDetectionsTopic, shared)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(() => {
      (first as { user_id: string }).user_id = 'usr_2';
    }).toThrow(TypeError);
  });

  it('decodes a message of its own (Kafka hands each group a copy) afresh, unfrozen', () => {
    const own = valid();
    const a = decodeMessage(sourceDetectionsTopic, own);
    expect(decodeMessage(sourceDetectionsTopic, own)).not.toBe(a);
    expect(Object.isFrozen(a)).toBe(false);
  });

  it('refuses an invalid shared message to every group that reads it', () => {
    const bad = Object.freeze(message(JSON.stringify({ schema_version: 2, ...detection, user_id: 42 })));
    expect(() => decodeMessage(sourceDetectionsTopic, bad)).toThrow(InvalidEventError);
    expect(() => decodeMessage(sourceDetectionsTopic, bad)).toThrow(InvalidEventError);
  });
});
