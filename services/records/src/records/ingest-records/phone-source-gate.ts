/**
 * Uploads of a phone store the user disconnected on the marketplace are refused until the phone
 * app connects it again (`POST /v2/mobile/sources/<type>/connect`): otherwise an app that keeps
 * syncing would bring back data the user switched off. The whole request is refused, its other
 * stores' records included, as every refusal of the mobile endpoint is: nothing of it is stored, and
 * the SDK learns it at once and stops. Decided from records' copy of `source-connections`, which a
 * marketplace Disconnect and the app's connect answer only once it has applied.
 */
import { unprocessable } from '@wellstream/errors';
import type { SourceConnectionProjection } from '../../availability/source-connection-projection';
import { connectionIdOf } from '../../availability/source-connection-projection';
import type { ValidatedRecord } from './validate-records';
import { isPhoneSource } from './phone-uploads';

export const sourceDisconnected = () => unprocessable('SOURCE_DISCONNECTED', { 'source.type': ['disconnected'] });

const sourceTypeOf = (v: ValidatedRecord) => (v.kind === 'deletion' ? v.source.type : v.content.source.type);

export function phoneSourceGate(connections: Pick<SourceConnectionProjection, 'byIds'>, userId: string) {
  return async (validated: ValidatedRecord[]): Promise<void> => {
    const phone = [...new Set(validated.map(sourceTypeOf))].filter(isPhoneSource);
    if (phone.length === 0) return;
    const docs = await connections.byIds(phone.map((t) => connectionIdOf(userId, t)));
    if (docs.some((d) => d.status === 'disconnected')) throw sourceDisconnected();
  };
}
