/**
 * Test helper: reads a topic of the platform's event log from the beginning (group-less tail) and
 * keeps every message, parsed, so a test can wait for the one it expects.
 */
import type { EventLog, Subscription } from '@wellstream/bus';
import { eventually } from './api-client';

export interface EventRecorder<T> {
  events: T[];
  waitFor(pred: (e: T) => boolean, timeoutMs?: number): Promise<T>;
  stop(): Promise<void>;
}

export async function recordTopic<T = any>(log: EventLog, topic: string): Promise<EventRecorder<T>> {
  const events: T[] = [];
  const sub: Subscription = await log.tail({
    topic,
    handle: async (m) => {
      events.push(JSON.parse(m.value) as T);
    },
  });
  return {
    events,
    waitFor: (pred, timeoutMs = 10_000) => eventually(async () => events.find(pred), timeoutMs),
    stop: () => sub.stop(),
  };
}
