/**
 * The rules service's share of a user's data (issue 32): the user's rules (exported and erased),
 * and for an erasure also the data points copied from the user's records and its projection of
 * the user. Every query pins the user.
 */
import type { ExportItem, UserDataRequest } from '@wellstream/contracts';
import { deleteInSlices, UserDataHolder } from '@wellstream/runtime';
import type { DocumentStore } from '@wellstream/store';
import type { RuleRepository } from '../rules/rule.repository';

export async function rulesDataHolder(store: DocumentStore, rules: RuleRepository): Promise<UserDataHolder> {
  const points = await store.collection<{ _id: string; user_id: string }>({ name: 'data_points', partitionKey: 'user_id' });
  const users = await store.collection<{ _id: string }>({ name: 'users' });
  return {
    service: 'rules',
    async *exportPages(request: UserDataRequest): AsyncIterable<ExportItem[]> {
      yield (await rules.listForUser(request.user_id)).map(({ _id, ...rule }) => ({ kind: 'rule', data: { id: _id, ...rule } }));
    },
    async erase(request: UserDataRequest): Promise<Record<string, number>> {
      return {
        rules: await rules.deleteForUser(request.user_id),
        data_points: await deleteInSlices(points, { user_id: request.user_id }),
        user_projections: await users.deleteMany({ _id: request.user_id }),
      };
    },
  };
}
