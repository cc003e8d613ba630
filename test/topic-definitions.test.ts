/**
 * deploy/topics/topics.json documents the Kafka topics for operators; this keeps it equal to what
 * the services really create (ALL_TOPICS through the Kafka adapter's topic configuration).
 */
import fs from 'node:fs';
import path from 'node:path';
import { ALL_TOPICS } from '@wellstream/contracts';
import { kafkaTopicConfig as topicConfig } from '@wellstream/bus/adapters';

interface TopicFile {
  topics: { name: string; partitions: number; config: Record<string, string> }[];
}

it('deploy/topics/topics.json matches the topics the services create', () => {
  const file = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../deploy/topics/topics.json'), 'utf8')) as TopicFile;
  const documented = file.topics.map((t) => ({ name: t.name, partitions: t.partitions, config: t.config }));
  const created = ALL_TOPICS.map((t) => ({ name: t.spec.name, partitions: t.spec.partitions, config: topicConfig(t.spec) }));
  expect(documented).toEqual(created);
});
