/**
 * Which gateways may take the next request, in round-robin order. An upstream leaves rotation when
 * a request finds it refusing or resetting (at once, so the next request does not try it too) or
 * when its health check fails; only a health check that succeeds brings it back. No I/O here: the
 * proxy and the health checker report what they saw.
 */
export interface Upstream {
  /** The base URL as configured (also the name in logs). */
  readonly url: string;
  readonly target: URL;
  up: boolean;
}

export type UpstreamChange = (upstream: Upstream, up: boolean, reason: string) => void;

export class UpstreamPool {
  readonly upstreams: readonly Upstream[];
  private next = 0;

  constructor(urls: readonly string[], private readonly onChange: UpstreamChange = () => undefined) {
    // Up until shown otherwise: the first requests need not wait for the first health round, and a
    // gateway that is not there yet costs one refused connect before the request goes elsewhere.
    this.upstreams = urls.map((url) => ({ url, target: new URL(url), up: true }));
  }

  /** The upstreams in rotation, starting with the next one's turn; each request walks this list. */
  candidates(): Upstream[] {
    const n = this.upstreams.length;
    const start = this.next;
    this.next = (this.next + 1) % n;
    const order: Upstream[] = [];
    for (let i = 0; i < n; i++) {
      const u = this.upstreams[(start + i) % n];
      if (u.up) order.push(u);
    }
    return order;
  }

  markDown(upstream: Upstream, reason: string): void {
    if (!upstream.up) return;
    upstream.up = false;
    this.onChange(upstream, false, reason);
  }

  markUp(upstream: Upstream, reason: string): void {
    if (upstream.up) return;
    upstream.up = true;
    this.onChange(upstream, true, reason);
  }

  get available(): number {
    return this.upstreams.filter((u) => u.up).length;
  }
}
