/**
 * The rules service's share of a user's data (docs/data-lifecycle.md): the user's rules (exported and erased),
 * and for an erasure also the data points copied from the user's records and its projection of
 * the user. Every query pins the user.
 */
import type { ExportItem, UserDataRequest } from '@wellstream/contracts';
import { deleteInSlices, UserDataHolder } from '@wellstream/runtime';
import type { DataPointRepository } from '../data-points/data-point.repository';
import type { RuleRepository } from '../rules/rule.repository';
import type { UserProjectionRepository } from '../users/user-projection.repository';

export function rulesDataHolder(rules: RuleRepository, dataPoints: DataPointRepository, projection: UserProjectionRepository): UserDataHolder {
  const points = dataPoints.points;
  const users = projection.users;
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
