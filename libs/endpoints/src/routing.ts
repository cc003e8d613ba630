/**
 * Which service answers a request path, and with which authentication, derived from the endpoint
 * declarations. The method plays no part: a service answers a method it does not serve itself
 * (404/405), after the gateway's checks, as it answers a path it does not know.
 *
 * A path that is exactly a declared template goes to that endpoint's service; at one position a
 * literal segment beats a parameter with declared values, which beats any value. A longer path goes
 * to the owner of the longest declared template (or prefix) it starts with, so a service answers
 * its own unknown sub-paths. Paths no service declares are the gateway's own.
 */
import type { AuthKind, EndpointDeclaration, EndpointOwner, PrefixDeclaration } from './endpoint';

export interface Route {
  service: EndpointOwner;
  auth: AuthKind;
  /** The path parameter holding the organization the developer token must belong to. */
  organizationParam?: string;
  /** The template, relative to /v2, with the values it is restricted to ({type:whoop|oura}). */
  template: string;
}

export interface RouteMatch {
  route: Route;
  /** The organization id as it appears in the path (still percent-encoded), when the route names one. */
  organizationSegment?: string;
}

type Segment = { literal: string } | { param: string; values?: ReadonlySet<string> };

interface CompiledRoute {
  route: Route;
  segments: Segment[];
  organizationIndex?: number;
}

const matches = (segment: Segment, value: string) =>
  value.length > 0 && ('literal' in segment ? segment.literal === value : !segment.values || segment.values.has(value));

const rank = (s: Segment) => ('literal' in s ? 0 : s.values ? 1 : 2);

/** Negative when a is the more specific of two templates of the same length. */
function bySpecificity(a: CompiledRoute, b: CompiledRoute): number {
  for (let i = 0; i < Math.min(a.segments.length, b.segments.length); i++) {
    const d = rank(a.segments[i]) - rank(b.segments[i]);
    if (d !== 0) return d;
  }
  return 0;
}

type Routed = Pick<EndpointDeclaration, 'path' | 'auth' | 'organizationParam' | 'operationId'>;

function compile(declaration: Routed, service: EndpointOwner, values: Record<string, readonly string[]>): CompiledRoute {
  const names = declaration.path.split('/').slice(1);
  const segments: Segment[] = names.map((name) => {
    const param = /^\{(.+)\}$/.exec(name)?.[1];
    if (!param) return { literal: name };
    return values[param] ? { param, values: new Set(values[param]) } : { param };
  });
  const template = segments.map((s) => ('literal' in s ? s.literal : `{${s.param}${s.values ? `:${[...s.values].join('|')}` : ''}}`)).join('/');
  const organizationIndex = declaration.organizationParam ? segments.findIndex((s) => 'param' in s && s.param === declaration.organizationParam) : -1;
  if (declaration.organizationParam && organizationIndex < 0) throw new Error(`${declaration.operationId}: no path parameter ${declaration.organizationParam}`);
  return {
    route: { service, auth: declaration.auth, organizationParam: declaration.organizationParam, template: `/${template}` },
    segments,
    organizationIndex: organizationIndex >= 0 ? organizationIndex : undefined,
  };
}

export interface Router {
  match(path: string): RouteMatch | undefined;
  /** Every distinct route, most specific first (for tests and the docs). */
  routes(): Route[];
}

/** `declarations` and `prefixes` from every owner; the result matches paths with their /v2 prefix. */
export function createRouter(declarations: readonly EndpointDeclaration[], prefixes: readonly PrefixDeclaration[] = []): Router {
  const byTemplate = new Map<string, CompiledRoute>();
  const add = (c: CompiledRoute) => {
    const known = byTemplate.get(c.route.template);
    if (known && (known.route.service !== c.route.service || known.route.auth !== c.route.auth || known.route.organizationParam !== c.route.organizationParam))
      throw new Error(`Two declarations of ${c.route.template} disagree on service or authentication`);
    byTemplate.set(c.route.template, c);
  };
  for (const d of declarations) add(compile(d, d.service, { ...d.pathValues }));
  // A prefix routes like a template that its longer paths start with (the longest one wins).
  for (const p of prefixes) add(compile({ path: p.prefix, auth: p.auth, operationId: `prefix ${p.prefix}` }, p.service, {}));
  // Indexed by first segment (always a literal): the gateway asks on every request.
  const byFirst = new Map<string, CompiledRoute[]>();
  for (const c of [...byTemplate.values()].sort(bySpecificity)) {
    const first = c.segments[0];
    if (!('literal' in first)) throw new Error(`${c.route.template}: a path starts with a literal segment`);
    byFirst.set(first.literal, [...(byFirst.get(first.literal) ?? []), c]);
  }

  const match = (path: string): RouteMatch | undefined => {
    if (!path.startsWith('/v2/')) return undefined;
    const trimmed = path.length > 4 && path.endsWith('/') ? path.slice(4, -1) : path.slice(4);
    const parts = trimmed.split('/');
    const candidates = byFirst.get(parts[0]);
    if (!candidates) return undefined;
    let best: CompiledRoute | undefined;
    for (const c of candidates) {
      if (c.segments.length > parts.length) continue;
      if (best && c.segments.length <= best.segments.length) continue;
      if (c.segments.every((s, i) => matches(s, parts[i]))) best = c;
    }
    if (!best || best.route.service === 'gateway') return undefined;
    return { route: best.route, organizationSegment: best.organizationIndex === undefined ? undefined : parts[best.organizationIndex] };
  };
  return { match, routes: () => [...byFirst.values()].flat().map((c) => c.route) };
}
