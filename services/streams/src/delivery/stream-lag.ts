/**
 * Consumer lag of the streams' groups in this process, for /metrics: per stream group, the time
 * from an event's append to its write to a client (of the last event delivered) and how many were
 * delivered. A group is forgotten when its last client here leaves, so the figures stay as many
 * as the streams connected to this process.
 */
export interface LagSample {
  labels: { group: string };
  value: number;
}

export class StreamLag {
  private readonly groups = new Map<string, { lagMs: number; delivered: number }>();

  delivered(group: string, appendedAtMs: number, now = Date.now()): void {
    const g = this.groups.get(group) ?? this.groups.set(group, { lagMs: 0, delivered: 0 }).get(group)!;
    g.lagMs = Math.max(0, now - appendedAtMs);
    g.delivered++;
  }

  forget(group: string): void {
    this.groups.delete(group);
  }

  lagSeconds(): LagSample[] {
    return [...this.groups].map(([group, g]) => ({ labels: { group }, value: g.lagMs / 1000 }));
  }

  deliveredCounts(): LagSample[] {
    return [...this.groups].map(([group, g]) => ({ labels: { group }, value: g.delivered }));
  }
}
