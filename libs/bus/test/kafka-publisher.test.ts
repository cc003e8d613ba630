/**
 * The publisher's order of work, on a stand-in producer (the broker's side of the numbering is
 * what the sse-scale bench's broker restart exercises): a failed publish is retried before the next
 * one is sent, and a publish that fails for good, or an answer that the producer's numbering is
 * lost, leaves a new producer for what follows.
 */
import type { Kafka } from 'kafkajs';
import { KafkaPublisher } from '../src/kafka-producer';

const quiet = { debug() {}, info() {}, warn() {}, error() {}, child: () => quiet } as never;

/** Producers that record each sendBatch (by producer and first message key) and fail as scripted. */
function fakeKafka(script: Array<Error | undefined>) {
  const sends: string[] = [];
  let made = 0;
  const kafka = {
    producer: () => {
      const id = ++made;
      return {
        connect: async () => {},
        disconnect: async () => {},
        sendBatch: async ({ topicMessages }: { topicMessages: Array<{ messages: Array<{ key: string }> }> }) => {
          sends.push(`p${id}:${topicMessages[0].messages[0].key}`);
          await new Promise((r) => setTimeout(r, 5));
          const outcome = script.shift();
          if (outcome) throw outcome;
        },
      };
    },
  } as unknown as Kafka;
  return { kafka, sends, producers: () => made };
}

const batch = (key: string) => [{ topic: 't', messages: [{ key, value: key }] }] as never;
const stateError = (type: string) => Object.assign(new Error(type), { type });


it('retries a failed publish before sending the next one', async () => {
  const { kafka, sends } = fakeKafka([new Error('connection closed'), undefined, undefined]);
  const publisher = new KafkaPublisher(kafka, quiet);
  await Promise.all([publisher.publish(batch('a')), publisher.publish(batch('b'))]);
  expect(sends).toEqual(['p1:a', 'p1:a', 'p1:b']);
});

it('a publish that fails for good rejects, and the next one goes out on a new producer', async () => {
  const { kafka, sends, producers } = fakeKafka([new Error('down'), undefined]);
  const publisher = new KafkaPublisher(kafka, quiet, 0);
  const first = publisher.publish(batch('a'));
  const second = publisher.publish(batch('b'));
  await expect(first).rejects.toThrow('down');
  await second;
  expect(sends).toEqual(['p1:a', 'p2:b']);
  expect(producers()).toBe(2);
});

it('an answer that the broker lost the producer’s numbering gets a new producer for the retry', async () => {
  const { kafka, sends } = fakeKafka([stateError('OUT_OF_ORDER_SEQUENCE_NUMBER'), undefined]);
  const publisher = new KafkaPublisher(kafka, quiet);
  await publisher.publish(batch('a'));
  expect(sends).toEqual(['p1:a', 'p2:a']);
});
