export * from './outbox';
export type { PendingMessage, StateCheck } from './outbox-entry';
export type { OutboxBacklog } from './outbox-relay';
