/**
 * @wellstream/mobile: Apple Health and Health Connect into Wellstream. The core (mapping, sync
 * engine, queue) imports nothing from React Native; the bridges are passed in by the app.
 */
export { WellstreamMobile, type MobileConfig, type MobileDeps, type SyncResult } from './sync/engine';
export type { SyncStatus, ResourceStatus } from './sync/status';
export type { StoragePort, HealthSource, ChangePage, FetchLike, HeartRateSample, HistoryAccess, PermissionAnswer } from './sync/ports';
export { WellstreamMobileError, UnauthorizedError, SourceDisconnectedError, UnavailableError } from './sync/errors';
export { CLOUD_SOURCE_APPS } from './sync/not-twice';
export { syncOnWake } from './sync/background';
export { MAX_BATCH } from './sync/queue';
export { healthKitSource, type HealthKitBridge } from './bridges/healthkit-source';
export { healthConnectSource, type HealthConnectBridge } from './bridges/health-connect-source';
export { HK_QUANTITY_MAP } from './mapping/healthkit';
export { HC_RECORD_TYPES, SAMSUNG_HEALTH_PACKAGE } from './mapping/health-connect';
export { RESOURCES, type ResourceType, type SourceType, type WellstreamRecord, type DeletionStub, type Upload } from './records';
export * from './testing';
