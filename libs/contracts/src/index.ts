export * from './topic';
export type { ReadBatch } from '@wellstream/bus';
export * as typed from './typed-schema';
export type { Infer, InferInput, Typed } from './typed-schema';
export * from './record-payload';
export * from './record-input';
export * from './customer-events';
export * from './user-events';
export * from './organization-events';
export * from './source-detections';
export * from './token-revocations';
export * from './source-connections';
export * from './marketplace-view';
export * from './data-lifecycle';
export * from './asyncapi';
export { fastValidate } from './fast-validation';

import { customerEventsTopic } from './customer-events';
import { organizationEventsTopic } from './organization-events';
import { sourceDetectionsTopic } from './source-detections';
import { tokenRevocationsTopic } from './token-revocations';
import { userEventsTopic } from './user-events';
import { sourceConnectionsTopic, sourceProvidersTopic, sourceRecordsTopic } from './source-connections';
import { auditLogTopic, userDataExportsTopic, userDataRequestsTopic } from './data-lifecycle';

/** Every topic of the platform, for start-up (ensureTopic) and for deploy/ topic definitions. */
export const ALL_TOPICS = [customerEventsTopic, userEventsTopic, organizationEventsTopic, sourceDetectionsTopic, tokenRevocationsTopic, sourceConnectionsTopic, sourceProvidersTopic, sourceRecordsTopic, userDataRequestsTopic, userDataExportsTopic, auditLogTopic];
export * from './signed-link';
