/**
 * The records this SDK posts to `POST /v2/mobile/records`, as the records service's ingestion
 * contract accepts them (services/records/README.md). Declared here, not imported, so the published
 * package has no dependency on the platform's private libraries; the mapping tests validate every
 * mapped record against the platform's own schema.
 */
export type SourceType = 'apple_health' | 'health_connect' | 'samsung_health';
export type ResourceType = 'measurement' | 'nutrition' | 'sleep' | 'summary' | 'workout' | 'intraday';
export const RESOURCES: readonly ResourceType[] = ['measurement', 'nutrition', 'sleep', 'summary', 'workout', 'intraday'];

export interface Device {
  id?: string;
  name?: string;
  type?: string;
  model?: string;
  manufacturer?: string;
}

export interface Metric {
  type: string;
  unit: string;
  value: number;
  origin?: 'device' | 'manual' | 'unknown';
}

export interface Series {
  type: string;
  unit: string;
  origin?: 'device' | 'manual' | 'unknown';
  granularity: 'PT1M' | 'PT5M' | 'PT15M' | 'PT1H';
  samples: { time: string; value: number }[];
}

interface Common {
  source: { type: SourceType; device?: Device };
  log_id: string;
  start_time: string;
  end_time: string;
  /** Seconds east of UTC, only when the store knows the sample's own zone. */
  utc_offset?: number;
  tags?: string[];
}

export type WellstreamRecord =
  | (Common & { type: 'measurement'; metrics: Metric[] })
  | (Common & { type: 'nutrition'; name?: string; category?: 'food' | 'meal' | 'other'; metrics: Metric[] })
  | (Common & { type: 'sleep'; metrics: Metric[]; stages: { stage: 'awake' | 'light' | 'deep' | 'rem'; start_time: string; end_time: string }[] })
  | (Common & { type: 'summary'; category: 'daily'; metrics: Metric[] })
  | (Common & { type: 'workout'; category: WorkoutCategory; name?: string; metrics: Metric[] })
  | (Common & { type: 'intraday'; metrics: Series[] });

export type WorkoutCategory = 'running' | 'cycling' | 'walking' | 'hiking' | 'swimming' | 'rowing' | 'strength' | 'yoga' | 'other';

/** A record to delete: it names the record only. */
export interface DeletionStub {
  type: ResourceType;
  source: { type: SourceType };
  log_id: string;
  deleted: true;
}

export type Upload = WellstreamRecord | DeletionStub;

/** `YYYY-MM-DDThh:mm:ssZ`, the only time format the API accepts. */
export const utc = (d: Date | string | number): string => new Date(d).toISOString().slice(0, 19) + 'Z';
