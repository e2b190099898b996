/**
 * Graphviz DOT for one execution: threads as columns inside nested boxes of their scope instances
 * (agent, cluster, workgroup, wavefront), and the edges asked for: immediate po and co, rf, sw with
 * barrier synchronisation, hb (its immediate edges beyond po), availability (W → X: X is an
 * availability operation on W), visibility, and location order. A rejected candidate's witness is
 * drawn over them in red. `gpumm run --graph` and the explorer draw with this one function.
 */

import { has, type Relation, relation } from '../core/relation.ts';
import type { Placement } from '../core/types.ts';
import { isUndef } from '../core/values.ts';
import type { Workspace } from '../models/amdgpu.ts';
import type { EdgeName, Witness } from '../models/types.ts';
import { shortEvent } from './explain.ts';

/** The edge kinds a graph can show (`sw` includes barrier synchronisation). */
export const EDGE_KINDS = ['po', 'rf', 'co', 'sw', 'hb', 'av', 'vis', 'lo'] as const;
export type EdgeKind = (typeof EDGE_KINDS)[number];

/** What `gpumm run --graph` draws. */
export const DEFAULT_EDGES: readonly EdgeKind[] = ['po', 'rf', 'co', 'sw', 'av', 'vis'];

export interface GraphOptions {
  /** Edge kinds to draw. */
  edges: readonly EdgeKind[];
  /** Draw the scope instances (agent, cluster, workgroup, wavefront) as nested boxes. */
  scopes: boolean;
  /** A rejected candidate's witness (`witnessParts`), drawn in red whatever `edges` says. */
  highlight: Highlight | null;
  /**
   * Vulkan candidates: which solution of a value cycle the values show (docs/model.md, "Values out
   * of thin air"); 0 when absent.
   */
  solution?: number;
}

/** Edges (from, to, name) and events to draw in red. */
export interface Highlight {
  edges: [number, number, string][];
  events: number[];
}

export const DEFAULT_GRAPH: GraphOptions = { edges: DEFAULT_EDGES, scopes: true, highlight: null };

const STYLE: Record<EdgeKind | 'barrier', string> = {
  po: 'color=black',
  rf: 'color=red3, fontcolor=red3',
  co: 'color=blue, fontcolor=blue',
  sw: 'color=darkgreen, fontcolor=darkgreen, penwidth=2',
  barrier: 'color=darkgreen, fontcolor=darkgreen, style=bold',
  hb: 'color=gray40, fontcolor=gray40, style=dashed',
  av: 'color=darkorange, fontcolor=darkorange, style=dashed',
  vis: 'color=purple, fontcolor=purple, style=dashed',
  lo: 'color=saddlebrown, fontcolor=saddlebrown, style=dotted',
};

function esc(s: string): string {
  return s
    .replace(/\\/g, '\\\\')
    .replace(/"/g, '\\"')
    .replace(/[\r\n]/g, ' ');
}

/** Immediate edges of a transitive relation (its Hasse diagram). */
export function immediate(r: Relation): Relation {
  const out = relation(r.n);
  for (let a = 0; a < r.n; a++)
    for (let b = 0; b < r.n; b++) {
      if (!has(r, a, b)) continue;
      let direct = true;
      for (let c = 0; c < r.n && direct; c++)
        if (c !== a && c !== b && has(r, a, c) && has(r, c, b)) direct = false;
      if (direct) out.bits[a * out.w + (b >>> 5)]! |= 1 << (b & 31);
    }
  return out;
}

/** The edges of a witness, as (from, to, name) triples, and the events it names. */
export function witnessParts(w: Witness): Highlight {
  switch (w.kind) {
    case 'cycle':
      return {
        edges: w.events.map((e, k) => [e, w.events[(k + 1) % w.events.length]!, w.edges[k] as EdgeName]),
        events: w.events,
      };
    case 'rmw':
      return {
        edges: [
          [w.source, w.read, 'rf'],
          [w.source, w.between, 'mo'],
          [w.between, w.write, 'mo'],
        ],
        events: [w.read, w.write, w.source, w.between],
      };
    case 'lo-co':
      return {
        edges: [
          [w.first, w.second, 'lo'],
          [w.second, w.first, 'co'],
        ],
        events: [w.first, w.second],
      };
    case 'value':
      return {
        edges: w.chosen >= 0 ? [[w.chosen, w.read, 'rf']] : [],
        events: [w.read, ...(w.chosen >= 0 ? [w.chosen] : [])],
      };
    case 'cas':
      return { edges: [], events: [w.read] };
    case 'value-cycle':
      return { edges: [], events: [] };
  }
}

/** One event of a drawn execution: its thread (-1: an initial write) and its label. */
export interface DrawnEvent {
  id: number;
  thread: number;
  label: string;
}

/** One edge of a drawn execution; `kind` is the toggle that shows it (`barrier`: with `sw`). */
export interface DrawnEdge {
  from: number;
  to: number;
  name: string;
  kind: EdgeKind | 'barrier';
}

/**
 * An execution as the drawing sees it, whatever its language (AMDGPU: `toDot`; Vulkan:
 * src/vulkan/graph.ts): its events in id order, its threads with the nested scope instances each
 * runs in (outermost first: `agent 0`, `cluster 0`, …; a thread with one box `host` stands apart),
 * and its edges in drawing order. Program-order edges (`po`) lay each thread out top to bottom even
 * when hidden.
 */
export interface DrawnExecution {
  title: string;
  events: readonly DrawnEvent[];
  threads: readonly { name: string; boxes: readonly string[] }[];
  edges: readonly DrawnEdge[];
}

/** The nested scope boxes of the threads, from each thread's `boxes` (outermost first). */
function scopeBoxes(
  threads: readonly { name: string; boxes: readonly string[] }[],
  body: (t: number, indent: string) => string[],
): string[] {
  const out: string[] = [];
  const level = (ts: number[], depth: number, indent: string): void => {
    if (ts.every((t) => threads[t]!.boxes.length <= depth)) {
      for (const t of ts) out.push(...body(t, indent));
      return;
    }
    const groups = new Map<string, number[]>();
    for (const t of ts) {
      const k = threads[t]!.boxes.slice(0, depth + 1).join('/');
      const g = groups.get(k);
      if (g) g.push(t);
      else groups.set(k, [t]);
    }
    for (const [k, g] of groups) {
      const label = k.split('/').pop()!;
      out.push(
        `${indent}subgraph "cluster_s_${esc(k)}" { label="${label}"; labeljust=l; style="rounded,dashed"; color=gray60; fontcolor=gray35; fontsize=9;`,
      );
      level(g, depth + 1, `${indent}  `);
      out.push(`${indent}}`);
    }
  };
  level(
    threads.map((_, t) => t),
    0,
    '  ',
  );
  return out;
}

/**
 * DOT text of a drawn execution: threads as columns (inside their scope boxes when `scopes`),
 * the initial writes above them, the edges `opts.edges` asks for, the witness in red.
 */
export function drawDot(x: DrawnExecution, opts: GraphOptions = DEFAULT_GRAPH): string {
  const show = new Set<EdgeKind | 'barrier'>(opts.edges);
  if (show.has('sw')) show.add('barrier');
  const lines: string[] = [
    `digraph "${esc(x.title)}" {`,
    // Courier and Helvetica: fonts whose widths Graphviz knows, so labels fit their boxes.
    '  newrank=true; rankdir=TB; nodesep=0.3; ranksep=0.45; fontname="Helvetica"; fontsize=11;',
    '  node [shape=box, style="rounded,filled", fillcolor=white, fontname="Courier", fontsize=10]; edge [fontsize=9, fontname="Helvetica"];',
  ];
  const wit = opts.highlight ?? { edges: [], events: [] };
  const inWitness = new Set(wit.events);
  const node = (e: DrawnEvent, indent: string) =>
    `${indent}e${e.id} [id="e${e.id}", label="${esc(e.label)}"${inWitness.has(e.id) ? ', fillcolor="#ffe4e1", color=red3, penwidth=2' : ''}];`;
  const inits = x.events.filter((e) => e.thread < 0);
  if (inits.length > 0) {
    lines.push(
      '  subgraph cluster_init { label="init"; style="rounded,dashed"; color=gray60; fontcolor=gray35;',
    );
    for (const e of inits) lines.push(node(e, '    '));
    lines.push('  }');
  }
  const threadBody = (t: number, indent: string): string[] => {
    const out = [
      `${indent}subgraph cluster_t${t} { label="${esc(x.threads[t]!.name)}"; style=rounded; color=black; fontcolor=black;`,
    ];
    for (const e of x.events) if (e.thread === t) out.push(node(e, `${indent}  `));
    out.push(`${indent}}`);
    return out;
  };
  if (opts.scopes) lines.push(...scopeBoxes(x.threads, threadBody));
  else for (let t = 0; t < x.threads.length; t++) lines.push(...threadBody(t, '  '));
  // Threads as columns: the first event of each thread on one rank, below the initial writes.
  const firsts = x.threads
    .map((_, t) => x.events.find((e) => e.thread === t)?.id)
    .filter((e): e is number => e !== undefined);
  if (firsts.length > 1) {
    lines.push(`  { rank=same; ${firsts.map((e) => `e${e}`).join('; ')}; }`);
    // Left to right in the test's order.
    for (let k = 0; k + 1 < firsts.length; k++)
      lines.push(`  e${firsts[k]} -> e${firsts[k + 1]} [style=invis];`);
  }
  if (inits.length > 1) lines.push(`  { rank=same; ${inits.map((e) => `e${e.id}`).join('; ')}; }`);
  if (inits.length > 0 && firsts.length > 0)
    for (const f of firsts) lines.push(`  e${inits[0]!.id} -> e${f} [style=invis];`);
  const witnessed = new Set(wit.edges.map(([a, b, name]) => `${a}>${b}>${name}`));
  for (const { from: a, to: b, name, kind } of x.edges) {
    if (!show.has(kind)) {
      // Hidden, program order still lays each thread out top to bottom.
      if (kind === 'po') lines.push(`  e${a} -> e${b} [style=invis];`);
      continue;
    }
    if (witnessed.has(`${a}>${b}>${name}`)) continue; // drawn below, in red
    lines.push(`  e${a} -> e${b} [label="${name}", class="edge-${kind}", ${STYLE[kind]}];`);
  }
  for (const [a, b, name] of wit.edges)
    lines.push(
      `  e${a} -> e${b} [label="${esc(name)}", class="edge-witness", color=red, fontcolor=red, penwidth=3, constraint=false];`,
    );
  lines.push('}');
  return `${lines.join('\n')}\n`;
}

/** The nested scope instances of an AMDGPU thread (a host thread: one box of its own). */
function placementBoxes(p: Placement): string[] {
  return p.kind === 'host'
    ? ['host']
    : [`agent ${p.agent}`, `cluster ${p.cluster}`, `workgroup ${p.workgroup}`, `wavefront ${p.wavefront}`];
}

/** DOT text for the execution loaded in `ws` (derived by `checkCandidate`). */
export function toDot(ws: Workspace, title: string, opts: GraphOptions = DEFAULT_GRAPH): string {
  const sk = ws.sk;
  const n = sk.n;
  const show = new Set(opts.edges);
  const label = (e: number) => {
    const ev = sk.events[e]!;
    let v = '';
    if (ev.kind === 'write' || ev.kind === 'init' || ev.kind === 'read') {
      const x = ws.evaluator.writeVal[e]!;
      v = ev.kind === 'read' && ws.rfSrc[e] === -1 ? ' = undef' : ` = ${isUndef(x) ? 'undef' : x}`;
    }
    return shortEvent(sk, e) + v;
  };
  const edges: DrawnEdge[] = [];
  const edge = (from: number, to: number, name: string, kind: DrawnEdge['kind']) =>
    edges.push({ from, to, name, kind });
  const po = immediate(sk.po);
  const co = immediate(ws.co);
  const hb = show.has('hb') ? immediate(ws.hb) : null;
  for (let a = 0; a < n; a++) {
    const init = sk.events[a]!.kind === 'init';
    for (let b = 0; b < n; b++) {
      if (has(po, a, b)) edge(a, b, 'po', 'po');
      if (show.has('rf') && has(ws.rf, a, b)) edge(a, b, 'rf', 'rf');
      if (show.has('co') && has(co, a, b)) edge(a, b, 'co', 'co');
      if (show.has('sw') && has(ws.sw, a, b)) edge(a, b, 'sw', 'sw');
      if (show.has('sw') && has(sk.barrierSync, a, b)) edge(a, b, 'barrier-sync', 'barrier');
      if (hb && has(hb, a, b) && !init && !has(sk.po, a, b)) edge(a, b, 'hb', 'hb');
      if (show.has('av') && has(ws.av, a, b) && a !== b && !has(sk.po, a, b) && !init) edge(a, b, 'av', 'av');
      if (show.has('vis') && ws.visLevel[a * n + b]! < 6 && !init) edge(a, b, 'vis', 'vis');
      if (show.has('lo') && has(ws.lo, a, b) && a !== b && !init) edge(a, b, 'lo', 'lo');
    }
  }
  return drawDot(
    {
      title,
      events: sk.events.map((e) => ({
        id: e.id,
        thread: e.kind === 'init' ? -1 : e.thread,
        label: label(e.id),
      })),
      threads: sk.test.threads.map((t) => ({ name: t.name, boxes: placementBoxes(t.placement) })),
      edges,
    },
    opts,
  );
}

/**
 * SVG for DOT text, drawn by Graphviz compiled to WebAssembly (@viz-js/viz): pictures need no
 * system Graphviz, and the browser explorer draws with the same renderer. Loaded on first use, so
 * commands that draw nothing do not pay for its 1.2 MB.
 */
export async function dotToSvg(dot: string): Promise<string> {
  const { instance } = await import('@viz-js/viz');
  return (await instance()).renderString(dot, { format: 'svg' });
}
