/**
 * Tenant slices on Kafka: one topic per tenant beside the shared topic (`<topic>.tenant.<tenant>`,
 * prefixed like every name), with the shared topic's cleanup settings and the slice's own partition
 * count. A slice's readers fetch only that tenant's messages, so their cost follows the tenant, and
 * a new tenant needs no restart anywhere: whoever first writes or reads a slice creates its topic.
 * Known slices are remembered per process, so only the first use pays the round trip to the broker.
 */
import type { TopicSpec } from './event-log.port';
import type { KafkaAdmin } from './kafka-admin';
import { topicConfig } from './kafka-admin';

/** Kafka topic names allow [a-zA-Z0-9._-] and 249 characters; tenants are ids of ours. */
const TENANT_ID = /^[A-Za-z0-9_-]{1,100}$/;

export class KafkaTenantTopics {
  private readonly specs = new Map<string, TopicSpec>();
  private readonly ready = new Map<string, Promise<void>>();

  constructor(
    private readonly admin: KafkaAdmin,
    private readonly name: (plain: string) => string,
    private readonly replicationFactor: number,
    private readonly overrides?: (spec: TopicSpec) => Record<string, string> | undefined,
  ) {}

  /** Remembers a topic's spec (ensureTopic): publishing to it then knows whether it has slices. */
  register(spec: TopicSpec): void {
    this.specs.set(spec.name, spec);
  }

  spec(topic: string): TopicSpec | undefined {
    return this.specs.get(topic);
  }

  /** The slice's plain topic name (no prefix): `events.tenant.cus_123`. */
  sliceName(topic: string, tenant: string): string {
    if (!TENANT_ID.test(tenant)) throw new Error(`invalid tenant id for a topic name: ${JSON.stringify(tenant)}`);
    return `${topic}.tenant.${tenant}`;
  }

  /** Creates the slice's topic once per process (concurrent callers share the request). */
  ensure(topic: string, tenant: string, again = false): Promise<void> {
    const base = this.specs.get(topic);
    if (!base?.tenants) return Promise.reject(new Error(`topic ${topic} has no tenant slices (ensureTopic it with a tenants spec first)`));
    const plain = this.sliceName(topic, tenant);
    if (again) this.ready.delete(plain);
    let p = this.ready.get(plain);
    if (!p) {
      const spec: TopicSpec = { name: plain, partitions: base.tenants.partitions, compacted: base.compacted, retentionMs: base.retentionMs };
      p = this.admin.ensureTopic(this.name(plain), spec, topicConfig(spec, this.overrides?.(base)), this.replicationFactor);
      p.catch(() => this.ready.delete(plain));
      this.ready.set(plain, p);
    }
    return p;
  }

  async drop(topic: string, tenant: string): Promise<void> {
    const plain = this.sliceName(topic, tenant);
    this.ready.delete(plain);
    await this.admin.deleteTopic(this.name(plain));
  }
}
