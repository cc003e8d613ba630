/**
 * The pace of one replay: at most `perSecond` events, with a burst of a tenth of a second. The
 * streams process already caps how much of its own time long reads take, but a replay's cost does
 * not stay in this process: every event it sends is also fetched from the broker, proxied by the
 * gateway and read by the client. A fixed pace per replay bounds what one replay can ask of those
 * shared servers, whatever the size of the history, and several replays progress side by side.
 */
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
/** Shortest rest: waking for single events would cost more timers than the events themselves. */
const MIN_REST_MS = 10;

export class ReplayPace {
  private tokens: number;
  private at: number;
  private readonly burst: number;

  constructor(
    private readonly perSecond: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.burst = Math.max(1, perSecond / 10);
    this.tokens = this.burst;
    this.at = now();
  }

  /** Resolves when the next event may go: at once within the pace, after a rest beyond it. */
  async take(): Promise<void> {
    for (;;) {
      const t = this.now();
      this.tokens = Math.min(this.burst, this.tokens + ((t - this.at) * this.perSecond) / 1000);
      this.at = t;
      if (this.tokens >= 1) {
        this.tokens -= 1;
        return;
      }
      await sleep(Math.max(MIN_REST_MS, Math.ceil(((1 - this.tokens) * 1000) / this.perSecond)));
    }
  }
}
