#!/usr/bin/env node
/**
 * An idle process that only keeps a 2 ms timer: how late its timer fires is how long the machine
 * kept a process with nothing else to do off the CPU. A latency figure measured while the canary
 * saw a 100 ms gap says more about the host (another tenant, the hypervisor) than about the code.
 * Started by bench/harness.mjs `startCanary()`; on the parent's 'report' message it answers the
 * lateness since the previous report (p99, max, gaps over 20 ms) and starts over. Ends with its
 * parent (the IPC channel closes) or after 30 minutes, whichever comes first.
 */
const TICK_MS = 2;
let late = [];
let last = performance.now();
const timer = setInterval(() => {
  const now = performance.now();
  late.push(Math.max(0, now - last - TICK_MS));
  last = now;
}, TICK_MS);
const giveUp = setTimeout(() => process.exit(0), 30 * 60_000);
process.on('message', (m) => {
  if (m !== 'report') return;
  const s = late.sort((a, b) => a - b);
  late = [];
  process.send({ ticks: s.length, p99: s[Math.floor(0.99 * (s.length - 1))] ?? 0, max: s[s.length - 1] ?? 0, over20: s.filter((x) => x > 20).length });
});
process.on('disconnect', () => {
  clearInterval(timer);
  clearTimeout(giveUp);
});
