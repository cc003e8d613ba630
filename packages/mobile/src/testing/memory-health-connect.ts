/**
 * An in-memory Health Connect behind the functions the bridge exports (HealthConnectBridge):
 * readRecords pages by time, getChanges reads a change log from a token (a token without changes
 * is taken by calling it with none, as the bridge does), deletions included. As Health Connect
 * does, it returns nothing older than 30 days before the first grant unless the history
 * permission was granted. For tests, the benchmark and the README walk-through.
 */
import type { GetChangesResults, HealthConnectRecordResult, RecordType } from 'react-native-health-connect';
import type { HealthConnectBridge } from '../bridges/health-connect-source';

type Entry = { seq: number; record: HealthConnectRecordResult };
type Range = { operator: 'between' | 'after' | 'before'; startTime?: string; endTime?: string };
const CHANGES_PAGE = 1000;
const DAY = 86_400_000;
const startOf = (r: HealthConnectRecordResult) => ('time' in r ? r.time : r.startTime);

export class MemoryHealthConnect {
  private seq = 0;
  private readonly records = new Map<string, Entry>();
  private readonly deletions: { seq: number; id: string; type: RecordType }[] = [];
  granted: string[] = [];
  /** When the app was first granted a permission: without the history permission, reads stop 30 days before it. */
  firstGrantAt?: Date;
  /** The user grants the history permission when asked (false: refuses it). */
  grantsHistory = true;
  historyGranted = false;

  constructor(private readonly now: () => Date = () => new Date()) {}

  /** What Health Connect lets the app read: nothing older than 30 days before the first grant, without the history permission. */
  private readable(r: HealthConnectRecordResult): boolean {
    if (this.historyGranted || !this.firstGrantAt) return true;
    return Date.parse(startOf(r)) >= this.firstGrantAt.getTime() - 30 * DAY;
  }

  /** The range filter on a record's start (its time, for an instant). */
  private inRange(r: HealthConnectRecordResult, range: Range): boolean {
    const start = startOf(r);
    return (!range.startTime || start >= range.startTime) && (!range.endTime || start <= range.endTime);
  }

  add(...records: HealthConnectRecordResult[]): void {
    for (const record of records) this.records.set(record.metadata!.id!, { seq: ++this.seq, record });
  }

  delete(id: string): void {
    const e = this.records.get(id);
    if (!e) return;
    this.records.delete(id);
    this.deletions.push({ seq: ++this.seq, id, type: e.record.recordType });
  }

  all(): HealthConnectRecordResult[] {
    return [...this.records.values()].map((e) => e.record);
  }

  readonly bridge: HealthConnectBridge = {
    initialize: async () => true,
    requestPermission: async (permissions) => {
      this.firstGrantAt ??= this.now();
      const answered = permissions.filter((p) => p.recordType !== 'ReadHealthDataHistory' || this.grantsHistory);
      this.granted = answered.map((p) => p.recordType);
      this.historyGranted ||= this.granted.includes('ReadHealthDataHistory');
      return answered;
    },
    readRecords: (async (recordType: RecordType, options: { timeRangeFilter: Range; pageSize?: number; pageToken?: string }) => {
      const matching = [...this.records.values()]
        .map((e) => e.record)
        .filter((r) => r.recordType === recordType && this.inRange(r, options.timeRangeFilter) && this.readable(r))
        .sort((a, b) => startOf(a).localeCompare(startOf(b)));
      const offset = options.pageToken ? Number(options.pageToken) : 0;
      const size = options.pageSize ?? 1000;
      const page = matching.slice(offset, offset + size).map(({ recordType: _type, ...rest }) => rest);
      return { records: page, ...(offset + size < matching.length ? { pageToken: String(offset + size) } : {}) };
    }) as unknown as HealthConnectBridge['readRecords'],
    getChanges: async (request): Promise<GetChangesResults> => {
      const types = new Set<string>(request.recordTypes ?? []);
      if (!request.changesToken) return { upsertionChanges: [], deletionChanges: [], nextChangesToken: String(this.seq), changesTokenExpired: false, hasMore: false };
      const after = Number(request.changesToken);
      const changes: { seq: number; record?: HealthConnectRecordResult; deleted?: string }[] = [];
      for (const e of this.records.values()) if (e.seq > after && types.has(e.record.recordType)) changes.push({ seq: e.seq, record: e.record });
      for (const d of this.deletions) if (d.seq > after && types.has(d.type)) changes.push({ seq: d.seq, deleted: d.id });
      changes.sort((a, b) => a.seq - b.seq);
      const picked = changes.slice(0, CHANGES_PAGE);
      return {
        upsertionChanges: picked.flatMap((c) => (c.record ? [{ record: c.record }] : [])),
        deletionChanges: picked.flatMap((c) => (c.deleted ? [{ recordId: c.deleted }] : [])),
        nextChangesToken: String(picked.length < changes.length ? picked[picked.length - 1].seq : this.seq),
        changesTokenExpired: false,
        hasMore: picked.length < changes.length,
      };
    },
  };
}
