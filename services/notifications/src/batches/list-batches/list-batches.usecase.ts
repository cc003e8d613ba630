/**
 * Lists an organization's batches, newest first. The time filter applies to the first attempt
 * time (the creation time while a batch has not been tried yet); end_time includes its whole second.
 */
import { toSummaryView, BatchSummaryView } from '../batch';
import type { BatchRepository } from '../batch.repository';

export interface ListBatchesInput {
  organizationId: string;
  startTime?: string;
  endTime?: string;
  status?: 'success' | 'failure';
  offset: number;
  limit: number;
}

export interface BatchList {
  data: BatchSummaryView[];
  meta: { offset: number; limit: number; total: number; sort: string };
}

export async function listBatches(deps: { batches: BatchRepository }, input: ListBatchesInput): Promise<BatchList> {
  const { batches, total } = await deps.batches.list({
    organizationId: input.organizationId,
    fromMs: input.startTime ? Date.parse(input.startTime) : undefined,
    toMs: input.endTime ? Date.parse(input.endTime) + 1000 : undefined,
    status: input.status,
    offset: input.offset,
    limit: input.limit,
  });
  return {
    data: batches.map(toSummaryView),
    meta: { offset: input.offset, limit: input.limit, total, sort: '-attempts.first_at' },
  };
}
