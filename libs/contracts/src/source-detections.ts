/**
 * The `source-detections` topic: records tells users that a record arrived from a source the user
 * has not connected; users (which owns `sources`) connects it and emits the connection event.
 */
import Joi from 'joi';
import type { TopicDefinition } from './topic';

export interface SourceDetection {
  type: 'source.detected';
  user_id: string;
  organization_id: string;
  source_type: string;
  detected_at: string;
  /**
   * A phone store's accepted upload (every one, not only the first): when, which resource types it
   * stored and the latest end time among them. Absent on detections written before uploads were
   * reported, which are a first record.
   */
  upload?: { first: boolean; resources: string[]; last_record_at: string | null };
}

export const sourceDetectionsTopic: TopicDefinition<SourceDetection> = {
  spec: { name: 'source-detections', partitions: 6, retentionMs: 7 * 24 * 3600 * 1000 },
  schema: Joi.object<SourceDetection>({
    type: Joi.string().valid('source.detected').required(),
    user_id: Joi.string().required(),
    organization_id: Joi.string().required(),
    source_type: Joi.string().required(),
    detected_at: Joi.string().isoDate().required(),
    upload: Joi.object({ first: Joi.boolean().required(), resources: Joi.array().items(Joi.string()).required(), last_record_at: Joi.string().isoDate().allow(null).required() }),
  }),
  key: (e) => `${e.user_id}:${e.source_type}`,
  partitionKey: (e) => e.user_id,
};
