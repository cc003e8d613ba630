/**
 * Resource (record) types: the singular `type` in payloads and the plural path segment of the
 * REST endpoints.
 */
export const RESOURCE_TYPES = ['measurement', 'nutrition', 'sleep', 'summary', 'workout', 'intraday', 'cgm'] as const;
export type ResourceType = (typeof RESOURCE_TYPES)[number];

export const RESOURCE_PATHS: Record<string, ResourceType> = {
  measurements: 'measurement',
  nutrition: 'nutrition',
  sleep: 'sleep',
  summaries: 'summary',
  workouts: 'workout',
  intraday: 'intraday',
};

export const EVENT_TYPES = ['data', 'connection', 'rule'] as const;
export type EventType = (typeof EVENT_TYPES)[number];
