/**
 * `gpumm gen`: litmus tests from cycles of relations, as diy7 generates them (docs/campaigns.md,
 * "Generating tests").
 *
 * A test is a *cycle*: events joined by edges, each edge either program order inside a thread (`Pod`:
 * to another location, `Pos`: the same one; optionally with a fence between) or communication between
 * threads (`Rfe`: a write read by another thread, `Fre`: a read of a value that another thread's write
 * overwrites, `Coe`: a write that another thread's write overwrites). The test's `exists` asks for the
 * execution in which every edge of the cycle holds; with no fence and no ordering it is a cycle of
 * po ∪ rf ∪ co ∪ fr, which sequential consistency forbids — what the model says of it is the point.
 *
 * Over the cycle's *skeleton* (its edges with their read/write ends, diy's relaxation list), the
 * vocabulary annotates: each access's ordering, each program-order edge's fence, each thread's
 * syncscope, the threads' placement (one workgroup, a workgroup each, an agent each, every partition
 * into workgroups), and each location's address space (global, LDS, through a generic pointer).
 * Tests equal up to renaming threads (a rotation of the cycle) or locations are generated once.
 *
 * Locations: a `Pod` edge moves to a fresh location, so each location's accesses are one stretch of the
 * cycle. In that stretch the writes take the values 1, 2 in cycle order (the coherence order the cycle
 * states) and a read reads the last write before it in the stretch, 0 when none. A stretch holds at most
 * two writes, so the final value of a location with two writes pins their coherence order — with three,
 * the order of the first two could differ and the condition would not say the cycle (diy adds observer
 * threads there; gpumm leaves such cycles out). Every stretch has a communication edge, and a cycle has
 * at least two `Pod` edges: a cycle on one location only (coherence tests) is not generated; the
 * catalogue has those.
 *
 * No Node APIs here.
 */

import {
  type Instr,
  type Ordering,
  type Placement,
  SCOPES,
  type Scope,
  type SyncAs,
  type Test,
} from '../core/types.ts';
import {
  and,
  avld,
  avst,
  cond,
  dev,
  eq,
  fence,
  ld,
  makeTest,
  mem,
  reg,
  rmw,
  sbarrier,
  st,
  thread,
} from '../events/build.ts';
import { print } from '../syntax/printer.ts';

/** A read or a write. */
export type Dir = 'R' | 'W';

/** An edge of a cycle: program order (`Pod`, `Pos`) or communication between threads. */
export interface Edge {
  kind: 'Rfe' | 'Fre' | 'Coe' | 'Pod' | 'Pos';
  src: Dir;
  dst: Dir;
}

const COMM: Record<'Rfe' | 'Fre' | 'Coe', [Dir, Dir]> = { Rfe: ['W', 'R'], Fre: ['R', 'W'], Coe: ['W', 'W'] };

/** diy's spelling of an edge: `Rfe`, `PodWR`. */
export function edgeName(e: Edge): string {
  return e.kind === 'Pod' || e.kind === 'Pos' ? `${e.kind}${e.src}${e.dst}` : e.kind;
}

const isPo = (e: Edge): boolean => e.kind === 'Pod' || e.kind === 'Pos';

/** An access's ordering, as the vocabulary names it. */
export const ACCESS_ORDERS = ['na', 'rlx', 'acq', 'rel', 'sc', 'av'] as const;
export type AccessOrder = (typeof ACCESS_ORDERS)[number];
/** A program-order edge's fence: none, or a fence of this ordering (optionally synchronising one address space). */
export const FENCES = ['none', 'acq', 'rel', 'acq_rel', 'sc', 'bar', 'fbar'] as const;
export type FenceOrder = (typeof FENCES)[number];
export type FenceSpec = { order: FenceOrder; syncAs: SyncAs | null };
export const PLACEMENTS = ['wg', 'wgs', 'agents', 'all'] as const;
export type PlacementKind = (typeof PLACEMENTS)[number];
/**
 * A location's address space and how it is reached: global, LDS (`local`), global through a generic
 * pointer (`generic`), LDS through a generic pointer (`generic-local`: a flat access that the hardware
 * sends to LDS, counted on both counters).
 */
export const SPACES = ['global', 'local', 'generic', 'generic-local'] as const;
export type SpaceKind = (typeof SPACES)[number];
export const GEN_LANGS = ['amdgpu', 'vulkan'] as const;
/** How a write is made: a store, or an `atomicrmw xchg` that also returns the value it overwrote. */
export const WRITES = ['store', 'xchg'] as const;
export type WriteKind = (typeof WRITES)[number];

/** What `gpumm gen` generates. */
export interface GenOptions {
  /** Longest cycle (events), diy's `-size`. */
  size: number;
  /** Most threads, diy's `-nprocs`. */
  nprocs: number;
  /** The skeleton's edges, diy's relaxation list. */
  relax: Edge[];
  orders: AccessOrder[];
  fences: FenceSpec[];
  /** Each thread's syncscope (its atomics and fences). */
  scopes: Scope[];
  placements: PlacementKind[];
  spaces: SpaceKind[];
  /** How writes are made (each write event any of these). */
  writes: WriteKind[];
  lang: (typeof GEN_LANGS)[number];
}

/** The defaults, as a spec (`gpumm gen` with no options). */
export const DEFAULT_SPEC =
  'size=4 nprocs=4 relax=Rfe,Fre,Coe,Pod** orders=rlx,acq,rel fences=none scopes=workgroup,agent placements=wg,wgs spaces=global writes=store lang=amdgpu';

/** Why a spec cannot be used: the key, what is wrong, and a hint. */
export interface SpecError {
  key: string;
  message: string;
  hint: string;
}

const KEYS = [
  'size',
  'nprocs',
  'relax',
  'orders',
  'fences',
  'scopes',
  'placements',
  'spaces',
  'writes',
  'lang',
] as const;
export type GenKey = (typeof KEYS)[number];

function parseEdges(text: string): Edge[] | string {
  const out: Edge[] = [];
  for (const tok of text.split(',').map((s) => s.trim())) {
    const name = tok === 'Wse' ? 'Coe' : tok;
    if (name === 'Rfe' || name === 'Fre' || name === 'Coe') {
      const [src, dst] = COMM[name];
      out.push({ kind: name, src, dst });
      continue;
    }
    const m = /^(Pod|Pos)([RW*])([RW*])$/.exec(name);
    if (!m) return tok;
    for (const src of m[2] === '*' ? (['R', 'W'] as const) : [m[2] as Dir])
      for (const dst of m[3] === '*' ? (['R', 'W'] as const) : [m[3] as Dir])
        out.push({ kind: m[1] as 'Pod' | 'Pos', src, dst });
  }
  // Each edge once, in a fixed order: the spec's canonical text does not depend on how it was written.
  const seen = new Set<string>();
  return out.filter((e) => !seen.has(edgeName(e)) && seen.add(edgeName(e)));
}

function parseList<T extends string>(text: string, allowed: readonly T[]): T[] | string {
  const out: T[] = [];
  for (const tok of text.split(',').map((s) => s.trim())) {
    if (!(allowed as readonly string[]).includes(tok)) return tok;
    if (!out.includes(tok as T)) out.push(tok as T);
  }
  return out;
}

function parseFences(text: string): FenceSpec[] | string {
  const out: FenceSpec[] = [];
  for (const tok of text.split(',').map((s) => s.trim())) {
    const [order, as, more] = tok.split('.');
    if (!(FENCES as readonly string[]).includes(order!) || more !== undefined) return tok;
    if (as !== undefined && ((as !== 'global' && as !== 'local') || ['none', 'bar', 'fbar'].includes(order!)))
      return tok;
    out.push({ order: order as FenceOrder, syncAs: (as as SyncAs | undefined) ?? null });
  }
  return out;
}

const HINTS: Record<GenKey, string> = {
  size: 'a whole number from 4 to 8 (events in the cycle)',
  nprocs: 'a whole number from 2 to 8 (threads)',
  relax: 'edges Rfe, Fre, Coe (or Wse), PodXY and PosXY with X, Y each R, W or *',
  orders: `orderings among ${ACCESS_ORDERS.join(', ')}`,
  fences: `fences among ${FENCES.join(', ')}, each optionally .global or .local (amdgpu-synchronize-as)`,
  scopes: `scopes among ${SCOPES.filter((s) => s !== 'singlethread').join(', ')}`,
  placements: `placements among ${PLACEMENTS.join(', ')}`,
  spaces: `address spaces among ${SPACES.join(', ')}`,
  writes: `write kinds among ${WRITES.join(', ')}`,
  lang: `one of ${GEN_LANGS.join(', ')}`,
};

/** The keys whose value is a list of names, each with the names it may hold. */
const LIST_KEYS = {
  orders: ACCESS_ORDERS,
  scopes: SCOPES.filter((x) => x !== 'singlethread'),
  placements: PLACEMENTS,
  spaces: SPACES,
  writes: WRITES,
} as const;
type ListKey = keyof typeof LIST_KEYS;

/** The options of one key's text, or what is wrong with it. */
function parseKey(key: GenKey, text: string, o: GenOptions): SpecError | null {
  const bad = (what: string): SpecError => ({
    key,
    message: `'${what}' is not a valid ${key} value`,
    hint: HINTS[key],
  });
  const ints = (lo: number, hi: number): number | null => {
    const n = Number(text);
    return /^\d+$/.test(text) && n >= lo && n <= hi ? n : null;
  };
  if (key in LIST_KEYS) {
    const r = parseList(text, LIST_KEYS[key as ListKey]);
    if (typeof r === 'string') return bad(r);
    // Each list key's values are the ones its table entry allows.
    (o as unknown as Record<ListKey, readonly string[]>)[key as ListKey] = r;
    return null;
  }
  switch (key as Exclude<GenKey, ListKey>) {
    case 'size': {
      const n = ints(4, 8);
      if (n === null) return bad(text);
      o.size = n;
      return null;
    }
    case 'nprocs': {
      const n = ints(2, 8);
      if (n === null) return bad(text);
      o.nprocs = n;
      return null;
    }
    case 'relax': {
      const r = parseEdges(text);
      if (typeof r === 'string') return bad(r);
      o.relax = r;
      return null;
    }
    case 'fences': {
      const r = parseFences(text);
      if (typeof r === 'string') return bad(r);
      o.fences = r;
      return null;
    }
    case 'lang': {
      const r = parseList(text, GEN_LANGS);
      if (typeof r === 'string' || r.length !== 1) return bad(text);
      o.lang = r[0]!;
      return null;
    }
  }
}

/**
 * A spec: `key=value` pairs separated by spaces (`size=5 orders=rlx,sc`), each key at most once, over
 * the defaults (`DEFAULT_SPEC`). `gpumm gen`'s options and `gpumm campaign --gen` both read one.
 */
export function parseGenSpec(spec: string): { options: GenOptions } | { error: SpecError } {
  const o = {} as GenOptions;
  for (const pair of DEFAULT_SPEC.split(' ')) {
    const [k, v] = pair.split('=') as [GenKey, string];
    parseKey(k, v, o);
  }
  const given: string[] = [];
  for (const pair of spec.split(/\s+/).filter((s) => s !== '')) {
    const eqAt = pair.indexOf('=');
    const key = (eqAt < 0 ? pair : pair.slice(0, eqAt)) as GenKey;
    if (!(KEYS as readonly string[]).includes(key))
      return {
        error: {
          key,
          message: `'${key}' is not a generator option`,
          hint: `the options are ${KEYS.join(', ')}, each written key=value`,
        },
      };
    if (eqAt < 0 || given.includes(key))
      return {
        error: {
          key,
          message: eqAt < 0 ? `${key} needs a value` : `${key} is given twice`,
          hint: `write ${key}=VALUE once: ${HINTS[key]}`,
        },
      };
    given.push(key);
    const err = parseKey(key, pair.slice(eqAt + 1), o);
    if (err) return { error: err };
  }
  return { options: o };
}

/** The canonical text of the options: every key, in a fixed order (a campaign's header records it). */
export function specText(o: GenOptions): string {
  const fences = o.fences.map((f) => (f.syncAs ? `${f.order}.${f.syncAs}` : f.order));
  return [
    `size=${o.size}`,
    `nprocs=${o.nprocs}`,
    `relax=${o.relax.map(edgeName).join(',')}`,
    `orders=${o.orders.join(',')}`,
    `fences=${fences.join(',')}`,
    `scopes=${o.scopes.join(',')}`,
    `placements=${o.placements.join(',')}`,
    `spaces=${o.spaces.join(',')}`,
    `writes=${o.writes.join(',')}`,
    `lang=${o.lang}`,
  ].join(' ');
}

// ---------------------------------------------------------------------------------------------------
// Skeletons

/** A skeleton: the edges of a cycle, edge i from event i to event i+1 (mod the length). */
export type Skeleton = readonly Edge[];

/** The events that start a thread (their incoming edge is a communication edge). */
function threadStarts(s: Skeleton): number[] {
  const n = s.length;
  return s.map((_, i) => i).filter((i) => !isPo(s[(i + n - 1) % n]!));
}

/** The skeleton rotated to start at event `k`. */
const rotate = <T>(xs: readonly T[], k: number): T[] => [...xs.slice(k), ...xs.slice(0, k)];

/**
 * How a rotation sorts, smallest first: threads' directions with W before R (herd's habit of listing
 * the writing thread first: MP's P0 writes), then the edges.
 */
function rotationKey(s: Skeleton): string {
  const threads: string[] = [];
  let cur = '';
  s.forEach((e) => {
    cur += e.src === 'W' ? '0' : '1';
    if (!isPo(e)) {
      threads.push(cur);
      cur = '';
    }
  });
  return `${threads.join(',')}#${s.map(edgeName).join(' ')}`;
}

/** The rotations of `s` that start a thread and are its smallest (several when `s` is symmetric). */
export function canonicalRotations(s: Skeleton): number[] {
  const starts = threadStarts(s);
  const keys = starts.map((k) => rotationKey(rotate(s, k)));
  const min = keys.reduce((a, b) => (b < a ? b : a));
  return starts.filter((_, j) => keys[j] === min);
}

/**
 * Whether a skeleton makes a test whose condition says its cycle: at least two threads (communication
 * edges) and at most `nprocs`, at least two `Pod` edges, a communication edge on every location, at
 * most two writes per location.
 */
function wellFormed(s: Skeleton, nprocs: number): boolean {
  const n = s.length;
  const comms = s.filter((e) => !isPo(e)).length;
  if (comms < 2 || comms > nprocs) return false;
  const pods = s.map((e, i) => (e.kind === 'Pod' ? i : -1)).filter((i) => i >= 0);
  if (pods.length < 2) return false;
  // Each stretch: the events after one Pod up to and including the next Pod's source.
  for (let j = 0; j < pods.length; j++) {
    const from = (pods[j]! + 1) % n;
    const to = pods[(j + 1) % pods.length]!;
    let writes = 0;
    let comm = false;
    for (let i = from; ; i = (i + 1) % n) {
      if (s[i]!.src === 'W') writes++;
      if (i === to) break;
      if (!isPo(s[i]!)) comm = true;
    }
    if (writes > 2 || !comm) return false;
  }
  return true;
}

/** Every skeleton over `relax` of 4 to `size` events, once each up to rotation, canonically rotated. */
export function skeletons(o: Pick<GenOptions, 'size' | 'nprocs' | 'relax'>): Skeleton[] {
  const out: Skeleton[] = [];
  const seen = new Set<string>();
  const path: Edge[] = [];
  const extend = (len: number) => {
    if (path.length === len) {
      if (path[len - 1]!.dst !== path[0]!.src || !wellFormed(path, o.nprocs)) return;
      // Adjacent communication edges share no thread: a thread's events are joined by po alone.
      const rot = rotate(path, canonicalRotations(path)[0]!);
      const key = rot.map(edgeName).join(' ');
      if (!seen.has(key)) {
        seen.add(key);
        out.push(rot);
      }
      return;
    }
    for (const e of o.relax) {
      if (path.length > 0 && path[path.length - 1]!.dst !== e.src) continue;
      path.push(e);
      extend(len);
      path.pop();
    }
  };
  for (let len = 4; len <= o.size; len++) extend(len);
  return out;
}

/** herd's names of the classic shapes, by their canonical skeleton. */
const FAMILIES: readonly [string, string][] = [
  ['MP', 'PodWW Rfe PodRR Fre'],
  ['SB', 'PodWR Fre PodWR Fre'],
  ['LB', 'PodRW Rfe PodRW Rfe'],
  ['S', 'PodWW Rfe PodRW Coe'],
  ['R', 'PodWW Coe PodWR Fre'],
  ['2+2W', 'PodWW Coe PodWW Coe'],
  ['WRC', 'Rfe PodRW Rfe PodRR Fre'],
  ['RWC', 'Rfe PodRR Fre PodWR Fre'],
  ['WWC', 'Rfe PodRW Rfe PodRW Coe'],
  ['ISA2', 'PodWW Rfe PodRW Rfe PodRR Fre'],
  ['W+RWC', 'PodWW Rfe PodRR Fre PodWR Fre'],
  ['3.SB', 'PodWR Fre PodWR Fre PodWR Fre'],
  ['3.LB', 'PodRW Rfe PodRW Rfe PodRW Rfe'],
  ['3.2W', 'PodWW Coe PodWW Coe PodWW Coe'],
  ['IRIW', 'Rfe PodRR Fre Rfe PodRR Fre'],
];

/** The family name of a canonical skeleton: herd's name, else its edges joined by `+` (diy's cycle). */
export function familyName(s: Skeleton): string {
  const key = s.map(edgeName).join(' ');
  return FAMILIES.find(([, k]) => k === key)?.[0] ?? s.map(edgeName).join('+');
}

// ---------------------------------------------------------------------------------------------------
// Annotations and tests

const ORDERING: Record<Exclude<AccessOrder, 'av'>, Ordering> = {
  na: 'notatomic',
  rlx: 'monotonic',
  acq: 'acquire',
  rel: 'release',
  sc: 'seq_cst',
};
/** A fence's ordering; a barrier's fences (`fbar`) release before it and acquire after it. */
const FENCE_ORDERING: Record<Exclude<FenceOrder, 'none' | 'bar' | 'fbar'>, Ordering> = {
  acq: 'acquire',
  rel: 'release',
  acq_rel: 'acq_rel',
  sc: 'seq_cst',
};
const FENCE_NAME: Record<Exclude<FenceOrder, 'none'>, string> = {
  acq: 'Facq',
  rel: 'Frel',
  acq_rel: 'Far',
  sc: 'Fsc',
  bar: 'B',
  fbar: 'FB',
};
const SCOPE_NAME: Record<Scope, string> = {
  system: 'sys',
  agent: 'ag',
  cluster: 'cl',
  workgroup: 'wg',
  wavefront: 'wf',
  singlethread: 'st',
};

/** A location's address space in a test's name: global, LDS (`l`), global or LDS through a generic pointer (`p`, `q`). */
const SPACE_LETTER: Record<SpaceKind, string> = {
  global: 'g',
  local: 'l',
  generic: 'p',
  'generic-local': 'q',
};
/** LDS locations, reached directly or through a generic pointer: shared only within a workgroup. */
const isLds = (x: SpaceKind): boolean => x === 'local' || x === 'generic-local';

/** An event's access: its ordering, and for a write whether it is an `atomicrmw xchg`. */
interface Access {
  order: AccessOrder;
  xchg: boolean;
}

/**
 * The accesses an event of this direction may be: loads do not release, stores do not acquire, an
 * exchange is atomic and may do either.
 */
const accessesOf = (o: GenOptions, d: Dir): Access[] =>
  d === 'R'
    ? o.orders.filter((x) => x !== 'rel').map((order) => ({ order, xchg: false }))
    : o.writes.flatMap((w) =>
        o.orders
          .filter((x) => (w === 'xchg' ? x !== 'na' && x !== 'av' : x !== 'acq'))
          .map((order) => ({ order, xchg: w === 'xchg' })),
      );
/** The fences a po edge may carry: an acquire fence only after a load, a release fence only before a store. */
const fencesOf = (o: GenOptions, e: Edge): FenceSpec[] =>
  o.fences.filter((f) => (f.order === 'acq' ? e.src === 'R' : f.order === 'rel' ? e.dst === 'W' : true));

/** Every set partition of `n` threads into workgroups, as each thread's workgroup (first occurrence order). */
function partitions(n: number): number[][] {
  const out: number[][] = [];
  const cur: number[] = [];
  const go = (i: number, groups: number) => {
    if (i === n) {
      out.push([...cur]);
      return;
    }
    for (let g = 0; g <= groups; g++) {
      cur.push(g);
      go(i + 1, Math.max(groups, g + 1));
      cur.pop();
    }
  };
  go(0, 0);
  return out;
}

/** A placement: each thread's workgroup and each workgroup's agent, both numbered in first-occurrence order. */
interface Layout {
  wg: number[];
  agentOfWg: number[];
}

function layouts(o: GenOptions, n: number): Layout[] {
  const out: Layout[] = [];
  const push = (l: Layout) => {
    if (!out.some((x) => layoutCode(x) === layoutCode(l))) out.push(l);
  };
  const same = Array.from({ length: n }, () => 0);
  const each = Array.from({ length: n }, (_, i) => i);
  for (const p of o.placements) {
    if (p === 'wg') push({ wg: same, agentOfWg: [0] });
    if (p === 'wgs') push({ wg: each, agentOfWg: each.map(() => 0) });
    if (p === 'agents') push({ wg: each, agentOfWg: each });
    if (p === 'all')
      for (const wg of partitions(n))
        push({ wg, agentOfWg: Array.from({ length: Math.max(...wg) + 1 }, () => 0) });
  }
  return out;
}

/** `w012`: each thread's workgroup; `a…` after it, each workgroup's agent, when there are several agents. */
function layoutCode(l: Layout): string {
  const agents = l.agentOfWg.some((a) => a > 0) ? `a${l.agentOfWg.join('')}` : '';
  return `w${l.wg.join('')}${agents}`;
}

/** One annotated cycle: a skeleton and a choice from the vocabulary for every event, edge, thread, location. */
interface Annotated {
  s: Skeleton;
  access: Access[];
  fence: (FenceSpec | null)[];
  /** Per thread, in the skeleton's thread order. */
  scope: Scope[];
  layout: Layout;
  /** Per location, in the skeleton's location order. */
  space: SpaceKind[];
}

/** A generated test: its name, its text, and the test itself. */
export interface Generated {
  name: string;
  text: string;
  test: Test;
}

/** Each event's thread and each event's location (stretch) index, for a skeleton starting a thread. */
function structure(s: Skeleton): { threadOf: number[]; locOf: number[]; threads: number; locs: number } {
  const n = s.length;
  const threadOf: number[] = [];
  let t = 0;
  for (let i = 0; i < n; i++) {
    threadOf.push(t);
    if (!isPo(s[i]!)) t++;
  }
  // Locations: a fresh one after each Pod; the stretch that wraps round to the start is the first's.
  const locOf: number[] = [];
  let l = 0;
  for (let i = 0; i < n; i++) {
    locOf.push(l);
    if (s[i]!.kind === 'Pod') l++;
  }
  // Without a Pod at the end, the last stretch runs on into the first.
  if (s[n - 1]!.kind !== 'Pod') for (let i = n - 1; i >= 0 && locOf[i] === l; i--) locOf[i] = 0;
  return { threadOf, locOf, threads: t, locs: s.filter((e) => e.kind === 'Pod').length };
}

const LOC_NAMES = ['x', 'y', 'z', 'w', 'u', 'v', 'a', 'b'];

/**
 * The values of the intended execution: each write's value (1, 2 in cycle order within its location's
 * stretch) and each read's (the last write before it in the stretch, 0 if none).
 */
function values(s: Skeleton, locOf: number[]): number[] {
  const n = s.length;
  // A stretch starts at an event whose incoming edge is a Pod.
  const start = s.findIndex((_, i) => s[(i + n - 1) % n]!.kind === 'Pod');
  const val: number[] = new Array(n).fill(0);
  const last: number[] = [];
  const count: number[] = [];
  for (let k = 0; k < n; k++) {
    const i = (start + k) % n;
    const l = locOf[i]!;
    if (s[(i + n - 1) % n]!.kind === 'Pod') {
      last[l] = 0;
      count[l] = 0;
    }
    if (s[i]!.src === 'W') {
      count[l] = (count[l] ?? 0) + 1;
      last[l] = count[l]!;
      val[i] = count[l]!;
    } else val[i] = last[l] ?? 0;
  }
  return val;
}

/** The test of an annotated cycle; `rot` is the skeleton's rotation it is listed from. */
function build(a: Annotated, rot: number, lang: GenOptions['lang']): Generated {
  const s = rotate(a.s, rot);
  const access = rotate(a.access, rot);
  const fences = rotate(a.fence, rot);
  const base = structure(a.s);
  const { threadOf } = structure(s);
  // Thread t of the rotation is thread (t + shift) of the annotation.
  const shift = base.threadOf[rot]!;
  const nThreads = base.threads;
  const origThread = (t: number) => (t + shift) % nThreads;
  // Locations renamed by first use in the rotated listing; spaces follow them.
  const baseLoc = rotate(base.locOf, rot);
  const rename: number[] = [];
  let next = 0;
  for (const l of baseLoc) if (rename[l] === undefined) rename[l] = next++;
  const locOf = baseLoc.map((l) => rename[l]!);
  const space: SpaceKind[] = [];
  a.space.forEach((sp, l) => {
    space[rename[l]!] = sp;
  });
  const val = values(s, locOf);
  // Placement: workgroups and agents renumbered in first-occurrence order of the rotated threads.
  const wgOf = Array.from({ length: nThreads }, (_, t) => a.layout.wg[origThread(t)]!);
  const wgRen: number[] = [];
  let w = 0;
  for (const g of wgOf) if (wgRen[g] === undefined) wgRen[g] = w++;
  const agRen: number[] = [];
  let ag = 0;
  const agentOf = wgOf.map((g) => {
    const x = a.layout.agentOfWg[g]!;
    if (agRen[x] === undefined) agRen[x] = ag++;
    return agRen[x]!;
  });
  const layout: Layout = { wg: wgOf.map((g) => wgRen[g]!), agentOfWg: [] };
  wgOf.forEach((g, t) => {
    layout.agentOfWg[wgRen[g]!] = agentOf[t]!;
  });
  const wave: number[] = [];
  const placements: Placement[] = layout.wg.map((g, t) => {
    wave[g] = (wave[g] ?? -1) + 1;
    return dev(agentOf[t]!, 0, g, wave[g]!);
  });

  const bodies: Instr[][] = Array.from({ length: nThreads }, () => []);
  const conds = [];
  const tokens: string[][] = Array.from({ length: nThreads }, () => []);
  const scoped: boolean[] = Array.from({ length: nThreads }, () => false);
  let r = 0;
  const ptrSpace = (l: number) =>
    space[l] === 'local'
      ? 'local'
      : space[l] === 'generic' || space[l] === 'generic-local'
        ? 'generic'
        : 'global';
  for (let i = 0; i < s.length; i++) {
    const t = threadOf[i]!;
    const scope = a.scope[origThread(t)]!;
    const opts = { scope, space: ptrSpace(locOf[i]!) } as const;
    const loc = LOC_NAMES[locOf[i]!]!;
    const { order: ord, xchg } = access[i]!;
    if (ord !== 'na') scoped[t] = true;
    tokens[t]!.push(xchg ? `X${ord}` : ord);
    if (ord === 'av') {
      // The av intrinsics: a store-available, a load-visible at the thread's scope.
      if (s[i]!.src === 'W') bodies[t]!.push(avst(loc, val[i]!, scope));
      else {
        const name = `r${r++}`;
        bodies[t]!.push(avld(name, loc, scope));
        conds.push(eq(reg(`P${t}`, name), val[i]!));
      }
    } else if (xchg) {
      // The exchange reads the write it overwrites: the one before it in the stretch, or the initial value.
      const name = `r${r++}`;
      bodies[t]!.push(rmw(name, 'xchg', loc, val[i]!, ORDERING[ord], opts));
      conds.push(eq(reg(`P${t}`, name), val[i]! - 1));
    } else if (s[i]!.src === 'W') bodies[t]!.push(st(loc, val[i]!, ORDERING[ord], opts));
    else {
      const name = `r${r++}`;
      bodies[t]!.push(ld(name, loc, ORDERING[ord], opts));
      conds.push(eq(reg(`P${t}`, name), val[i]!));
    }
    const f = fences[i];
    if (isPo(s[i]!) && f) {
      // A bare barrier has no scope: only fences make the thread's scope matter.
      if (f.order !== 'bar') scoped[t] = true;
      if (f.order === 'bar' || f.order === 'fbar') {
        if (f.order === 'fbar') bodies[t]!.push(fence('release', { scope }));
        bodies[t]!.push(sbarrier());
        if (f.order === 'fbar') bodies[t]!.push(fence('acquire', { scope }));
      } else
        bodies[t]!.push(
          fence(FENCE_ORDERING[f.order as Exclude<FenceOrder, 'none' | 'bar' | 'fbar'>], {
            scope,
            ...(f.syncAs ? { syncAs: [f.syncAs] } : {}),
          }),
        );
      tokens[t]!.push(`${FENCE_NAME[f.order as Exclude<FenceOrder, 'none'>]}${f.syncAs ? f.syncAs[0] : ''}`);
    }
  }
  // A location with two writes ends with the second: that pins their coherence order.
  const nLocs = Math.max(...locOf) + 1;
  for (let l = 0; l < nLocs; l++) {
    const ws = s.map((e, i) => (e.src === 'W' && locOf[i] === l ? val[i]! : 0)).filter((v) => v > 0);
    if (ws.length === 2) conds.push(eq(mem(LOC_NAMES[l]!), 2));
  }
  const threadTokens = tokens.map(
    (ts, t) => `${ts.join('-')}${scoped[t] ? `.${SCOPE_NAME[a.scope[origThread(t)]!]}` : ''}`,
  );
  const spaces = space.every((x) => x === 'global') ? '' : `+${space.map((x) => SPACE_LETTER[x]).join('')}`;
  const name = `${familyName(s)}+${threadTokens.join('+')}+${layoutCode(layout)}${spaces}`;
  const test = makeTest({
    name,
    locs: Object.fromEntries(
      space.map((sp, l) => [LOC_NAMES[l]!, isLds(sp) ? { init: 0, space: 'local' as const } : 0]),
    ),
    threads: bodies.map((b, t) => thread(`P${t}`, placements[t]!, b)),
    cond: cond('exists', and(...conds)),
  });
  test.description = `${s.map(edgeName).join(' ')} (gpumm gen${lang === 'vulkan' ? ', lang=vulkan' : ''})`;
  test.file = `${name}.litmus`;
  return { name, text: print(test), test };
}

/**
 * Whether an annotation makes a test: the av intrinsics take global pointers only, and the waves of
 * one workgroup meet at its barrier as often as each other (a wave left waiting is undefined
 * behaviour, seeds/001 — not the cycle the test asks about).
 */
function valid(a: Annotated, st: ReturnType<typeof structure>): boolean {
  if (a.access.some((x, i) => x.order === 'av' && a.space[st.locOf[i]!] !== 'global')) return false;
  const bars = Array.from({ length: st.threads }, () => 0);
  a.fence.forEach((f, i) => {
    if (f && (f.order === 'bar' || f.order === 'fbar')) bars[st.threadOf[i]!]!++;
  });
  return a.layout.wg.every((g, t) => a.layout.wg.every((h, u) => g !== h || bars[t] === bars[u]));
}

/** The text that says what a test is, up to its name: equal for tests equal up to renaming. */
const bodyText = (g: Generated): string => g.text.slice(g.text.indexOf('\n', g.text.indexOf('\n') + 1));

/**
 * Every annotation of skeleton `s` (mixed-radix over the choices), each test once: an annotation equal
 * to an earlier one under a symmetry of the skeleton, or one whose choices make no difference (a
 * scope on a thread with nothing scoped), gives the same text and is skipped.
 */
function* annotate(s: Skeleton, o: GenOptions, seen: Set<string>): Generator<Generated> {
  const st = structure(s);
  const rots = canonicalRotations(s);
  const evAccesses = s.map((e) => accessesOf(o, e.src));
  const edgeFences = s.map((e) =>
    isPo(e) ? fencesOf(o, e).map((f) => (f.order === 'none' ? null : f)) : [null],
  );
  const lays = layouts(o, st.threads);
  // LDS is shared within a workgroup only: a local location needs its threads in one workgroup.
  const spaceChoices = (l: Layout) =>
    l.wg.every((g) => g === 0) ? o.spaces : o.spaces.filter((x) => !isLds(x));
  if (evAccesses.some((x) => x.length === 0) || edgeFences.some((x) => x.length === 0)) return;
  for (const layout of lays) {
    const sp = spaceChoices(layout);
    if (sp.length === 0) continue;
    const radix = [
      ...evAccesses.map((x) => x.length),
      ...edgeFences.map((x) => x.length),
      ...Array.from({ length: st.threads }, () => o.scopes.length),
      ...Array.from({ length: st.locs }, () => sp.length),
    ];
    const digit = radix.map(() => 0);
    for (;;) {
      let k = 0;
      const a: Annotated = {
        s,
        access: evAccesses.map((x) => x[digit[k++]!]!),
        fence: edgeFences.map((x) => x[digit[k++]!]!),
        scope: Array.from({ length: st.threads }, () => o.scopes[digit[k++]!]!),
        layout,
        space: Array.from({ length: st.locs }, () => sp[digit[k++]!]!),
      };
      const candidates = valid(a, st) ? rots.map((rot) => build(a, rot, o.lang)) : [];
      const best = candidates.reduce<Generated | null>(
        (x, y) => (x === null || bodyText(y) < bodyText(x) ? y : x),
        null,
      );
      const key = best === null ? '' : bodyText(best);
      if (best !== null && !seen.has(key)) {
        seen.add(key);
        yield best;
      }
      let j = 0;
      while (j < radix.length && ++digit[j]! === radix[j]) digit[j++] = 0;
      if (j === radix.length) break;
    }
  }
}

/** Every test of the vocabulary `o`, in a fixed order (by skeleton, then annotation). */
export function* generate(o: GenOptions): Generator<Generated> {
  const seen = new Set<string>();
  for (const s of skeletons(o)) yield* annotate(s, o, seen);
}

/** The tests as a list, stopping (null) past `max` of them. */
export function generateAll(o: GenOptions, max = Number.POSITIVE_INFINITY): Generated[] | null {
  const out: Generated[] = [];
  for (const g of generate(o)) {
    if (out.length >= max) return null;
    out.push(g);
  }
  return out;
}
