/**
 * Ports for processes started later are picked where no other process's `listen(0)` can take
 * them meanwhile (below the kernel's ephemeral range), and never twice in one process.
 */
import net from 'node:net';
import { freePort } from './process-platform';

const EPHEMERAL_FROM = 32_768;

it('hands out distinct free ports below the ephemeral range, none taken by a listen(0) meanwhile', async () => {
  const ports: number[] = [];
  const others: net.Server[] = [];
  for (let i = 0; i < 100; i++) {
    ports.push(await freePort());
    // Another process asking the kernel for any free port, between the pick and the bind.
    const other = net.createServer().listen(0, '127.0.0.1');
    await new Promise((r) => other.once('listening', r));
    others.push(other);
  }
  const taken = new Set(others.map((o) => (o.address() as net.AddressInfo).port));
  for (const o of others) o.close();
  expect(new Set(ports).size).toBe(ports.length);
  expect(ports.filter((p) => p >= EPHEMERAL_FROM || taken.has(p))).toEqual([]);
});
