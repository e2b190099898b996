/**
 * Words for events and witnesses, for `--explain` and graphs: what a compiler engineer reads to see
 * why the model forbids a candidate.
 */

import { has } from '../core/relation.ts';
import { assertNever } from '../core/types.ts';
import type { Skeleton } from '../events/skeleton.ts';
import type { AxiomId, Workspace } from '../models/amdgpu.ts';
import type { EdgeName, Witness } from '../models/types.ts';
import { printInstr } from '../syntax/printer.ts';

/** `P0:2 store atomic i32 1, ptr @y syncscope("agent") release` (line-in-thread, 1-based). */
export function describeEvent(sk: Skeleton, id: number): string {
  const e = sk.events[id]!;
  if (e.kind === 'init') {
    const l = sk.locs[e.loc]!;
    return `the initial write of @${l.name}${l.owner ? ` (${l.owner})` : ''} = ${l.init}`;
  }
  const th = sk.test.threads[e.thread]!;
  const ins = th.body[e.instr]!;
  const half = e.rmw >= 0 ? (e.kind === 'read' ? 'the read of ' : 'the write of ') : '';
  return `${half}${th.name}:${e.instr + 1} \`${printInstr(ins)}\``;
}

/** Short label for graphs: `P0:2 W @y` style. */
export function shortEvent(sk: Skeleton, id: number): string {
  const e = sk.events[id]!;
  const l = e.loc >= 0 ? sk.locs[e.loc]! : null;
  if (e.kind === 'init') return `init @${l!.name}${l!.owner ? ` (${l!.owner})` : ''}`;
  const th = sk.test.threads[e.thread]!.name;
  const kind = e.kind === 'read' ? 'R' : e.kind === 'write' ? 'W' : e.kind === 'fence' ? 'F' : 'B';
  const ord = e.ordering === 'notatomic' ? '' : ` ${e.ordering}`;
  const sc = e.scope ? ` ${e.scope}` : '';
  return `${th}:${e.instr + 1} ${kind}${l ? ` @${l.name}` : ''}${ord}${sc}`;
}

const EDGE_WORDS: Record<EdgeName, string> = {
  po: 'is program-ordered before',
  rf: 'is read by',
  co: 'is coherence-ordered before',
  mo: 'is modification-ordered before',
  fr: 'reads a value overwritten by',
  sw: 'synchronises with',
  hb: 'happens before',
  eco: 'is extended-coherence-ordered before',
  lo: 'is location-ordered before',
  rmw: 'is the read half of',
  psc: 'precedes in the scoped seq_cst order',
};

const AXIOM_WORDS: Record<AxiomId, string> = {
  'no-thin-air': 'no-thin-air: a value would depend on itself through program order and reads-from',
  'hb-acyclic': 'happens-before would be cyclic',
  coherence:
    'coherence: same-location atomic accesses with inclusive scopes would be ordered in a cycle by hb ∪ rf ∪ mo ∪ fr',
  'rmw-atomicity': 'RMW atomicity: another write would slip between an RMW and the write it reads',
  'scoped-sc': 'scoped seq_cst: the seq_cst operations with inclusive scopes would be ordered in a cycle',
  'co-respects-lo': 'coherence order would contradict location order',
  'value-rules': 'value rules: a read would return something the AMDGPU value rules do not allow',
  values: 'values: register values would be inconsistent with the choices made',
};

/** `P0:2`, or `init @x`: an event in a chain of edges. */
function eventRef(sk: Skeleton, id: number): string {
  const e = sk.events[id]!;
  if (e.kind === 'init') return `init @${sk.locs[e.loc]!.name}`;
  return `${sk.test.threads[e.thread]!.name}:${e.instr + 1}`;
}

/**
 * The hb and eco edges that make one psc step a → b (psc = [SC]; (hb ∪ hb?;eco;hb?); [SC], docs/model.md
 * choice 16), as `P0:1 -hb-> P0:2 -fr-> P1:1`: an hb step is taken from the hb psc uses (with
 * per-space hb, the class's own hb for two accesses of one class), eco = (rf ∪ mo ∪ fr)+ is broken
 * into its rf, mo and fr edges. The shortest such chain; null if there is none (never for a psc edge).
 */
export function pscChain(ws: Workspace, a: number, b: number): string | null {
  const sk = ws.sk;
  const n = sk.n;
  const hbStep = (x: number, y: number) => {
    if (has(ws.hb, x, y)) return true;
    const k = sk.spaceClass[x]!;
    return k >= 0 && k === sk.spaceClass[y] && has(ws.hbSpace[k]!, x, y);
  };
  const ref = (e: number) => eventRef(sk, e);
  if (hbStep(a, b)) return `${ref(a)} -hb-> ${ref(b)}`;
  const ecoEdge = (x: number, y: number) =>
    has(ws.rfA, x, y) ? 'rf' : has(ws.mo, x, y) ? 'mo' : has(ws.fr, x, y) ? 'fr' : null;
  let best: string[] | null = null;
  for (let c = 0; c < n; c++) {
    if (c !== a && !hbStep(a, c)) continue;
    // Breadth-first over rf ∪ mo ∪ fr from c: the shortest eco chain to each event.
    const prev = new Int32Array(n).fill(-2);
    prev[c] = -1;
    const queue = [c];
    for (let q = 0; q < queue.length; q++) {
      const x = queue[q]!;
      for (let y = 0; y < n; y++)
        if (prev[y] === -2 && ecoEdge(x, y)) {
          prev[y] = x;
          queue.push(y);
        }
    }
    for (let d = 0; d < n; d++) {
      if (d === c || prev[d] === -2 || (d !== b && !hbStep(d, b))) continue;
      const path: number[] = [];
      for (let x = d; x !== -1; x = prev[x]!) path.unshift(x);
      const parts = c === a ? [ref(a)] : [ref(a), '-hb->', ref(c)];
      for (let k = 1; k < path.length; k++)
        parts.push(`-${ecoEdge(path[k - 1]!, path[k]!)}->`, ref(path[k]!));
      if (d !== b) parts.push('-hb->', ref(b));
      if (!best || parts.length < best.length) best = parts;
    }
  }
  return best ? best.join(' ') : null;
}

/**
 * One paragraph explaining why `axiom` rejects a candidate. Given the candidate's workspace, each
 * psc step of a scoped seq_cst cycle is broken into the hb and eco edges that make it.
 */
export function explainWitness(sk: Skeleton, axiom: AxiomId, w: Witness, ws?: Workspace): string {
  const d = (id: number) => describeEvent(sk, id);
  const head = AXIOM_WORDS[axiom];
  switch (w.kind) {
    case 'cycle': {
      const steps = w.events.map((e, k) => {
        const edge = w.edges[k]!;
        const chain = edge === 'psc' && ws ? pscChain(ws, e, w.events[(k + 1) % w.events.length]!) : null;
        return `    ${d(e)}\n      ${EDGE_WORDS[edge]} (${chain ? `psc: ${chain}` : edge})`;
      });
      return `${head}:\n${steps.join('\n')}\n    ${d(w.events[0]!)}  (back to the start)`;
    }
    case 'rmw':
      return `${head}: ${d(w.read)} reads from ${d(w.source)}, but ${d(w.between)} comes between them in mo.`;
    case 'lo-co':
      return `${head}: ${d(w.first)} is location-ordered before ${d(w.second)}, but this candidate puts it later in co.`;
    case 'value': {
      const set = (xs: number[]) => (xs.length === 0 ? 'none' : xs.map(d).join('; '));
      const chosen = w.chosen < 0 ? 'undef' : `the value of ${d(w.chosen)}`;
      const rule = [
        '',
        'rule 1 (no write is location-ordered before it): it returns undef',
        'rule 2 (it and every write it may see are atomic with inclusive scopes): it returns one of those writes',
        'rule 3 (it may see a write that is not location-ordered before it): it returns undef',
        'rule 4 (it may see exactly one write, location-ordered before it): it returns that write',
        'rule 5 (several writes, all location-ordered before it): it returns undef',
      ][w.rule];
      return (
        `${head}: ${d(w.read)} would return ${chosen}, but value ${rule}.\n` +
        `    writes it may see: ${set(w.maySee)}\n    writes location-ordered before it: ${set(w.locBefore)}`
      );
    }
    case 'cas':
      return `${head}: ${d(w.read)} reads a value that contradicts the success/failure this candidate assumed.`;
    case 'value-cycle':
      return `${head}: register values depend on themselves through reads-from (out of thin air), and no value of the solving domain satisfies the cycle and the cmpxchg outcomes assumed.`;
    default:
      return assertNever(w, 'witness');
  }
}
