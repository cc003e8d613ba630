/**
 * The adapters behind the event-log port, apart from the package's main entry so that code which
 * only needs the port (contracts, use cases) never loads kafkajs. Composition roots and adapter
 * tests import `@wellstream/bus/adapters`.
 */
export { EmbeddedEventLog } from './event-log.embedded';
export type { EmbeddedEventLogOptions } from './event-log.embedded';
export { KafkaEventLog } from './event-log.kafka';
export type { KafkaEventLogOptions, KafkaConsumerTiming } from './kafka-settings';
export { topicConfig as kafkaTopicConfig } from './kafka-admin';
