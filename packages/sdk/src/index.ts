/**
 * @wellstream/sdk: typed calls to the Wellstream API, event streams that resume by themselves, and
 * push-signature verification. Uses only fetch, Web Crypto and web streams: Node.js 20+ and browsers.
 * @packageDocumentation
 */
export { Wellstream } from './client';
export { SDK_VERSION } from './version';
export type { WellstreamOptions } from './client';
export * from './errors';
export { EventStream } from './events/event-stream';
export type { EventStreamOptions } from './events/event-stream';
export type * from './events/event-types';
export { DEFAULT_TIMEOUT_MS } from './http-client';
export type { HttpClientOptions, RequestOptions } from './http-client';
export type { WithDates } from './request-encoding';
export type { RateLimit, ResponseMeta, WithResponse } from './rate-limit';
export type { RetryOptions } from './retry-policy';
export { signPushPayload, verifyPushSignature } from './push-signature';
export { constructPushBatch } from './push-batch';
export type { PushBatch, PushItem } from './push-batch';
export type { HeaderSource, VerifyOptions } from './push-signature';
export { RECORD_TYPES } from './resources/users';
export type { RecordType } from './resources/users';
export type { ReplayParams } from './resources/streams';
export { OPERATIONS } from './generated/operation-table';
export type { OperationId } from './generated/operation-table';
export type { CallParams, PathParams, QueryParams, RequestBody, ResponseBody, Schemas } from './operation-types';
export type { components } from './generated/openapi';
export type { Users, Records } from './resources/users';
export type { Streams } from './resources/streams';
export type { Notifications, Rules } from './resources/notifications';
export type { Admin, Marketplace, Mobile } from './resources/operator';
export type { Fhir, StartedExport } from './resources/fhir';
