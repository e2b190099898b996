/**
 * Words for events and witnesses, for `--explain` and graphs: what a compiler engineer reads to see
 * why the model forbids a candidate.
 */

import { assertNever } from '../core/types.ts';
import type { Skeleton } from '../events/skeleton.ts';
import type { AxiomId } from '../models/amdgpu.ts';
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

/** One paragraph explaining why `axiom` rejects a candidate. */
export function explainWitness(sk: Skeleton, axiom: AxiomId, w: Witness): string {
  const d = (id: number) => describeEvent(sk, id);
  const head = AXIOM_WORDS[axiom];
  switch (w.kind) {
    case 'cycle': {
      const steps = w.events.map((e, k) => `    ${d(e)}\n      ${EDGE_WORDS[w.edges[k]!]} (${w.edges[k]})`);
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
      return `${head}: register values depend on each other through reads-from (out of thin air).`;
    default:
      return assertNever(w, 'witness');
  }
}
