export * from './event-log.port';
export * from './partitioner';
export { EmbeddedEventLog } from './event-log.embedded';
export type { EmbeddedEventLogOptions } from './event-log.embedded';
export { KafkaEventLog } from './event-log.kafka';
export type { KafkaEventLogOptions, KafkaConsumerTiming } from './kafka-settings';
export { topicConfig as kafkaTopicConfig } from './kafka-admin';
export { TimeSlice } from './time-slice';
