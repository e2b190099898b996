/**
 * Graphviz DOT for one execution: events grouped by thread, with immediate po and co, rf, sw,
 * barrier synchronisation (the edges hb adds beyond po ∪ sw, whose transitive closure it is),
 * availability (W → X: X is an availability operation on W) and visibility edges.
 */

import { has, type Relation, relation } from '../core/relation.ts';
import { isUndef } from '../events/program.ts';
import type { Workspace } from '../models/amdgpu.ts';
import { shortEvent } from './explain.ts';

function esc(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
}

/** Immediate edges of a transitive relation (its Hasse diagram). */
function immediate(r: Relation): Relation {
  const out = relation(r.n);
  for (let a = 0; a < r.n; a++)
    for (let b = 0; b < r.n; b++) {
      if (!has(r, a, b)) continue;
      let direct = true;
      for (let c = 0; c < r.n && direct; c++) if (has(r, a, c) && has(r, c, b)) direct = false;
      if (direct) out.bits[a * out.w + (b >>> 5)]! |= 1 << (b & 31);
    }
  return out;
}

/** DOT text for the execution loaded in `ws` (derived by `checkCandidate`). */
export function toDot(ws: Workspace, title: string): string {
  const sk = ws.sk;
  const n = sk.n;
  const lines: string[] = [
    `digraph "${esc(title)}" {`,
    '  rankdir=TB; node [shape=box, fontname="monospace", fontsize=10]; edge [fontsize=9];',
  ];
  const label = (e: number) => {
    const ev = sk.events[e]!;
    let v = '';
    if (ev.kind === 'write' || ev.kind === 'init' || ev.kind === 'read') {
      const x = ws.evaluator.writeVal[e]!;
      v = ev.kind === 'read' && ws.rfSrc[e] === -1 ? ' = undef' : ` = ${isUndef(x) ? 'undef' : x}`;
    }
    return esc(shortEvent(sk, e) + v);
  };
  const inits = sk.events.filter((e) => e.kind === 'init');
  if (inits.length > 0) {
    lines.push('  subgraph cluster_init { label="init"; style=dashed;');
    for (const e of inits) lines.push(`    e${e.id} [label="${label(e.id)}"];`);
    lines.push('  }');
  }
  sk.test.threads.forEach((th, t) => {
    lines.push(`  subgraph cluster_t${t} { label="${esc(th.name)}";`);
    for (const e of sk.events) if (e.thread === t) lines.push(`    e${e.id} [label="${label(e.id)}"];`);
    lines.push('  }');
  });
  const edge = (a: number, b: number, name: string, attrs: string) =>
    lines.push(`  e${a} -> e${b} [label="${name}", ${attrs}];`);
  const po = immediate(sk.po);
  const co = immediate(ws.co);
  for (let a = 0; a < n; a++) {
    for (let b = 0; b < n; b++) {
      if (has(po, a, b)) edge(a, b, 'po', 'color=black');
      if (has(ws.rf, a, b)) edge(a, b, 'rf', 'color=red');
      if (has(co, a, b)) edge(a, b, 'co', 'color=blue');
      if (has(ws.sw, a, b)) edge(a, b, 'sw', 'color=darkgreen, penwidth=2');
      if (has(sk.barrierSync, a, b)) edge(a, b, 'barrier-sync', 'color=darkgreen, style=bold');
      if (has(ws.av, a, b) && a !== b && !has(sk.po, a, b) && sk.events[a]!.kind !== 'init')
        edge(a, b, 'av', 'color=orange, style=dashed');
      const lvl = ws.visLevel[a * n + b]!;
      if (lvl < 6 && sk.events[a]!.kind !== 'init') edge(a, b, 'vis', 'color=purple, style=dashed');
    }
  }
  lines.push('}');
  return `${lines.join('\n')}\n`;
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
