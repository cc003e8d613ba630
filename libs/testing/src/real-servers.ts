/**
 * Addresses of the real servers that deploy/servers started for this jest run. Integration tests
 * call this; it throws (failing the test, never skipping) when the servers are not there.
 */
import { randomBytes } from 'node:crypto';
import { TEST_SOURCE_TOKEN_KEY } from './signed-headers';

export interface RealServers {
  kafkaBrokers: string;
  mongoUrl: string;
  redisUrl: string;
}

export function realServers(): RealServers {
  const kafkaBrokers = process.env.WELLSTREAM_TEST_KAFKA_BROKERS;
  const mongoUrl = process.env.WELLSTREAM_TEST_MONGO_URL;
  const redisUrl = process.env.WELLSTREAM_TEST_REDIS_URL;
  if (!kafkaBrokers || !mongoUrl || !redisUrl) {
    throw new Error(
      'Real servers are not available: WELLSTREAM_TEST_KAFKA_BROKERS / _MONGO_URL / _REDIS_URL are unset. ' +
        'Integration tests run through the jest "integration" project, whose global setup starts them (deploy/servers).',
    );
  }
  return { kafkaBrokers, mongoUrl, redisUrl };
}

/** A name no other test uses: for topic, group and database prefixes. Always says "test". */
export const uniqueTestName = (label: string) => `test_${label.replace(/[^a-zA-Z0-9]/g, '')}_${randomBytes(4).toString('hex')}`;

/** Environment for running the platform (or one service) on the real servers, isolated by prefix. */
export function distributedEnv(label: string): NodeJS.ProcessEnv {
  const s = realServers();
  const prefix = uniqueTestName(label);
  return {
    WELLSTREAM_MODE: 'distributed',
    WELLSTREAM_KAFKA_BROKERS: s.kafkaBrokers,
    WELLSTREAM_MONGO_URL: s.mongoUrl,
    WELLSTREAM_REDIS_URL: s.redisUrl,
    WELLSTREAM_TOPIC_PREFIX: `${prefix}.`,
    WELLSTREAM_DB_PREFIX: prefix,
    WELLSTREAM_SOURCE_TOKEN_KEY: TEST_SOURCE_TOKEN_KEY,
  };
}
