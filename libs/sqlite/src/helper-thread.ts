/**
 * A worker thread that does a process's background work on the local files (checkpoints, the
 * embedded log's zlib): it never keeps the process alive on its own, and `onLost` is called once
 * if it fails or exits without being asked to, so its owner can do the work in place again.
 * Returns undefined when no thread can start.
 */
import { Worker } from 'node:worker_threads';

export function startHelperThread<M>(
  source: string,
  options: { workerData?: unknown; onMessage(message: M): void; onLost(worker: Worker): void },
): Worker | undefined {
  try {
    // CommonJS source, eval'd: it runs the same under ts-jest/swc and from dist.
    const worker = new Worker(source, { eval: true, workerData: options.workerData });
    worker.on('message', options.onMessage);
    worker.on('error', () => options.onLost(worker));
    worker.on('exit', () => options.onLost(worker));
    // After the listeners: adding one refs the thread again.
    worker.unref();
    return worker;
  } catch {
    return undefined;
  }
}
