/**
 * The rules service's own store of the data points its rules watch: one document per record and
 * distinct (metric type, unit, origin) in it, keyed by record id so an updated record replaces its
 * points and a deleted record removes them. Fed by `data` events (never by reading records' store).
 * Every per-record query pins the user (the partition key): the collection grows with all users'
 * data, a query reads one user's.
 */
import type { Collection, DocumentStore, Filter } from '@wellstream/store';

export interface DataPointDoc {
  /** `<record id>|<metric type>|<unit>|<origin>` */
  _id: string;
  record_id: string;
  user_id: string;
  metric_type: string;
  unit: string | null;
  origin: string;
  /** The record's start_time (when the data was taken), ISO 8601 UTC. */
  time: string;
}

export interface PointQuery {
  userId: string;
  metricType: string;
  unit: string | null;
  origin: string | null;
  /** Exclusive. */
  fromIso: string;
  /** Inclusive. */
  toIso: string;
}

export const dataPointId = (recordId: string, metricType: string, unit: string | null, origin: string) =>
  `${recordId}|${metricType}|${unit ?? ''}|${origin}`;

export class DataPointRepository {
  private constructor(readonly points: Collection<DataPointDoc>) {}

  static async open(store: DocumentStore): Promise<DataPointRepository> {
    return new DataPointRepository(
      await store.collection<DataPointDoc>({
        name: 'data_points',
        indexes: [{ fields: { user_id: 1, metric_type: 1, time: 1 } }, { fields: { user_id: 1, record_id: 1 } }, { fields: { time: 1 } }],
        partitionKey: 'user_id',
      }),
    );
  }

  /**
   * Makes `points` the record's points. New points are written before stale ones are removed, so
   * a concurrent evaluation never sees the record with no points at all. Resolves to the metric
   * types the record had before or has now.
   */
  async replaceRecord(userId: string, recordId: string, points: DataPointDoc[]): Promise<string[]> {
    const before = await this.points.find({ user_id: userId, record_id: recordId });
    if (points.length > 0) await this.points.bulkUpsert(points);
    const stale = before.filter((b) => !points.some((p) => p._id === b._id)).map((b) => b._id);
    if (stale.length > 0) await this.points.deleteMany({ user_id: userId, _id: { $in: stale } });
    return [...new Set([...before, ...points].map((p) => p.metric_type))];
  }

  /** The metric types the record had, then its points are gone. */
  async deleteRecord(userId: string, recordId: string): Promise<string[]> {
    const existing = await this.points.find({ user_id: userId, record_id: recordId });
    if (existing.length > 0) await this.points.deleteMany({ user_id: userId, _id: { $in: existing.map((p) => p._id) } });
    return [...new Set(existing.map((p) => p.metric_type))];
  }

  deleteForUser = (userId: string) => this.points.deleteMany({ user_id: userId });

  deleteForUserMetric = (userId: string, metricType: string) => this.points.deleteMany({ user_id: userId, metric_type: metricType });

  pruneOlderThan = (iso: string) => this.points.deleteMany({ time: { $lt: iso } });

  /** Records with matching data in the window; a record with several matching entries counts once. */
  async countRecords(q: PointQuery): Promise<number> {
    const filter: Filter = { user_id: q.userId, metric_type: q.metricType, time: { $gt: q.fromIso, $lte: q.toIso } };
    if (q.unit !== null) filter.unit = q.unit;
    if (q.origin !== null) filter.origin = q.origin;
    const points = await this.points.find(filter);
    return new Set(points.map((p) => p.record_id)).size;
  }
}
