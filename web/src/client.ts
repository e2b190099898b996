/**
 * The page's side of the worker: requests with promises, progress callbacks, and cancellation by
 * ending the worker (a search in the middle of a slice cannot be told to stop any other way) and
 * starting a fresh one.
 */
import type { Request, Response } from './engine/protocol.ts';

type Pending = { resolve: (r: Response) => void; progress?: (r: Response & { kind: 'progress' }) => void };
type Body = Request extends infer R ? (R extends Request ? Omit<R, 'id'> : never) : never;

export class EngineClient {
  private worker: Worker;
  private next = 1;
  private readonly pending = new Map<number, Pending>();

  constructor() {
    this.worker = this.start();
  }

  private start(): Worker {
    const w = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' });
    w.onmessage = (e: MessageEvent<Response>) => {
      const r = e.data;
      const p = this.pending.get(r.id);
      if (!p) return;
      if (r.kind === 'progress') {
        p.progress?.(r);
        return;
      }
      this.pending.delete(r.id);
      p.resolve(r);
    };
    w.onerror = (e) => {
      const message = e.message || 'the worker failed';
      for (const [id, p] of this.pending) p.resolve({ id, kind: 'error', message });
      this.pending.clear();
    };
    return w;
  }

  /** Sends a request; the promise resolves with its answer (or `cancelled`). */
  request(body: Body, progress?: Pending['progress']): Promise<Response> {
    const id = this.next++;
    return new Promise((resolve) => {
      this.pending.set(id, { resolve, progress });
      this.worker.postMessage({ ...body, id } as Request);
    });
  }

  /** Ends every request in flight (they resolve as cancelled) and starts a fresh worker. */
  cancel(): void {
    this.worker.terminate();
    for (const [id, p] of this.pending) p.resolve({ id, kind: 'error', message: 'cancelled' });
    this.pending.clear();
    this.worker = this.start();
  }
}
