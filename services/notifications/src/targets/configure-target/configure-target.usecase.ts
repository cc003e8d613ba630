/**
 * Configures (replaces) an organization's notification target. The URL must name a host whose
 * every address the address policy allows; a refused or unresolvable host is a 422 on `url`.
 */
import type { ResourceType } from '@wellstream/catalog';
import { unprocessable } from '@wellstream/errors';
import { AddressPolicy, resolveAllowed } from '../address-policy';
import { targetRefused } from '../target.errors';
import type { TargetRepository } from '../target.repository';
import { toTargetView, TargetView } from '../target';
import type { Clock } from '@wellstream/clock';

export interface ConfigureTargetInput {
  organizationId: string;
  customerId: string;
  url: string;
  secret?: string;
  resourceFilter?: ResourceType[];
}

export async function configureTarget(
  deps: { targets: TargetRepository; policy: AddressPolicy; clock: Clock },
  input: ConfigureTargetInput,
): Promise<TargetView> {
  const url = new URL(input.url);
  if (url.username || url.password) throw unprocessable('TARGET_INVALID', { url: ['url must not carry credentials; use the secret to authenticate deliveries'] });
  const resolved = await resolveAllowed(url.hostname, deps.policy);
  if (!resolved.ok) throw targetRefused(resolved.reason);
  const saved = await deps.targets.put(
    {
      _id: input.organizationId,
      organization_id: input.organizationId,
      customer_id: input.customerId,
      url: url.toString(),
      secret: input.secret ?? null,
      resource_filter: input.resourceFilter ?? [],
    },
    deps.clock.now().toISOString(),
  );
  return toTargetView(saved);
}
