/**
 * The explorer's Web Worker: the model, the lowering and the machines run here, off the page's
 * thread, so the page stays responsive and a run is cancelled by ending the worker.
 */

import type { Progress } from './engine/listing.ts';
import type { Request, Response } from './engine/protocol.ts';
import { Session } from './engine/session.ts';

// The cat models of `models/`, bundled with the page (includes resolve among them by file name).
const files = import.meta.glob('../../models/*.cat', { query: '?raw', import: 'default', eager: true });
const sources: Record<string, string> = {};
for (const [path, text] of Object.entries(files)) sources[path.split('/').pop()!] = text as string;

const session = new Session(sources);
const post = (r: Response) => (self as unknown as { postMessage(m: Response): void }).postMessage(r);

/** Progress is posted at most every 50 ms (the page shows it only for runs over 300 ms). */
function throttled(id: number) {
  let last = 0;
  return (p: Progress) => {
    const now = performance.now();
    if (now - last < 50) return;
    last = now;
    post({ id, kind: 'progress', ...p });
  };
}

async function handle(req: Request): Promise<void> {
  switch (req.kind) {
    case 'run': {
      const out = await session.run(req.text, req.model, req.settings, req.budgets, throttled(req.id));
      if (out.kind === 'diagnostics') post({ id: req.id, kind: 'diagnostics', diagnostics: out.diagnostics });
      else post({ id: req.id, kind: 'run', result: out.result });
      return;
    }
    case 'graph': {
      const result = session.graph(req.index, req.edges, req.scopes);
      if (result) post({ id: req.id, kind: 'graph', result });
      else post({ id: req.id, kind: 'error', message: 'no such execution (run the test again)' });
      return;
    }
    case 'lower': {
      const out = await session.lower(req.text, req.choice, req.deviceScope);
      if ('diagnostics' in out) post({ id: req.id, kind: 'diagnostics', diagnostics: out.diagnostics });
      else post({ id: req.id, kind: 'lower', view: out });
      return;
    }
    case 'check': {
      const out = await session.check(req.text, req.choice, req.timeoutMs, req.deviceScope);
      if ('diagnostics' in out) post({ id: req.id, kind: 'diagnostics', diagnostics: out.diagnostics });
      else post({ id: req.id, kind: 'check', result: out });
      return;
    }
    case 'trace':
      post({ id: req.id, kind: 'trace', result: session.trace(req.choice, req.outcome) });
      return;
  }
}

// One request at a time, in order: a graph asked for while a run goes on waits for it.
let queue: Promise<void> = Promise.resolve();
self.onmessage = (e: MessageEvent<Request>) => {
  const req = e.data;
  queue = queue.then(() =>
    handle(req).catch((err: unknown) =>
      post({ id: req.id, kind: 'error', message: err instanceof Error ? err.message : String(err) }),
    ),
  );
};
