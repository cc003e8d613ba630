/**
 * The AsyncAPI 3 document of the platform's events, generated from the joi schemas the code
 * validates with (joi-to-json), so it cannot drift from them: every Kafka topic of the catalog
 * (internal, with its schema version) and the Server-Sent Events customers receive from
 * /streams/{id}/connect, /streams/{id}/tail and /replay. The gateway serves it at /v2/asyncapi.json.
 */
import parseJoi from 'joi-to-json';
import { EVENT_TYPES } from '@wellstream/catalog';
import { acceptedSchemaVersions, SCHEMA_VERSION_FIELD, schemaVersionOf, TopicDefinition } from './topic';
import { connectionPayloadSchema, customerEventsTopic, rulePayloadSchema } from './customer-events';
import { recordPayloadSchema } from './record-payload';
import { organizationEventsTopic } from './organization-events';
import { sourceDetectionsTopic } from './source-detections';
import { tokenRevocationsTopic } from './token-revocations';
import { userEventsTopic } from './user-events';
import { sourceConnectionsTopic, sourceProvidersTopic, sourceRecordsTopic } from './source-connections';
import { auditLogTopic, userDataExportsTopic, userDataRequestsTopic } from './data-lifecycle';

const TOPICS = [customerEventsTopic, userEventsTopic, organizationEventsTopic, sourceDetectionsTopic, tokenRevocationsTopic, sourceConnectionsTopic, sourceProvidersTopic, sourceRecordsTopic, userDataRequestsTopic, userDataExportsTopic, auditLogTopic] as TopicDefinition<unknown>[];

type JsonSchema = Record<string, unknown>;

const toJsonSchema = (topic: TopicDefinition<unknown>): JsonSchema => {
  const schema = parseJoi(topic.schema, 'json') as JsonSchema;
  return {
    ...schema,
    // Consumers ignore fields they do not know; a newer producer may add some.
    additionalProperties: true,
    properties: {
      [SCHEMA_VERSION_FIELD]: {
        type: 'integer',
        enum: acceptedSchemaVersions(topic),
        description: `Written as ${schemaVersionOf(topic)}; absent in messages of releases before versioning (= 1). Consumers read ${acceptedSchemaVersions(topic).join(' and ')}.`,
      },
      ...(schema.properties as JsonSchema),
    },
  };
};

const ssePayloads: Record<string, { summary: string; payload: JsonSchema }> = {
  data: {
    summary: 'A record was created, changed or deleted: the record (as in the REST record endpoints; see Record in /v2/openapi.json).',
    payload: parseJoi(recordPayloadSchema.joi, 'json') as JsonSchema,
  },
  connection: {
    summary: 'A user connected or disconnected a source.',
    payload: parseJoi(connectionPayloadSchema.joi, 'json') as JsonSchema,
  },
  rule: {
    summary: 'A rule triggered (see RuleEventPayload in /v2/openapi.json).',
    payload: parseJoi(rulePayloadSchema.joi, 'json') as JsonSchema,
  },
  poke: {
    summary: 'Sent whenever 5 s pass without another event (no SSE id).',
    payload: {
      type: 'object',
      required: ['ts'],
      properties: {
        ts: { type: 'string', format: 'date-time' },
        stream: { type: 'string', description: 'Stream connections and tails only' },
        members: { type: 'object', properties: { count: { type: 'integer' }, max: { type: 'integer' } }, description: 'Stream connections only' },
        tail: { type: 'boolean', const: true, description: 'Stream tails only' },
      },
    },
  },
};

export function asyncApiDocument(options: { publicUrl: string }) {
  const host = new URL(options.publicUrl);
  const messages: Record<string, unknown> = {};
  const channels: Record<string, unknown> = {};
  const operations: Record<string, unknown> = {};

  for (const topic of TOPICS) {
    const name = `kafka_${topic.spec.name.replace(/[^A-Za-z0-9]/g, '_')}`;
    messages[name] = {
      name: topic.spec.name,
      title: `${topic.spec.name} message (schema version ${schemaVersionOf(topic)})`,
      contentType: 'application/json',
      payload: toJsonSchema(topic),
    };
    channels[name] = {
      address: topic.spec.name,
      description: `Kafka topic (prefixed by WELLSTREAM_TOPIC_PREFIX), ${topic.spec.partitions} partitions${topic.spec.compacted ? ', compacted' : ''}. Internal: between services.`,
      servers: [{ $ref: '#/servers/kafka' }],
      messages: { [name]: { $ref: `#/components/messages/${name}` } },
    };
    operations[`consume_${name}`] = { action: 'receive', channel: { $ref: `#/channels/${name}` }, messages: [{ $ref: `#/channels/${name}/messages/${name}` }] };
  }

  const sseMessages: Record<string, unknown> = {};
  for (const type of ['poke', ...EVENT_TYPES]) {
    const p = ssePayloads[type];
    messages[`sse_${type}`] = {
      name: type,
      summary: p.summary,
      contentType: 'application/json',
      description: `SSE \`event: ${type}\`; \`data:\` is this JSON${type === 'poke' ? '' : '; \`id: <partition>-<offset>\` resumes with Last-Event-ID'}.`,
      payload: p.payload,
    };
    sseMessages[`sse_${type}`] = { $ref: `#/components/messages/sse_${type}` };
  }
  for (const [name, address, description] of [
    ['sse_stream', '/v2/streams/{id}/connect', 'A stream connection: a consumer-group member; users are split across connected clients.'],
    ['sse_tail', '/v2/streams/{id}/tail', "A read-only tail of a stream: its events, filters applied, from now; no consumer group, so the stream's clients keep every event."],
    ['sse_replay', '/v2/replay', "The customer's last 30 days, then live; `: replay caught up` marks the end of history."],
  ] as const) {
    channels[name] = {
      address,
      description,
      servers: [{ $ref: '#/servers/gateway' }],
      ...(name === 'sse_stream' || name === 'sse_tail' ? { parameters: { id: { description: 'Stream id' } } } : {}),
      messages: sseMessages,
    };
    operations[`receive_${name}`] = {
      action: 'receive',
      channel: { $ref: `#/channels/${name}` },
      summary: `GET ${address} (text/event-stream, developer token)`,
      messages: Object.keys(sseMessages).map((m) => ({ $ref: `#/channels/${name}/messages/${m}` })),
    };
  }

  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Wellstream events',
      version: '2.0.0',
      description:
        'Server-Sent Events for customers, and the Kafka topics between services. Generated from the schemas the services validate with. Every Kafka message carries `schema_version`; consumers read the current and the previous version and ignore unknown fields.',
    },
    servers: {
      gateway: { host: host.host, pathname: '', protocol: host.protocol.replace(':', ''), description: 'The gateway (base_url without /v2)' },
      kafka: { host: 'kafka:9092', protocol: 'kafka', description: 'WELLSTREAM_KAFKA_BROKERS (the embedded runtime uses an in-process log with the same topics)' },
    },
    channels,
    operations,
    components: { messages },
  };
}
