/**
 * The candidate executions of a run, one at a time: previous/next, a filter, the graph (Graphviz as
 * WebAssembly, loaded the first time a graph is drawn), edge toggles, and for a rejected candidate
 * the violated axiom with the text `gpumm run --explain` prints.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { EdgeKind } from '../../src/enumerate/graph.ts';
import type { EngineClient } from './client.ts';
import type { GraphResult, RunResult } from './engine/protocol.ts';
import { CATEGORY_WORDS } from './results.tsx';

const EDGE_WORDS: Record<EdgeKind, string> = {
  po: 'po',
  rf: 'rf',
  co: 'co',
  sw: 'sw',
  hb: 'hb',
  av: 'availability',
  vis: 'visibility',
  lo: 'location order',
};

let viz: Promise<{ renderSVGElement(dot: string): SVGSVGElement }> | null = null;
/** Graphviz, loaded on first use (its WebAssembly is most of the page's weight). */
function graphviz() {
  viz ??= import('@viz-js/viz').then((m) => m.instance());
  return viz;
}

type Filter = 'all' | 'allowed' | 'forbidden';

export function Executions({ run, client }: { run: RunResult; client: EngineClient }) {
  const [filter, setFilter] = useState<Filter>('all');
  const [pos, setPos] = useState(0);
  const [edges, setEdges] = useState<EdgeKind[]>(['po', 'rf', 'co', 'sw']);
  const [scopes, setScopes] = useState(true);
  const [graph, setGraph] = useState<GraphResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const box = useRef<HTMLDivElement>(null);
  const shown = run.candidates
    .map((c, index) => ({ c, index }))
    .filter(({ c }) => filter === 'all' || (filter === 'forbidden') === !c.consistent);
  const at = Math.min(pos, Math.max(0, shown.length - 1));
  const current = shown[at];

  useEffect(() => setPos(0), [run, filter]);

  useEffect(() => {
    if (!current) return;
    let live = true;
    client.request({ kind: 'graph', index: current.index, edges, scopes }).then(async (r) => {
      if (!live) return;
      if (r.kind !== 'graph') {
        setError(r.kind === 'error' ? r.message : 'no graph');
        return;
      }
      setError(null);
      setGraph(r.result);
      try {
        const svg = (await graphviz()).renderSVGElement(r.result.dot);
        if (live && box.current) box.current.replaceChildren(svg);
      } catch (e) {
        setError(`Graphviz: ${e instanceof Error ? e.message : String(e)}`);
      }
    });
    return () => {
      live = false;
    };
  }, [current?.index, edges.join(), scopes, run]);

  if (run.candidates.length === 0) return <p class="note">No candidate executions.</p>;
  const toggle = (k: EdgeKind) => setEdges((es) => (es.includes(k) ? es.filter((e) => e !== k) : [...es, k]));
  return (
    <div class="executions">
      <div class="toolbar">
        <button
          type="button"
          onClick={() => setPos(Math.max(0, at - 1))}
          disabled={at === 0}
          data-testid="prev"
        >
          ◀ previous
        </button>
        <span class="counter" data-testid="exec-counter">
          {shown.length === 0 ? 0 : at + 1} / {shown.length}
          {run.candidatesPartial ? '+' : ''}
        </span>
        <button
          type="button"
          onClick={() => setPos(Math.min(shown.length - 1, at + 1))}
          disabled={at >= shown.length - 1}
          data-testid="next"
        >
          next ▶
        </button>
        <label>
          show{' '}
          <select
            value={filter}
            onChange={(e) => setFilter(e.currentTarget.value as Filter)}
            data-testid="exec-filter"
          >
            <option value="all">every candidate</option>
            <option value="allowed">allowed executions</option>
            <option value="forbidden">forbidden candidates</option>
          </select>
        </label>
      </div>
      <div class="toolbar edges" data-testid="edge-toggles">
        {(Object.keys(EDGE_WORDS) as EdgeKind[]).map((k) => (
          <label
            key={k}
            class={`edge-toggle edge-${k} ${run.edgeKinds.includes(k) ? '' : 'off'}`}
            title={
              run.edgeKinds.includes(k)
                ? ''
                : `this model has no such relation: it draws ${run.edgeKinds.join(', ')}`
            }
          >
            <input
              type="checkbox"
              checked={edges.includes(k) && run.edgeKinds.includes(k)}
              disabled={!run.edgeKinds.includes(k)}
              onChange={() => toggle(k)}
              data-testid={`edge-${k}`}
            />{' '}
            {EDGE_WORDS[k]}
          </label>
        ))}
        <label class="edge-toggle">
          <input type="checkbox" checked={scopes} onChange={() => setScopes(!scopes)} data-testid="scopes" />{' '}
          scope boxes
        </label>
      </div>
      {current && (
        <div class={`exec-head ${current.c.category}`} data-testid="exec-head">
          <b>{current.c.consistent ? 'Allowed execution' : 'Forbidden candidate'}</b>{' '}
          <code>{current.c.state ?? '(inconsistent values)'}</code>{' '}
          <span class="cat">{CATEGORY_WORDS[current.c.category]}</span>
        </div>
      )}
      {graph && !graph.consistent && (
        <div class="axiom" data-testid="axiom">
          <div>
            violates <b>{graph.axiom}</b>
          </div>
          <pre>{graph.explanation}</pre>
        </div>
      )}
      {error && <p class="error">{error}</p>}
      <div class="graph" ref={box} data-testid="graph" />
    </div>
  );
}
