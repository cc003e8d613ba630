/**
 * Bundles: a search answer (`searchset`, with paging links) and a `transaction` of resources
 * (what a FHIR destination posts; the CGM IG submits readings this way), plus OperationOutcome.
 */
import type { FhirResource } from './fhir-types';

export function searchsetBundle(args: { self: string; next?: string; resources: FhirResource[]; baseUrl: string; total?: number }): FhirResource {
  return {
    resourceType: 'Bundle',
    type: 'searchset',
    ...(args.total !== undefined ? { total: args.total } : {}),
    link: [{ relation: 'self', url: args.self }, ...(args.next ? [{ relation: 'next', url: args.next }] : [])],
    entry: args.resources.map((r) => ({ fullUrl: `${args.baseUrl}/${r.resourceType}/${r.id as string}`, resource: r, search: { mode: 'match' } })),
  };
}

/**
 * Resources as one transaction that creates or updates each by its id (PUT), so resending is
 * idempotent; `baseUrl` is the receiving server's (entries' fullUrl must be absolute).
 */
export function transactionBundle(baseUrl: string, resources: FhirResource[]): FhirResource {
  return {
    resourceType: 'Bundle',
    type: 'transaction',
    entry: resources.map((r) => ({
      fullUrl: `${baseUrl}/${r.resourceType}/${r.id as string}`,
      resource: r,
      request: { method: 'PUT', url: `${r.resourceType}/${r.id as string}` },
    })),
  };
}

export type IssueCode = 'invalid' | 'not-found' | 'forbidden' | 'login' | 'throttled' | 'not-supported' | 'exception' | 'too-costly' | 'processing';

export function operationOutcome(code: IssueCode, diagnostics: string, severity: 'error' | 'fatal' | 'information' = 'error'): FhirResource {
  return { resourceType: 'OperationOutcome', issue: [{ severity, code, diagnostics }] };
}
