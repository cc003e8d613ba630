/**
 * Health Connect through react-native-health-connect. Per record type, the first sync takes a
 * change token first (`getChanges` without a token creates one), then reads the last `historyDays`
 * with `readRecords` page by page; later syncs read `getChanges` from the token, upserts and
 * deletions. An expired token (`changesTokenExpired`) starts over with a read (duplicates are
 * harmless). Health Connect reads nothing older than 30 days before the app's first permission
 * unless it holds the history permission, which is asked for when the first sync's window reaches
 * further back. A workout's heart rate is read for its window, whether or not it was synced.
 */
import type * as HealthConnect from 'react-native-health-connect';
import type { HealthConnectRecordResult, RecordType } from 'react-native-health-connect';
import { mapEach } from '../mapping/entries';
import { HC_RECORD_TYPES, mapHcRecord } from '../mapping/health-connect';
import type { ResourceType } from '../records';
import type { ChangePage, HealthSource } from '../sync/ports';

/** The bridge functions the SDK calls; the module itself (`import * as HealthConnect`) is one. */
export type HealthConnectBridge = Pick<typeof HealthConnect, 'initialize' | 'requestPermission' | 'readRecords' | 'getChanges'>;

type Cursor = { phase: 'read'; token: string; pageToken?: string } | { phase: 'changes'; token: string };

export const HC_PAGE = 1000;
const DAY = 86_400_000;
/** Health Connect reads this far back before the app's first permission without the history permission. */
const HC_DEFAULT_HISTORY_DAYS = 30;
const HISTORY = { accessType: 'read', recordType: 'ReadHealthDataHistory' } as const;

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
    async requestPermissions(resources, window) {
      await init();
      // A workout's heart rate is read from the store, so workouts need heart rate even without intraday.
      const types = [...new Set([...feeds(resources), ...(resources.includes('workout') ? ['HeartRate'] : [])])] as RecordType[];
      const limitedFrom = window ? new Date(window.grantedAt.getTime() - HC_DEFAULT_HISTORY_DAYS * DAY) : undefined;
      const needsHistory = !!window && !!limitedFrom && window.since < limitedFrom;
      const granted = await bridge.requestPermission([...types.map((recordType) => ({ accessType: 'read' as const, recordType })), ...(needsHistory ? [HISTORY] : [])]);
      if (!needsHistory || !window || !limitedFrom) return {};
      const reported = granted.some((p) => p.accessType === HISTORY.accessType && p.recordType === HISTORY.recordType);
      return { history: { from: window.since.toISOString(), limitedFrom: limitedFrom.toISOString(), permission: reported ? 'granted' : 'unconfirmed' } };
    },
    async heartRateBetween(start, end) {
      await init();
      const out: { bpm: number; app?: string }[] = [];
      let pageToken: string | undefined;
      do {
        const page = await bridge.readRecords('HeartRate', { timeRangeFilter: { operator: 'between', startTime: start.toISOString(), endTime: end.toISOString() }, pageSize, ...(pageToken ? { pageToken } : {}) });
        for (const r of page.records) for (const s of r.samples) if (Date.parse(s.time) >= start.getTime() && Date.parse(s.time) <= end.getTime()) out.push({ bpm: s.beatsPerMinute, ...(r.metadata?.dataOrigin ? { app: r.metadata.dataOrigin } : {}) });
        pageToken = page.pageToken || undefined;
      } while (pageToken);
      return out;
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
        const mapped = mapEach(page.records, (r) => mapHcRecord({ ...r, recordType } as HealthConnectRecordResult));
        const next: Cursor = page.pageToken ? { phase: 'read', token: cursor.token, pageToken: page.pageToken } : { phase: 'changes', token: cursor.token };
        return { mapped, deletedIds: [], cursor: JSON.stringify(next), more: true };
      }
      const changes = await bridge.getChanges({ changesToken: cursor.token, recordTypes: [recordType] });
      if (changes.changesTokenExpired) return { mapped: [], deletedIds: [], cursor: '', more: false, restart: true };
      return {
        mapped: mapEach(changes.upsertionChanges, (c) => mapHcRecord(c.record)),
        deletedIds: changes.deletionChanges.map((d) => d.recordId),
        cursor: JSON.stringify({ phase: 'changes', token: changes.nextChangesToken } satisfies Cursor),
        more: changes.hasMore,
      };
    },
  };
}
