/**
 * The users service's share of a user's data (it holds the profile, the connected sources and the
 * exports and audit entries about the user), for exports and erasures (libs/runtime user-data).
 */
import type { ExportItem, UserDataRequest } from '@wellstream/contracts';
import type { UserDataHolder } from '@wellstream/runtime';
import type { LifecycleDeps } from './lifecycle.deps';
import { eraseUserFromEventLog } from './erasure/erase-event-log';

export function usersDataHolder(deps: LifecycleDeps): UserDataHolder {
  return {
    service: 'users',
    async *exportPages(request: UserDataRequest): AsyncIterable<ExportItem[]> {
      const user = await deps.users.findById(request.user_id);
      if (!user) return;
      // Never the tokens: the export is the user's data, not access to it.
      const { _id, marketplace_token: _mt, mobile_token: _mob, marketplace_token_sha256: _sha, write_id: _w, version: _v, source_events_at: _s, sources, ...profile } = user;
      yield [{ kind: 'user', data: profile }, ...sources.map((s) => ({ kind: 'connected_source', data: { ...s } }))];
    },
    async erase(request: UserDataRequest): Promise<Record<string, number>> {
      const user = await deps.users.findById(request.user_id);
      if (user) await deps.users.remove(user.id);
      const exportIds = await deps.exports.idsOfUser(request.user_id);
      const logMessages = await eraseUserFromEventLog(deps.eventLog, request, exportIds);
      const exportsRemoved = await deps.exports.removeForUser(request.user_id);
      const auditForgotten = await deps.audit.forgetUid(request.user_id);
      const answers = await deps.idempotentAnswers.forgetUser(request.user_id);
      return { users: user ? 1 : 0, exports: exportsRemoved, audit_entries_anonymised: auditForgotten, event_log_messages: logMessages, idempotent_answers: answers };
    },
  };
}
