/**
 * What a cat model sees of a litmus test: sets and relations built from gpumm's event skeleton
 * (`src/events/skeleton.ts`), plus the three values of a candidate the enumerator fills in
 * (`rf`, `co`, `Undef`) and `fr` derived from them. docs/cat.md lists every name with its meaning.
 *
 * Undefined reads: a read that returns `undef` has no rf edge; it is in the set `Undef` instead.
 * Every read is in exactly one of `range(rf)` and `Undef`.
 *
 * No Node APIs here: the web page imports this file.
 */
import {
  add,
  bitset,
  composeInto,
  inverseInto,
  type Relation,
  relation,
  wordsFor,
} from '../core/relation.ts';
import { type SCOPES, scopeRank } from '../core/types.ts';
import { type Event, type Skeleton, SPACE_CLASSES } from '../events/skeleton.ts';
import type { Primitives, PrimitiveValue } from './eval.ts';

/** The buffers the enumerator writes a candidate into (shared with the compiled model). */
export interface CandidateBuffers {
  rf: Relation;
  co: Relation;
  undef: Uint32Array;
  fr: Relation;
  /** Recomputes `fr = rf⁻¹ ; co` after rf or co changed. */
  refreshFr(): void;
}

/**
 * The candidate's own primitives, `rf`, `co`, `fr` (tier 2, 1, 2) and `Undef`, bound in `values`
 * over `n` events, and the buffers the enumerator writes them through.
 */
export function candidatePrimitives(n: number, values: Map<string, PrimitiveValue>): CandidateBuffers {
  const rf = relation(n);
  const co = relation(n);
  const fr = relation(n);
  const rfT = relation(n);
  const undef = new Uint32Array(wordsFor(n));
  values.set('rf', { type: 'rel', tier: 2, rel: rf, bits: rf.bits });
  values.set('co', { type: 'rel', tier: 1, rel: co, bits: co.bits });
  values.set('fr', { type: 'rel', tier: 2, rel: fr, bits: fr.bits });
  values.set('Undef', { type: 'set', tier: 2, rel: null, bits: undef });
  return {
    rf,
    co,
    undef,
    fr,
    refreshFr() {
      inverseInto(rfT, rf);
      composeInto(fr, rfT, co);
    },
  };
}

const ORDERING_SETS: [string, string][] = [
  ['Unordered', 'unordered'],
  ['Monotonic', 'monotonic'],
  ['Acquire', 'acquire'],
  ['Release', 'release'],
  ['AcqRel', 'acq_rel'],
  ['SeqCst', 'seq_cst'],
];

const SCOPE_SETS: [string, (typeof SCOPES)[number]][] = [
  ['System', 'system'],
  ['Agent', 'agent'],
  ['Cluster', 'cluster'],
  ['Workgroup', 'workgroup'],
  ['Wavefront', 'wavefront'],
  ['Singlethread', 'singlethread'],
];

const BARRIER_SETS: [string, string][] = [
  ['B-barrier', 'barrier'],
  ['B-signal', 'signal'],
  ['B-signal-isfirst', 'signal_isfirst'],
  ['B-wait', 'wait'],
  ['B-init', 'init'],
  ['B-join', 'join'],
  ['B-signal-var', 'signal_var'],
  ['B-leave', 'leave'],
];

/** Names herd7 models use that gpumm's skeleton cannot give a meaning to (CAT3006). */
export const LACKING: ReadonlyMap<string, string> = new Map([
  ['X', 'exclusive (load-linked / store-conditional) accesses are ARM and RISC-V; gpumm has RMW pairs'],
  ['Q', 'acquirePC reads are ARM'],
  ['L', 'store-release as an ARM instruction class: use REL & W'],
  ['Rcu-lock', 'RCU events are Linux-kernel events'],
  ['Rcu-unlock', 'RCU events are Linux-kernel events'],
  ['Sync-rcu', 'RCU events are Linux-kernel events'],
  ['amo', 'single-event atomic RMWs are RISC-V; gpumm splits an RMW into a read and a write (rmw)'],
  ['dmb.sy', 'ARM fences: gpumm fences are F with an ordering and a scope'],
  ['lwsync', 'Power fences: gpumm fences are F with an ordering and a scope'],
  ['sync', 'Power fences: gpumm fences are F with an ordering and a scope'],
]);

/** Every primitive name, for docs/cat.md and its test. */
export const PRIMITIVE_NAMES: readonly string[] = [
  'R',
  'W',
  'IW',
  'M',
  'F',
  'B',
  'RMW',
  'A',
  'NA',
  'Ordered',
  ...ORDERING_SETS.map(([k]) => k),
  'ACQ',
  'REL',
  'SC',
  ...SCOPE_SETS.map(([k]) => k),
  'Scoped',
  'Global',
  'Lds',
  'Private',
  'OneAs',
  'OrdGlobal',
  'OrdLds',
  'OrdPrivate',
  'StoreAv',
  'LoadVis',
  'MakeAv',
  'MakeVis',
  'AvNone',
  ...BARRIER_SETS.map(([k]) => k),
  'Undef',
  'po',
  'rf',
  'co',
  'fr',
  'loc',
  'int',
  'ext',
  'rmw',
  'data',
  'addr',
  'ctrl',
  'id',
  'sincl',
  'incl',
  'same-wavefront',
  'same-workgroup',
  'same-cluster',
  'same-agent',
  'bsync',
];

/**
 * A table of primitives being built over the events of one variant (AMDGPU or Vulkan): `set` adds
 * the set of the events a predicate holds of, `rel` a relation (tier 0: fixed per variant).
 */
export function primitiveTable<E extends { id: number; kind: string }>(n: number, events: readonly E[]) {
  const values = new Map<string, PrimitiveValue>();
  const set = (name: string, p: (e: E) => boolean) =>
    values.set(name, {
      type: 'set',
      tier: 0,
      rel: null,
      bits: bitset(
        n,
        events.filter(p).map((e) => e.id),
      ),
    });
  const rel = (name: string, r: Relation, tier: 0 | 1 | 2 = 0) =>
    values.set(name, { type: 'rel', tier, rel: r, bits: r.bits });
  // herd's access sets, the same in every language: reads, writes (the initial ones among them), both.
  const isWrite = (e: E) => e.kind === 'write' || e.kind === 'init';
  const isAccess = (e: E) => e.kind === 'read' || isWrite(e);
  set('R', (e) => e.kind === 'read');
  set('W', isWrite);
  set('IW', (e) => e.kind === 'init');
  set('M', isAccess);
  return { values, set, rel, isAccess };
}

/** The primitives of `sk`, and the candidate buffers the enumerator writes into. */
export function buildPrimitives(sk: Skeleton): { prims: Primitives; cand: CandidateBuffers } {
  const n = sk.n;
  const ev = sk.events;
  const { values, set, rel, isAccess } = primitiveTable(n, ev);
  const pairs = (p: (a: Event, b: Event) => boolean): Relation => {
    const r = relation(n);
    for (const a of ev) for (const b of ev) if (p(a, b)) add(r, a.id, b.id);
    return r;
  };

  set('F', (e) => e.kind === 'fence');
  set('B', (e) => e.kind === 'barrier');
  set('RMW', (e) => e.rmw >= 0);
  set('A', (e) => isAccess(e) && e.atomic);
  set('NA', (e) => isAccess(e) && !e.atomic);
  // LLVM gives a per-address total order to monotonic and stronger accesses (docs/model.md, 24a).
  set('Ordered', (e) => isAccess(e) && e.atomic && e.ordering !== 'unordered');
  for (const [k, o] of ORDERING_SETS) set(k, (e) => e.ordering === o);
  set('ACQ', (e) => e.acquire);
  set('REL', (e) => e.release);
  set('SC', (e) => e.sc);
  for (const [k, s] of SCOPE_SETS) set(k, (e) => e.scope === s);
  set('Scoped', (e) => e.scope !== null);
  const cls = (k: number) => (e: Event) => sk.spaceClass[e.id] === k;
  set('Global', cls(SPACE_CLASSES.indexOf('global')));
  set('Lds', cls(SPACE_CLASSES.indexOf('local')));
  set('Private', cls(SPACE_CLASSES.indexOf('private')));
  // docs/model.md, choice 6: a -one-as scope narrows only in a test touching several address-space
  // classes; otherwise it acts as its plain form.
  set('OneAs', (e) => sk.oneAsMixed && e.oneAs);
  // docs/model.md, choice 33: the classes an operation orders when it synchronises — every class,
  // but a fence with amdgpu-synchronize-as tags orders only the classes they name.
  const ord = (k: number) => (e: Event) => (e.orders & (1 << k)) !== 0;
  set('OrdGlobal', ord(SPACE_CLASSES.indexOf('global')));
  set('OrdLds', ord(SPACE_CLASSES.indexOf('local')));
  set('OrdPrivate', ord(SPACE_CLASSES.indexOf('private')));
  set('StoreAv', (e) => e.storeAvailable);
  set('LoadVis', (e) => e.loadVisible);
  set('MakeAv', (e) => e.makeAvailable);
  set('MakeVis', (e) => e.makeVisible);
  set('AvNone', (e) => (e.release && !e.makeAvailable) || (e.acquire && !e.makeVisible));
  for (const [k, op] of BARRIER_SETS) set(k, (e) => e.barrier === op);

  rel('po', sk.po);
  rel('loc', sk.loc);
  rel(
    'int',
    pairs((a, b) => a.thread >= 0 && a.thread === b.thread),
  );
  rel(
    'ext',
    pairs((a, b) => a.id !== b.id && !(a.thread >= 0 && a.thread === b.thread)),
  );
  rel('rmw', sk.rmw);
  rel('data', sk.data);
  // The litmus language has no computed addresses and no branches: these are always empty.
  rel('addr', relation(n));
  rel('ctrl', relation(n));
  rel(
    'id',
    pairs((a, b) => a.id === b.id),
  );
  rel('sincl', sk.sincl);
  rel('incl', sk.incl);
  const T = sk.threadCount;
  const same = (rank: number) =>
    pairs((a, b) => a.thread >= 0 && b.thread >= 0 && sk.share[a.thread * T + b.thread]! >= rank);
  rel('same-wavefront', same(scopeRank('wavefront')));
  rel('same-workgroup', same(scopeRank('workgroup')));
  rel('same-cluster', same(scopeRank('cluster')));
  rel('same-agent', same(scopeRank('agent')));
  rel('bsync', sk.barrierSync);

  const cand = candidatePrimitives(n, values);
  return { prims: { n, values, lacking: LACKING }, cand };
}
