/**
 * Health Connect through react-native-health-connect. Per record type, the first sync takes a
 * change token first (`getChanges` without a token creates one), then reads the last `historyDays`
 * with `readRecords` page by page; later syncs read `getChanges` from the token, upserts and
 * deletions. An expired token (`changesTokenExpired`) starts over with a read (duplicates are
 * harmless). Health Connect cannot read before the read permission was granted, so a first sync
 * may hold less than `historyDays`.
 */
import type * as HealthConnect from 'react-native-health-connect';
import type { HealthConnectRecordResult, RecordType } from 'react-native-health-connect';
import { HC_RECORD_TYPES, mapHcRecord } from '../mapping/health-connect';
import type { ResourceType } from '../records';
import type { ChangePage, HealthSource } from '../sync/ports';

/** The bridge functions the SDK calls; the module itself (`import * as HealthConnect`) is one. */
export type HealthConnectBridge = Pick<typeof HealthConnect, 'initialize' | 'requestPermission' | 'readRecords' | 'getChanges'>;

type Cursor = { phase: 'read'; token: string; pageToken?: string } | { phase: 'changes'; token: string };

export const HC_PAGE = 5000;

export function healthConnectSource(bridge: HealthConnectBridge, options: { pageSize?: number } = {}): HealthSource {
  const pageSize = options.pageSize ?? HC_PAGE;
  const feeds = (resources: readonly ResourceType[]) => Object.entries(HC_RECORD_TYPES).filter(([, v]) => v && resources.includes(v.resource)).map(([type]) => type);
  let initialized = false;
  const init = async () => {
    if (!initialized) initialized = await bridge.initialize();
  };
  return {
    store: 'health_connect',
    feeds,
    resourceOf: (feed) => HC_RECORD_TYPES[feed as RecordType]?.resource ?? 'measurement',
    async requestPermissions(resources) {
      await init();
      await bridge.requestPermission(feeds(resources).map((recordType) => ({ accessType: 'read' as const, recordType: recordType as RecordType })));
    },
    async readChanges(feed, raw, since): Promise<ChangePage> {
      await init();
      const recordType = feed as RecordType;
      let cursor: Cursor | undefined = raw ? (JSON.parse(raw) as Cursor) : undefined;
      if (!cursor) {
        // The token is taken before the read, so what is written during the read comes as a change.
        const fresh = await bridge.getChanges({ recordTypes: [recordType] });
        cursor = { phase: 'read', token: fresh.nextChangesToken };
      }
      if (cursor.phase === 'read') {
        const page = await bridge.readRecords(recordType, {
          timeRangeFilter: { operator: 'after', startTime: since.toISOString() },
          pageSize,
          ...(cursor.pageToken ? { pageToken: cursor.pageToken } : {}),
        });
        const mapped = page.records.flatMap((r) => mapHcRecord({ ...r, recordType } as HealthConnectRecordResult));
        const next: Cursor = page.pageToken ? { phase: 'read', token: cursor.token, pageToken: page.pageToken } : { phase: 'changes', token: cursor.token };
        return { mapped, deletedIds: [], cursor: JSON.stringify(next), more: true };
      }
      const changes = await bridge.getChanges({ changesToken: cursor.token, recordTypes: [recordType] });
      if (changes.changesTokenExpired) return { mapped: [], deletedIds: [], cursor: '', more: false, restart: true };
      return {
        mapped: changes.upsertionChanges.flatMap((c) => mapHcRecord(c.record)),
        deletedIds: changes.deletionChanges.map((d) => d.recordId),
        cursor: JSON.stringify({ phase: 'changes', token: changes.nextChangesToken } satisfies Cursor),
        more: changes.hasMore,
      };
    },
  };
}
