/**
 * The machine core: wavefronts issuing their machine code, requests outstanding on counters until
 * they are performed somewhere in the cache hierarchy, caches holding a copy of each location per
 * instance (absent, clean or dirty), and memory. `explore` visits every reachable state (with state
 * hashing and, by default, the partial-order reduction of docs/hardware.md) and collects the final
 * states; `traceTo` finds a shortest run to one of them.
 *
 * Nondeterminism explored: which outstanding request is performed next, when a clean line is
 * evicted, when a dirty line is written back one level, and (weak cmpxchg) spurious failure.
 * Which L2 channel / GL1 quadrant serves an address is not chosen: different locations are always
 * in different queues (the most reordering any assignment allows), the same location always in one.
 *
 * No Node APIs here.
 */

import { binop, icmp, isUndef, rmwop, wrap } from '../core/values.ts';
import type { Counter } from '../lower/isa.ts';
import type { FamilyConfig } from './config.ts';
import type { Placement } from './placement.ts';
import type { MInstr, MOperand, MProgram } from './program.ts';

/** An outstanding request: a memory instruction, invalidate or write-back issued and not yet performed. */
interface Req {
  /** The thread (lane) that issued it. */
  t: number;
  /** Instruction index in the thread's code. */
  i: number;
  /** Resolved operand (store value, rmw operand, cmpxchg desired). */
  a: number;
  /** Resolved cmpxchg expected value. */
  e: number;
  /** 1 once the access has passed the CU's cache and waits beyond it. */
  f: number;
}

interface Wave {
  pc: number;
  regs: number[];
  /** Bit r set: register r waits for a load not yet performed. */
  pend: number;
  /** Barrier instructions issued (the lanes of a wavefront issue each one together). */
  bn: number;
}

/** A machine state. Cache arrays are indexed `instance * nLoc + loc`. */
export interface State {
  /** Per thread. */
  waves: Wave[];
  /**
   * Per hardware wavefront: its outstanding requests in issue order. Threads of one wavefront are
   * lanes sharing one set of counters and queues (usage-2018: "no special action is required for
   * coherence between the lanes of a single wavefront").
   */
  queues: Req[][];
  /**
   * Per cache instance of level 0 (a CU's cache): the requests that have passed it and are not yet
   * performed, in the order they passed (`thread * 1024 + instruction`). They share the CU's
   * per-channel queues (usage-2018: "Each CU has a separate request queue per channel"), so a
   * request waits for every earlier one to the same location from the same CU.
   */
  passed: number[][];
  /**
   * Per cache instance of level 0, where the family's CU shares one request queue per channel among
   * its waves (`FamilyConfig.cuChannelOrder`): the vector memory accesses issued on the CU and not yet
   * past its cache, in issue order (`thread * 1024 + instruction`).
   */
  front: number[][];
  /** 0 absent, 1 clean, 2 dirty. */
  st: number[];
  val: number[];
  mem: number[];
  /**
   * Barrier state (seeds/001 "Barrier Objects"): per object `[initialised, expected count, arrive
   * count, phases completed]`; per hardware wavefront and object `[phase of its pending arrive or -1,
   * phases its waits have consumed]`; per hardware wavefront the named object it has joined (-1 none,
   * -2 the NULL barrier). Offsets: `Machine.barWave`, `Machine.barJoined`.
   */
  bar: number[];
}

/** One step of a run, for traces. */
export interface Step {
  kind: 'issue' | 'perform' | 'evict' | 'writeback' | 'spurious-fail';
  thread: string;
  text: string;
  detail: string;
  /** The test's source line of the IR instruction this machine instruction implements (0: none). */
  line: number;
  /**
   * The instruction's code was edited — weakened by a mutation, changed in a table file — with what
   * (set by the checker, which knows the reference code; src/check/check.ts `CheckOptions.edited`).
   */
  edited?: string;
}

/** Everything fixed for one program on one placement. */
export interface Machine {
  cfg: FamilyConfig;
  program: MProgram;
  placement: Placement;
  /** Per thread: its cache instance at each level. */
  path: number[][];
  /** Per cache instance: its level and the instance behind it (-1: memory). */
  instLevel: number[];
  parent: number[];
  instName: string[];
  nLoc: number;
  /** Per thread: its hardware wavefront (index into `State.queues`). */
  waveOf: number[];
  /** Per wavefront: how many threads (lanes) it has. */
  lanes: number[];
  /** Per wavefront: its threads (lanes). */
  waveThreads: number[][];
  /** Per thread: another wavefront shares its CU's request queues (`FamilyConfig.cuChannelOrder`). */
  cuShared: boolean[];
  /** Per wavefront: no other wavefront shares its CU's cache (level 0) instance. */
  aloneL0: boolean[];
  /**
   * Per wavefront: a miss's value returns in a step of its own (no `fill-at-read`), where that can be
   * seen — another wave shares the CU's cache, or the wave invalidates it. Otherwise nothing touches
   * the copy between the read and the fill (the wave's own accesses to the location wait for the miss),
   * so returning at once reaches the same final states.
   */
  lateFill: boolean[];
  /** Barrier objects; the offsets of the per-wave parts of `State.bar`. */
  nObj: number;
  barWave: number;
  barJoined: number;
  /** Per wavefront: the workgroup barrier of its work-group, the cluster barrier of its cluster (-1 none). */
  waveWgBar: number[];
  waveClusterBar: number[];
  /** Per wavefront: the wavefronts of its work-group (a cluster barrier is dropped when all have ended). */
  wgWaves: number[][];
  /** Per location: global or constant memory, which the caches hold (LDS and private memory they do not). */
  cached: boolean[];
}

/** Builds the machine of a program on a placement. */
export function buildMachine(cfg: FamilyConfig, program: MProgram, placement: Placement): Machine {
  const names: string[] = [];
  const instLevel: number[] = [];
  const parent: number[] = [];
  const idOf = new Map<string, number>();
  const path = program.threads.map((_, t) => {
    const h = placement.threads[t]!;
    const ids: number[] = [];
    cfg.levels.forEach((lv, k) => {
      const unit =
        lv.unit === 'cu'
          ? `${cfg.labels.cu}${h.cu}`
          : lv.unit === 'sa'
            ? `a${h.agent}.sa${h.sa}`
            : lv.unit === 'l2'
              ? `a${h.agent}.${cfg.labels.l2}${h.l2}`
              : `a${h.agent}`;
      const key = `${lv.name}@${unit}`;
      let id = idOf.get(key);
      if (id === undefined) {
        id = names.push(key) - 1;
        idOf.set(key, id);
        instLevel.push(k);
        parent.push(-1);
      }
      ids.push(id);
    });
    for (let k = 0; k + 1 < ids.length; k++) parent[ids[k]!] = ids[k + 1]!;
    return ids;
  });
  const waveKeys: string[] = [];
  const waveOf = program.threads.map((th) => {
    const k = waveKeys.indexOf(th.wave);
    return k >= 0 ? k : waveKeys.push(th.wave) - 1;
  });
  const lanes = waveKeys.map((_, q) => waveOf.filter((x) => x === q).length);
  const waveThreads = waveKeys.map((_, q) => waveOf.flatMap((x, t) => (x === q ? [t] : [])));
  const nObj = program.barriers.length;
  const firstOf = (q: number) => program.threads[waveThreads[q]![0]!]!;
  const aloneL0 = waveThreads.map((ts) =>
    program.threads.every((_u, u) => ts.includes(u) || path[u]![0] !== path[ts[0]!]![0]),
  );
  const barOf = (key: string) => program.barriers.findIndex((b) => b.key === key);
  return {
    cfg,
    program,
    placement,
    path,
    instLevel,
    parent,
    instName: names,
    nLoc: program.locs.length,
    waveOf,
    lanes,
    waveThreads,
    cuShared: program.threads.map(
      (_, t) =>
        cfg.cuChannelOrder &&
        cfg.levels.length > 0 &&
        program.threads.some((_u, u) => waveOf[u] !== waveOf[t] && path[u]![0] === path[t]![0]),
    ),
    aloneL0,
    lateFill: waveThreads.map(
      (ts, q) =>
        !cfg.order.fillAtRead &&
        cfg.levels.length > 0 &&
        (!aloneL0[q] ||
          ts.some((t) =>
            program.threads[t]!.instrs.some((i) => i.k === 'inv' || (i.k === 'fence' && i.levels.length > 0)),
          )),
    ),
    nObj,
    barWave: 4 * nObj,
    barJoined: 4 * nObj + 2 * waveKeys.length * nObj,
    waveWgBar: waveKeys.map((_, q) => barOf(`wg:${firstOf(q).wg}`)),
    waveClusterBar: waveKeys.map((_, q) => barOf(`cluster:${firstOf(q).cluster}`)),
    wgWaves: waveKeys.map((_, q) =>
      waveKeys.flatMap((__, r) => (firstOf(r).wg === firstOf(q).wg ? [r] : [])),
    ),
    cached: program.locs.map((l) => l.space === 'global' || l.space === 'constant'),
  };
}

/**
 * The initial state: every wave at its first instruction, memory initialised, and every cache holding
 * a clean copy of every global location's initial value — other waves of the kernel may have read them
 * before the test's waves run (a copy may also be absent: it can be evicted at any time). LDS and
 * private memory have no copies.
 */
export function initialState(m: Machine): State {
  const n = m.instName.length * m.nLoc;
  const init = m.program.locs.map((l) => l.init);
  return {
    waves: m.program.threads.map((th) => ({
      pc: 0,
      regs: th.regs.map(() => Number.NaN),
      pend: 0,
      bn: 0,
    })),
    queues: m.lanes.map(() => []),
    passed: m.instName.map(() => []),
    front: m.instName.map(() => []),
    // LDS and private memory are never cached ("involve no caching"): no copy of them anywhere.
    st: Array.from({ length: n }, (_, k) => (m.cached[k % m.nLoc] ? 1 : 0)),
    val: Array.from({ length: n }, (_, k) => init[k % m.nLoc]!),
    mem: m.program.locs.map((l) => l.init),
    bar: [
      ...m.program.barriers.flatMap((b) => (b.expected >= 0 ? [1, b.expected, 0, 0] : [0, 0, 0, 0])),
      ...new Array<number>(m.lanes.length * m.nObj).fill(0).flatMap(() => [-1, 0]),
      ...new Array<number>(m.lanes.length).fill(-1),
    ],
  };
}

let keyBuf = new Uint16Array(1024);
let keyLen = 0;
const f64 = new Float64Array(1);
const f64u16 = new Uint16Array(f64.buffer);

/** Makes room for `n` code units in the key buffer. */
function grow(n: number): void {
  let size = keyBuf.length;
  while (size < n) size *= 2;
  const b = new Uint16Array(size);
  b.set(keyBuf);
  keyBuf = b;
}

/** Appends one field to the key buffer (see `stateKey`). */
function put(v: number): void {
  if (keyLen + 6 > keyBuf.length) grow(keyLen + 6);
  if (v >= -2 && v < 0xffe0 && (v | 0) === v) keyBuf[keyLen++] = v + 3;
  else if (Number.isNaN(v)) keyBuf[keyLen++] = 1;
  else {
    keyBuf[keyLen++] = 0xfffe;
    f64[0] = v;
    keyBuf[keyLen++] = f64u16[0]!;
    keyBuf[keyLen++] = f64u16[1]!;
    keyBuf[keyLen++] = f64u16[2]!;
    keyBuf[keyLen++] = f64u16[3]!;
  }
}

/** Ends a list in the key buffer. */
function endList(): void {
  put(0);
  keyBuf[keyLen - 1] = 0;
}

/**
 * A string that identifies the state (state hashing): every field as one UTF-16 code unit (small
 * integers, offset by 3), 1 for undef, an escape and the float's four code
 * units otherwise; 0 ends a list.
 */
export function stateKey(s: State): string {
  keyLen = 0;
  for (const w of s.waves) {
    put(w.pc);
    put(w.pend);
    put(w.bn);
    for (const r of w.regs) put(r);
  }
  for (const q of s.queues) {
    for (const r of q) {
      put(r.t);
      put(r.i);
      put(r.a);
      put(r.e);
      put(r.f);
    }
    endList();
  }
  for (const p of s.passed) {
    for (const x of p) put(x);
    endList();
  }
  for (const p of s.front) {
    for (const x of p) put(x);
    endList();
  }
  // The value of an absent copy is never read: it is not part of the state. A present copy with a
  // small integer value is one code unit (state in bits 14–15, value + 3 below); any other, an escape
  // 0xC000 + state and the value as `put` writes it. The cache part has a fixed number of entries, so
  // the key stays unambiguous.
  const st = s.st;
  const val = s.val;
  if (keyLen + 6 * st.length > keyBuf.length) grow(keyLen + 6 * st.length);
  for (let k = 0; k < st.length; k++) {
    const c = st[k]!;
    if (c === 0) keyBuf[keyLen++] = 0;
    else {
      const v = val[k]!;
      if (v >= -2 && v < 0x3ffc && (v | 0) === v) keyBuf[keyLen++] = (c << 14) | (v + 3);
      else {
        keyBuf[keyLen++] = 0xc000 + c;
        put(v);
      }
    }
  }
  for (const x of s.mem) put(x);
  for (const x of s.bar) put(x);
  let k = '';
  for (let i = 0; i < keyLen; i += 4096)
    k += String.fromCharCode.apply(
      null,
      keyBuf.subarray(i, Math.min(keyLen, i + 4096)) as unknown as number[],
    );
  return k;
}

function cloneWave(w: Wave): Wave {
  return { pc: w.pc, regs: w.regs.slice(), pend: w.pend, bn: w.bn };
}

function cloneState(s: State): State {
  return {
    waves: s.waves.map(cloneWave),
    queues: s.queues.map((q) => q.slice()),
    passed: s.passed.map((p) => p.slice()),
    front: s.front.map((p) => p.slice()),
    st: s.st.slice(),
    val: s.val.slice(),
    mem: s.mem.slice(),
    bar: s.bar.slice(),
  };
}

function operandReady(w: Wave, o: MOperand | null): boolean {
  return o === null || o.c || (w.pend & (1 << o.r)) === 0;
}

function value(w: Wave, o: MOperand | null): number {
  if (o === null) return Number.NaN;
  return o.c ? o.v : w.regs[o.r]!;
}

function hasCounter(m: Machine, r: Req, cs: readonly Counter[]): boolean {
  const i = m.program.threads[r.t]!.instrs[r.i]!;
  if (i.k !== 'mem' && i.k !== 'inv' && i.k !== 'wb') return false;
  for (const c of i.counters) if (cs.includes(c)) return true;
  return false;
}

/** Why the wave's next instruction cannot issue, or null when it can. */
function issueBlock(m: Machine, s: State, t: number): string | null {
  const w = s.waves[t]!;
  const th = m.program.threads[t]!;
  const i = th.instrs[w.pc];
  if (!i) return 'done';
  switch (i.k) {
    case 'wait': {
      // Spec (all families): s_waitcnt / s_wait_* stall the wave until the counter is down to its count.
      const q = m.waveOf[t]!;
      const shared = m.lanes[q]! > 1;
      for (let n = 0; n < i.counters.length; n++) {
        const c = i.counters[n]!;
        const want = i.counts[n]!;
        let outstanding = 0;
        for (const r of s.queues[q]!) {
          if (!hasCounter(m, r, [c])) continue;
          if (want === 0) return 'counter';
          outstanding++;
          if (!i.loose && !shared && !i.excused.includes(r.i)) return 'counter';
        }
        if (outstanding > want) return 'counter';
      }
      return null;
    }
    case 'mem':
      return operandReady(w, i.a) && operandReady(w, i.exp) ? null : 'register';
    case 'fence':
      // intel-lsc-fence.md: "Wait until all previous accesses by this thread to this dataport are
      // observable in the scope specified": every earlier request of the wave to the port performed.
      for (const r of s.queues[m.waveOf[t]!]!) if (onPort(instrOf(m, r), i.port)) return 'fence';
      return null;
    case 'bin':
    case 'icmp':
      return operandReady(w, i.a) && operandReady(w, i.b) ? null : 'register';
    case 'select':
      return operandReady(w, i.cond) && operandReady(w, i.a) && operandReady(w, i.b) ? null : 'register';
    case 'copy':
      return (w.pend & (1 << i.src)) === 0 ? null : 'register';
    default:
      return BARRIER_KINDS.includes(i.k) ? barrierBlock(m, s, t, i) : null;
  }
}

/** Issues the wave's next instruction (which must be unblocked). */
function issue(m: Machine, s: State, t: number, notes: boolean): { next: State; step: Step } {
  const next = cloneState(s);
  const w = next.waves[t]!;
  const th = m.program.threads[t]!;
  const i = th.instrs[w.pc]!;
  let detail = '';
  switch (i.k) {
    case 'wait': {
      if (notes) detail = `${i.counters.join(', ')} drained`;
      break;
    }
    case 'mem':
      next.queues[m.waveOf[t]!]!.push({ t, i: w.pc, a: value(w, i.a), e: value(w, i.exp), f: 0 });
      if (m.cfg.cuChannelOrder && i.path === 'vmem' && m.cfg.levels.length > 0)
        next.front[m.path[t]![0]!]!.push(t * 1024 + w.pc);
      if (i.dst >= 0) w.pend |= 1 << i.dst;
      if (i.okDst >= 0) w.pend |= 1 << i.okDst;
      // Intel Xe messages are counted on nothing: a thread waits for them only through a fence.
      if (notes)
        detail =
          i.counters.length > 0
            ? `queued on ${i.counters.join(', ')}`
            : `sent to ${i.path === 'lds' ? 'slm' : 'ugm'}`;
      break;
    case 'inv':
    case 'wb':
      next.queues[m.waveOf[t]!]!.push({ t, i: w.pc, a: Number.NaN, e: Number.NaN, f: 0 });
      if (notes) detail = `queued on ${i.counters.join(', ')}`;
      break;
    case 'fence': {
      const d = fenceAct(m, next, t, i, notes);
      if (notes) detail = d;
      break;
    }
    case 'bin':
      w.regs[i.dst] = binop(i.op, value(w, i.a), value(w, i.b), i.width);
      break;
    case 'icmp':
      w.regs[i.dst] = icmp(i.pred, value(w, i.a), value(w, i.b), i.width);
      break;
    case 'select': {
      const c = value(w, i.cond);
      w.regs[i.dst] = isUndef(c) ? Number.NaN : c !== 0 ? value(w, i.a) : value(w, i.b);
      break;
    }
    case 'copy':
      w.regs[i.dst] = w.regs[i.src]!;
      break;
    default:
      if (BARRIER_KINDS.includes(i.k)) {
        const d = barrierStep(m, next, t, i);
        if (notes) detail = d;
      }
  }
  w.pc++;
  if (w.pc === th.instrs.length) waveEnds(m, next, m.waveOf[t]!);
  return {
    next,
    step: { kind: 'issue', thread: th.name, text: i.text, detail, line: th.lines[s.waves[t]!.pc]! },
  };
}

const BARRIER_KINDS: readonly MInstr['k'][] = ['arrive', 'bwait', 'binit', 'join', 'leave', 'nop'];

const FENCE_DONE = {
  none: 'untouched',
  evict: 'evicted',
  invalidate: 'invalidated',
  clean: 'cleaned',
  discard: 'discarded',
} as const;

/** Is `i` a request to an Intel dataport: `ugm` (global and private memory) or `slm`? */
function onPort(i: MInstr, port: 'ugm' | 'slm'): boolean {
  return i.k === 'mem' && (port === 'slm' ? i.path === 'lds' : i.path !== 'lds');
}

/**
 * An Intel fence's cache operation on the thread's path, inner levels first (a line an evict or clean
 * writes back into a level the fence also acts on goes on outwards). The LSC_FENCE_OP table
 * (intel-lsc-fence.md): evict writes dirty lines back and invalidates every line; invalidate drops clean
 * lines ("Don't evict the dirty lines (they stay in M state)"); clean writes dirty lines back and keeps
 * them; discard drops every line, dirty ones unwritten. Returns the trace detail.
 */
function fenceAct(m: Machine, s: State, t: number, i: MInstr & { k: 'fence' }, notes: boolean): string {
  const out: string[] = [];
  for (const k of i.levels) {
    const c = m.path[t]![k]!;
    const wrote: string[] = [];
    const dropped: string[] = [];
    for (let l = 0; l < m.nLoc; l++) {
      // Only global memory is cached (SLM and private memory have no copies in use).
      if (!m.cached[l]) continue;
      const idx = c * m.nLoc + l;
      if (s.st[idx] === 2 && (i.op === 'evict' || i.op === 'clean')) {
        const v = s.val[idx];
        const to = writeBackOne(m, s, c, l);
        if (notes) wrote.push(`${locName(m, l)}=${v} to ${to}`);
      }
      const st = s.st[idx];
      if (st !== 0 && (i.op === 'evict' || i.op === 'discard' || (i.op === 'invalidate' && st === 1))) {
        s.st[idx] = 0;
        if (notes) dropped.push(`${locName(m, l)}${st === 2 ? ' (dirty)' : ''}`);
      }
    }
    if (notes)
      out.push(
        `${m.instName[c]} ${FENCE_DONE[i.op]}${
          wrote.length > 0 ? `, wrote back ${wrote.join(', ')}` : ''
        }${dropped.length > 0 ? `, dropped ${dropped.join(', ')}` : ''}`,
      );
  }
  if (!notes) return '';
  const waited = `earlier ${i.port} requests performed`;
  return out.length === 0 ? `${waited}; no cache to act on` : `${waited}; ${out.join('; ')}`;
}

/** The named object a wave waits on (`bwait` with `obj` -1): its last join; -2 the NULL barrier, -1 none. */
function joinedOf(m: Machine, s: State, q: number): number {
  return s.bar[m.barJoined + q]!;
}

/**
 * Why a barrier instruction cannot issue yet, or null. The lanes of a wavefront issue it together
 * (seeds/001: "s_barrier instructions are convergent within a wave"): every lane must have reached
 * it. A wait waits until the phase it takes has completed: the phase of the wave's pending arrive on
 * the object, or else the next phase its waits have not consumed (a wave of a cluster that did not
 * arrive itself: "any wave within the workgroup cluster can then wait on this barrier object"). An
 * operation on an object never initialised never issues (seeds/001: "It is undefined behavior to
 * operate on an uninitialized barrier object").
 */
function barrierBlock(m: Machine, s: State, t: number, i: MInstr): string | null {
  const q = m.waveOf[t]!;
  const bn = s.waves[t]!.bn;
  for (const u of m.waveThreads[q]!) {
    const x = s.waves[u]!;
    const j = m.program.threads[u]!.instrs[x.pc];
    if (!j || !BARRIER_KINDS.includes(j.k) || x.bn !== bn) return 'lanes';
  }
  if (i.k === 'arrive' && s.bar[4 * i.obj] === 0) return 'uninitialised';
  if (i.k !== 'bwait') return null;
  const o = i.obj >= 0 ? i.obj : joinedOf(m, s, q);
  if (o === -2 || (o === -1 && i.nullOk)) return null; // the NULL barrier: a no-op
  if (o < 0 || s.bar[4 * o] === 0) return 'barrier';
  const wb = m.barWave + 2 * (q * m.nObj + o);
  const target = s.bar[wb]! >= 0 ? s.bar[wb]! : s.bar[wb + 1]!;
  return s.bar[4 * o + 3]! > target ? null : 'barrier';
}

/** Completes the object's phase when its arrive count has reached its expected count (seeds/001). */
function maybeComplete(s: State, o: number): boolean {
  const arrived = s.bar[4 * o + 2]!;
  if (arrived === 0 || arrived < s.bar[4 * o + 1]!) return false;
  s.bar[4 * o + 2] = 0;
  s.bar[4 * o + 3]!++;
  return true;
}

/** Performs a barrier instruction for every lane of thread `t`'s wavefront; returns the trace detail. */
function barrierStep(m: Machine, s: State, t: number, i: MInstr): string {
  const q = m.waveOf[t]!;
  const lanes = m.waveThreads[q]!;
  // The other lanes pass the instruction with `t` (its own pc is advanced by the caller).
  for (const u of lanes) {
    if (u === t) continue;
    const x = s.waves[u]!;
    x.pc++;
    x.bn++;
  }
  s.waves[t]!.bn++;
  const name = (o: number) => m.program.barriers[o]!.key;
  switch (i.k) {
    case 'arrive': {
      const o = i.obj;
      // seeds/001 arrive: "an additional argument to arrive can also update the expected count of the
      // barrier object before the arrive count is incremented".
      if (i.count !== null) s.bar[4 * o + 1] = i.count;
      const first = s.bar[4 * o + 2] === 0;
      // "The _isfirst variant sets SCC=1 if this wave is the first to signal the barrier".
      if (i.isfirst >= 0) for (const u of lanes) s.waves[u]!.regs[i.isfirst] = first ? 1 : 0;
      s.bar[m.barWave + 2 * (q * m.nObj + o)] = s.bar[4 * o + 3]!;
      s.bar[4 * o + 2]!++;
      // "When an operation causes arrive count to be equal to expected count, the barrier is
      // completed, and the arrive count is reset to zero."
      const done = maybeComplete(s, o);
      return `arrived at ${name(o)}${i.isfirst >= 0 ? ` (first: ${first ? 1 : 0})` : ''}${done ? ', phase completed' : ''}`;
    }
    case 'bwait': {
      const o = i.obj >= 0 ? i.obj : joinedOf(m, s, q);
      if (o < 0) return 'on the NULL barrier: no-op';
      const wb = m.barWave + 2 * (q * m.nObj + o);
      const target = s.bar[wb]! >= 0 ? s.bar[wb]! : s.bar[wb + 1]!;
      s.bar[wb] = -1;
      s.bar[wb + 1] = target + 1;
      return `passed ${name(o)} (phase ${target + 1} completed)`;
    }
    case 'binit':
      // seeds/001 init: "Sets the expected count of the barrier object to k. Resets the arrive count of
      // the barrier object to zero."
      s.bar[4 * i.obj] = 1;
      s.bar[4 * i.obj + 1] = i.count;
      s.bar[4 * i.obj + 2] = 0;
      return `${name(i.obj)} expects ${i.count}`;
    case 'join':
      // "Allow the thread that executes the operation to wait on a barrier object"; joining the NULL
      // barrier "unjoins".
      s.bar[m.barJoined + q] = i.obj >= 0 ? i.obj : -2;
      return i.obj >= 0 ? `joined ${name(i.obj)}` : 'joined the NULL barrier';
    case 'leave': {
      // s_barrier_leave "Drops the named barrier object BO if and only if there is a barrier join J
      // such that J is barrier-joined-before this barrier drop operation."
      const o = joinedOf(m, s, q);
      s.bar[m.barJoined + q] = -1;
      if (o < 0) return 'nothing joined';
      dropBarrier(s, o);
      return `dropped ${name(o)}`;
    }
    default:
      return '';
  }
}

/** seeds/001 drop: "Decrements expected count of the barrier object by one." */
function dropBarrier(s: State, o: number): void {
  s.bar[4 * o + 1]!--;
  maybeComplete(s, o);
}

/**
 * A wavefront whose lanes have all ended drops the workgroup barrier, and the last wavefront of a
 * work-group the cluster barrier (seeds/001 "s_barrier GFX12", drop -1 … -4: "When a thread ends, it
 * automatically drops this barrier object if it had previously joined it").
 */
function waveEnds(m: Machine, s: State, q: number): void {
  const ended = (r: number) =>
    m.waveThreads[r]!.every((u) => s.waves[u]!.pc >= m.program.threads[u]!.instrs.length);
  if (!ended(q)) return;
  const wg = m.waveWgBar[q]!;
  if (wg >= 0) dropBarrier(s, wg);
  const cl = m.waveClusterBar[q]!;
  if (cl >= 0 && m.wgWaves[q]!.every(ended)) dropBarrier(s, cl);
}

/**
 * Whether request `r`, taken at its CU's cache now, would write back a dirty copy there (a load that
 * misses, a store or RMW that goes on past it, a `global_wb`) of a location that a request already
 * past the cache is on its way with: the write-back joins the queue behind that request
 * (`sharedPastL0`), so `r` waits until the earlier request is performed.
 */
function passesDirty(m: Machine, s: State, r: Req, i: MInstr): boolean {
  const c0 = m.path[r.t]![0]!;
  const passed = s.passed[c0]!;
  if (passed.length === 0) return false;
  if (i.k === 'wb') {
    for (const id of passed) {
      const l = locOfId(m, id);
      if (l >= 0 && s.st[c0 * m.nLoc + l] === 2) return true;
    }
    return false;
  }
  if (i.k !== 'mem' || i.path !== 'vmem' || s.st[c0 * m.nLoc + i.loc] !== 2) return false;
  let inFlight = false;
  for (const id of passed) if (locOfId(m, id) === i.loc) inFlight = true;
  if (!inFlight) return false;
  return i.acc === 'load' ? m.cfg.levels[0]!.rank < i.rank : !completesAtFront(m, i);
}

/** The location of the memory access `id` (`thread * 1024 + instruction`), or -1 for another instruction. */
function locOfId(m: Machine, id: number): number {
  const o = m.program.threads[(id / 1024) | 0]!.instrs[id % 1024]!;
  return o.k === 'mem' ? o.loc : -1;
}

function instrOf(m: Machine, r: Req): MInstr {
  return m.program.threads[r.t]!.instrs[r.i]!;
}

/** A vector memory access that returns a value (a load, or a read-modify-write). */
function reads(i: MInstr): boolean {
  return i.k === 'mem' && i.path === 'vmem' && i.acc !== 'store';
}

/** A request that goes through the wave's CU cache (level 0): vector memory, invalidate, write-back. */
function viaCache(i: MInstr): boolean {
  return (i.k === 'mem' && i.path === 'vmem') || i.k === 'inv' || i.k === 'wb';
}

/**
 * Does an invalidate act on a cache level past the CU's cache? On GFX12.5 only such an invalidate (agent
 * or system scope) may be overtaken: LLVM's legalizer waits after `GLOBAL_INV` "as it may get reorded
 * with following load instructions" only when `Scope > SIAtomicScope::CLUSTER`.
 */
function actsPastFront(m: Machine, i: MInstr & { k: 'inv' }): boolean {
  return m.cfg.levels.some((lv, k) => k > 0 && lv.rank >= i.from && lv.rank < i.below);
}

/** Are two requests counted on a common counter (one "type" of GFX10–12's split counters)? */
function sameType(a: MInstr, b: MInstr): boolean {
  if (!('counters' in a) || !('counters' in b)) return false;
  for (const c of a.counters) if (b.counters.includes(c)) return true;
  return false;
}

/**
 * Indices (into wavefront `q`'s request list) of the requests that may take a step now
 * (docs/hardware.md, "Which requests may take a step"):
 * - one location's requests are taken in issue order ("Same-address loads and stores are processed in
 *   program order", GFX125x; one channel / quadrant queue serves an address);
 * - at the CU's cache (level 0) a wave's requests are taken in issue order: all of them, or those of one
 *   counter type where completion is "in-order within a type, but may be out of order between types"
 *   (`RequestOrder.front`); an invalidate holds later requests back but where they may overtake it
 *   (GFX12.5); a write-back holds nothing back (the tables wait for it when they must);
 * - past it, requests wait only for earlier ones to the same location, so accesses to different
 *   locations reorder — usage-2018: "Each CU has a separate request queue per channel" — and a load
 *   that hits the CU's cache may be performed before an earlier one that missed it, unless the loads
 *   read in order (assumption `cu-in-order-reads`);
 * - an invalidate is taken after every earlier request has completed where the text says so (GFX12:
 *   "The invalidation requests cannot be reordered with pending or upcoming memory operations"); a
 *   write-back where it covers the earlier requests (`RequestOrder.wbAfterEarlier`);
 * - LDS requests of a wave are performed in order under assumption `lds-in-order`; scratch requests
 *   per location.
 */
function performable(m: Machine, s: State, q: number): number[] {
  const reqs = s.queues[q]!;
  const out: number[] = [];
  const order = m.cfg.order;
  for (let j = 0; j < reqs.length; j++) {
    const r = reqs[j]!;
    const i = instrOf(m, r);
    let ok = true;
    for (let k = 0; k < j && ok; k++) {
      const e = reqs[k]!;
      const ei = instrOf(m, e);
      if (i.k === 'mem' && ei.k === 'mem') {
        // One location's requests are served by one queue — on Intel Xe one per L3 pipeline, and "The
        // 2 L3$ pipes do not guarentee order of operations between themselves" (atomics.cl).
        if (ei.loc === i.loc && (!order.pipes || ei.coherent === i.coherent)) ok = false;
        // Intel Xe: a thread's atomics, all in the coherent pipeline, are performed in issue order.
        else if (order.pipes && i.coherent && ei.coherent) ok = false;
      }
      if (!ok) break;
      if (order.readsInOrder && reads(i) && reads(ei)) ok = false;
      else if (viaCache(i) && viaCache(ei)) {
        if (
          r.f === 0 &&
          e.f === 0 &&
          ei.k !== 'wb' &&
          !(ei.k === 'inv' && order.invOvertaken && actsPastFront(m, ei)) &&
          (order.front === 'all' || sameType(i, ei))
        )
          ok = false;
        else if ((i.k === 'wb' && order.wbAfterEarlier) || (i.k === 'inv' && m.cfg.invAfterEarlier))
          ok = false;
      } else if (order.ldsInOrder && i.k === 'mem' && i.path === 'lds' && ei.k === 'mem' && ei.path === 'lds')
        ok = false;
    }
    if (ok && r.f === 0 && order.sharedPastL0 && m.cfg.levels.length > 0 && passesDirty(m, s, r, i))
      ok = false;
    if (ok && r.f === 0 && i.k === 'mem' && i.path === 'vmem' && m.cfg.cuChannelOrder) {
      // One request queue per channel for all the CU's waves: an earlier access of another wave of
      // the CU to the same location goes first (cuChannelOrder).
      const list = s.front[m.path[r.t]![0]!]!;
      const me = r.t * 1024 + r.i;
      for (const id of list) {
        if (id === me) break;
        const o = m.program.threads[(id / 1024) | 0]!.instrs[id % 1024]!;
        if (o.k === 'mem' && o.loc === i.loc) {
          ok = false;
          break;
        }
      }
    }
    if (ok && r.f === 1 && order.sharedPastL0) {
      // Shared per-channel queues of the CU: earlier passed requests to the same location go first.
      const list = s.passed[m.path[r.t]![0]!]!;
      const me = r.t * 1024 + r.i;
      for (const id of list) {
        if (id === me) break;
        const o = m.program.threads[(id / 1024) | 0]!.instrs[id % 1024]!;
        if (o.k === 'mem' && i.k === 'mem' && o.loc === i.loc) {
          ok = false;
          break;
        }
      }
    }
    if (ok) out.push(j);
  }
  return out;
}

/**
 * The value `v` of location `l` returns to thread `t`'s CU cache: its copy there is refreshed (clean)
 * unless it holds newer written data.
 */
function fill(m: Machine, s: State, t: number, l: number, v: number, notes: string[] | null): void {
  if (m.cfg.levels.length === 0) return;
  const c = m.path[t]![0]!;
  const idx = c * m.nLoc + l;
  if (s.st[idx] === 2) {
    notes?.push(`returned ${locName(m, l)}=${v} (${m.instName[c]} holds newer data)`);
    return;
  }
  s.val[idx] = v;
  s.st[idx] = 1;
  notes?.push(`returned ${locName(m, l)}=${v}, filled ${m.instName[c]}`);
}

/** Writes a dirty line back one level (to memory behind the last level). */
function writeBackOne(m: Machine, s: State, c: number, l: number): string {
  const k = c * m.nLoc + l;
  const v = s.val[k]!;
  const p = m.parent[c]!;
  s.st[k] = 1;
  if (p < 0) {
    s.mem[l] = v;
    return m.cfg.memoryName;
  }
  s.val[p * m.nLoc + l] = v;
  s.st[p * m.nLoc + l] = 2;
  return m.instName[p]!;
}

function locName(m: Machine, l: number): string {
  const loc = m.program.locs[l]!;
  return loc.owner && loc.space === 'local' ? `@${loc.name}[${loc.owner}]` : `@${loc.name}`;
}

/**
 * How many ways a read of `l` at rank `rank` from level `from` on can go: hit the first level of
 * sufficient rank holding a copy, or — that copy having been evicted — skip it and go on (a clean
 * copy only: a dirty one is written back before it can be evicted). The reduction uses this in place
 * of explicit evictions (docs/hardware.md, R1). `to`: stop before this level.
 */
function readChoices(
  m: Machine,
  s: State,
  t: number,
  l: number,
  rank: number,
  from: number,
  to: number,
): number {
  const path = m.path[t]!;
  let n = 1;
  for (let k = from; k < to; k++) {
    const st = s.st[path[k]! * m.nLoc + l];
    if (m.cfg.levels[k]!.rank < rank || st === 0) continue;
    if (st === 2) return n;
    n++;
  }
  return n;
}

/**
 * Reads location `l` at rank `rank` along thread `t`'s path from level `from` on: forwarded past
 * levels of smaller rank (a dirty copy there is written back first: a request never overtakes its
 * own path's data), a hit in the first level of sufficient rank holding a copy (after skipping
 * `skip` clean copies, evicted), else memory; every level passed keeps a clean copy of the value.
 */
function readAt(
  m: Machine,
  s: State,
  t: number,
  l: number,
  rank: number,
  from: number,
  skip: number,
  notes: string[] | null,
): number {
  const path = m.path[t]!;
  let v = Number.NaN;
  let hit = path.length;
  let skipped = 0;
  for (let k = from; k < path.length; k++) {
    const c = path[k]!;
    const lv = m.cfg.levels[k]!;
    const idx = c * m.nLoc + l;
    if (lv.rank >= rank && s.st[idx] !== 0) {
      if (s.st[idx] === 1 && skipped < skip) {
        skipped++;
        notes?.push(`copy of ${locName(m, l)} in ${m.instName[c]} evicted, miss`);
        s.st[idx] = 0;
        continue;
      }
      v = s.val[idx]!;
      hit = k;
      break;
    }
    if (s.st[idx] === 2) {
      const old = s.val[idx];
      const to = writeBackOne(m, s, c, l);
      notes?.push(`dirty ${locName(m, l)}=${old} in ${m.instName[c]} written back to ${to}`);
    }
  }
  if (hit === path.length) {
    v = s.mem[l]!;
    notes?.push(`read ${locName(m, l)}=${v} from ${m.cfg.memoryName}`);
  } else {
    const c = path[hit]!;
    // Stale: the next written (dirty) copy outwards, or memory, holds another value.
    let below = m.parent[c]!;
    while (below >= 0 && s.st[below * m.nLoc + l] !== 2) below = m.parent[below]!;
    const bv = below >= 0 ? s.val[below * m.nLoc + l]! : s.mem[l]!;
    const stale = s.st[c * m.nLoc + l] === 1 && v !== bv && !(isUndef(v) && isUndef(bv));
    const where = below >= 0 ? m.instName[below] : m.cfg.memoryName;
    notes?.push(
      `hit ${locName(m, l)}=${v} in ${m.instName[c]}${stale ? ` (stale: ${where} holds ${bv})` : ''}`,
    );
  }
  for (let k = from; k < hit; k++) {
    const idx = path[k]! * m.nLoc + l;
    s.val[idx] = v;
    s.st[idx] = 1;
  }
  return v;
}

/**
 * Writes `v` to location `l` at rank `rank` from level `from` on: performed (dirty) in the first
 * level of sufficient rank that holds written data, else in memory; every level passed that holds a
 * copy keeps a clean copy of `v`.
 */
function writeAt(
  m: Machine,
  s: State,
  t: number,
  l: number,
  rank: number,
  from: number,
  v: number,
  notes: string[] | null,
): void {
  const path = m.path[t]!;
  for (let k = from; k < path.length; k++) {
    const c = path[k]!;
    const lv = m.cfg.levels[k]!;
    const idx = c * m.nLoc + l;
    if (lv.rank >= rank && !lv.writeThrough) {
      s.val[idx] = v;
      s.st[idx] = 2;
      notes?.push(`wrote ${locName(m, l)}=${v} in ${m.instName[c]} (dirty)`);
      return;
    }
    // A dirty copy it passes is written back first (its data is never lost), then refreshed.
    if (s.st[idx] === 2) {
      const old = s.val[idx];
      const to = writeBackOne(m, s, c, l);
      notes?.push(`dirty ${locName(m, l)}=${old} in ${m.instName[c]} written back to ${to}`);
    }
    if (s.st[idx] !== 0) {
      s.val[idx] = v;
      s.st[idx] = 1;
    }
  }
  s.mem[l] = v;
  notes?.push(`wrote ${locName(m, l)}=${v} to ${m.cfg.memoryName}`);
}

/** The rank at which a read-modify-write is performed: the first level of sufficient rank that takes writes. */
function rmwRank(m: Machine, rank: number): number {
  for (const lv of m.cfg.levels) if (lv.rank >= rank && !lv.writeThrough) return lv.rank;
  return m.cfg.memoryRank;
}

/** The rank a request reads at (-1: it reads nothing through the caches). */
function readRank(m: Machine, i: MInstr): number {
  if (i.k !== 'mem' || i.path !== 'vmem' || i.acc === 'store') return -1;
  return i.acc === 'load' ? i.rank : rmwRank(m, i.rank);
}

/** Does the access complete in the CU's cache (level 0)? */
function completesAtFront(m: Machine, i: MInstr & { k: 'mem' }): boolean {
  const lv = m.cfg.levels[0];
  if (!lv) return false;
  if (i.acc === 'load') return false; // decided by whether the copy is there (see `frontStep`)
  return rmwRank(m, i.rank) <= lv.rank;
}

/** How many successors a step of request `r` has (lazy evictions, R1). */
function stepChoices(m: Machine, s: State, r: Req, reduce: boolean): number {
  if (!reduce || r.f === 2) return 1;
  const i = instrOf(m, r);
  const rr = readRank(m, i);
  if (rr < 0 || i.k !== 'mem') return 1;
  const n = m.cfg.levels.length;
  if (r.f === 0)
    return completesAtFront(m, i)
      ? readChoices(m, s, r.t, i.loc, rr, 0, n)
      : readChoices(m, s, r.t, i.loc, rr, 0, 1);
  return readChoices(m, s, r.t, i.loc, rr, 1, n);
}

/**
 * One step of request `j` of wavefront `q`: an invalidate or write-back is performed; an access is
 * either performed where it completes, or — at the CU's cache, when it must go further — passes it
 * (a later step performs it beyond). `skip`: clean copies a read misses (evicted); `spurious`: a
 * weak cmpxchg fails although the values match.
 */
function perform(
  m: Machine,
  s: State,
  q: number,
  j: number,
  skip: number,
  cas: CasChoice,
  withNotes: boolean,
): { next: State; step: Step } {
  const spurious = cas === 'spurious';
  const next = cloneState(s);
  const r = next.queues[q]![j]!;
  const t = r.t;
  const w = next.waves[t]!;
  const th = m.program.threads[t]!;
  const i = th.instrs[r.i]!;
  const notes: string[] | null = withNotes ? [] : null;
  let passed = false;
  /** A miss's value still on its way back (no fill-at-read), or null. */
  let inflight: number | null = null;
  if (i.k === 'inv') {
    const path = m.path[t]!;
    for (let k = 0; k < path.length; k++) {
      if (m.cfg.levels[k]!.rank >= i.below || m.cfg.levels[k]!.rank < i.from) continue;
      const c = path[k]!;
      const dropped: string[] = [];
      for (let l = 0; l < m.nLoc; l++) {
        const idx = c * m.nLoc + l;
        if (next.st[idx] === 1) {
          next.st[idx] = 0;
          dropped.push(locName(m, l));
        }
      }
      notes?.push(`${m.instName[c]} invalidated${dropped.length ? ` (dropped ${dropped.join(', ')})` : ''}`);
    }
    if (notes?.length === 0) notes.push('no cache below its scope');
  } else if (i.k === 'wb') {
    const path = m.path[t]!;
    for (let k = 0; k < path.length; k++) {
      if (m.cfg.levels[k]!.rank >= i.below || m.cfg.levels[k]!.rank < i.from) continue;
      const c = path[k]!;
      for (let l = 0; l < m.nLoc; l++)
        if (next.st[c * m.nLoc + l] === 2) {
          const v = next.val[c * m.nLoc + l];
          const to = writeBackOne(m, next, c, l);
          notes?.push(`${locName(m, l)}=${v} written back from ${m.instName[c]} to ${to}`);
        }
    }
    if (notes?.length === 0) notes.push('nothing dirty below its scope');
  } else if (i.k === 'mem') {
    const l = i.loc;
    const where = i.path === 'lds' ? m.cfg.labels.lds : 'scratch';
    const n = m.cfg.levels.length;
    const c0 = n > 0 ? m.path[t]![0]! * m.nLoc + l : -1;
    if (i.path !== 'vmem') {
      // LDS and scratch: no caching (usage-2018: LDS operations "involve no caching").
      const old = next.mem[l]!;
      if (i.acc === 'load') {
        notes?.push(`read ${locName(m, l)}=${old} from ${where}`);
        w.regs[i.dst] = wrap(old, i.width);
        w.pend &= ~(1 << i.dst);
      } else if (i.acc === 'store') {
        next.mem[l] = wrap(r.a, i.width);
        notes?.push(`wrote ${locName(m, l)}=${next.mem[l]} to ${where}`);
      } else
        finishRmw(i, r, w, old, cas, notes, (nv) => {
          next.mem[l] = nv;
          notes?.push(`wrote ${locName(m, l)}=${nv} to ${where}`);
        });
    } else if (r.f === 0 && n > 0) {
      // At the CU's cache.
      const lv = m.cfg.levels[0]!;
      // Intel Xe: an atomic leaves a dirty copy of its location in the L1 to be written back down the L3's
      // other pipeline, which keeps no order with the atomic's (atomics.cl: "The 2 L3$ pipes do not
      // guarentee order of operations between themselves"): the write-back is a step of its own.
      const bypass = m.cfg.order.pipes && i.coherent && next.st[c0] === 2;
      if (bypass)
        notes?.push(`left the dirty ${locName(m, l)}=${next.val[c0]} in ${m.instName[m.path[t]![0]!]}`);
      if (i.acc === 'load') {
        const hit = lv.rank >= i.rank && next.st[c0] !== 0 && !(next.st[c0] === 1 && skip > 0);
        if (hit) {
          const v = readAt(m, next, t, l, i.rank, 0, 0, notes);
          w.regs[i.dst] = wrap(v, i.width);
          w.pend &= ~(1 << i.dst);
        } else {
          if (next.st[c0] === 1 && skip > 0) {
            next.st[c0] = 0;
            notes?.push(`copy of ${locName(m, l)} in ${m.instName[m.path[t]![0]!]} evicted, miss`);
          } else if (next.st[c0] === 2 && !bypass) {
            const old = next.val[c0];
            const to = writeBackOne(m, next, m.path[t]![0]!, l);
            notes?.push(
              `dirty ${locName(m, l)}=${old} in ${m.instName[m.path[t]![0]!]} written back to ${to}`,
            );
          }
          passed = true;
        }
      } else if (completesAtFront(m, i)) {
        if (i.acc === 'store') writeAt(m, next, t, l, i.rank, 0, wrap(r.a, i.width), notes);
        else {
          const at = rmwRank(m, i.rank);
          const old = readAt(m, next, t, l, at, 0, skip, notes);
          finishRmw(i, r, w, old, cas, notes, (nv) => writeAt(m, next, t, l, at, 0, nv, notes));
        }
      } else {
        if (bypass) {
          // The dirty copy stays as it is.
        } else {
          // A dirty copy is written back before the access goes on (its data is never lost); a store
          // refreshes the clean copy it passes.
          if (next.st[c0] === 2) {
            const old = next.val[c0];
            const to = writeBackOne(m, next, m.path[t]![0]!, l);
            notes?.push(
              `dirty ${locName(m, l)}=${old} in ${m.instName[m.path[t]![0]!]} written back to ${to}`,
            );
          }
          if (i.acc === 'store' && next.st[c0] === 1) next.val[c0] = wrap(r.a, i.width);
        }
        passed = true;
      }
      if (passed) notes?.push(`passed ${m.instName[m.path[t]![0]!]}`);
    } else if (r.f === 2) {
      // The value of a miss returns (no fill-at-read): the CU's copy is refreshed unless it holds newer
      // written data — whatever invalidate came between — and the register takes the value.
      fill(m, next, t, l, r.a, notes);
      w.regs[i.dst] = wrap(r.a, i.width);
      w.pend &= ~(1 << i.dst);
    } else {
      // Beyond the CU's cache: performed in one step where it completes; a load's value returns to the
      // CU's cache and the register in the same step (fill-at-read) or in a later one.
      const from = Math.min(1, n);
      if (i.acc === 'load') {
        const v = readAt(m, next, t, l, i.rank, from, skip, notes);
        if (m.lateFill[q]!) {
          inflight = v;
          notes?.push('returning');
        } else {
          fill(m, next, t, l, v, null);
          w.regs[i.dst] = wrap(v, i.width);
          w.pend &= ~(1 << i.dst);
        }
      } else if (i.acc === 'store') writeAt(m, next, t, l, i.rank, from, wrap(r.a, i.width), notes);
      else {
        const at = rmwRank(m, i.rank);
        const old = readAt(m, next, t, l, at, from, skip, notes);
        finishRmw(i, r, w, old, cas, notes, (nv) => writeAt(m, next, t, l, at, from, nv, notes));
      }
    }
  }
  if (r.f === 0 && i.k === 'mem' && i.path === 'vmem' && m.cfg.cuChannelOrder && m.cfg.levels.length > 0) {
    const list = next.front[m.path[t]![0]!]!;
    list.splice(list.indexOf(t * 1024 + r.i), 1);
  }
  if (passed) {
    next.queues[q]![j] = { ...r, f: 1 };
    next.passed[m.path[t]![0]!]!.push(t * 1024 + r.i);
  } else {
    if (inflight === null) next.queues[q]!.splice(j, 1);
    else next.queues[q]![j] = { ...r, f: 2, a: inflight };
    if (r.f === 1) {
      const list = next.passed[m.path[t]![0]!]!;
      list.splice(list.indexOf(t * 1024 + r.i), 1);
    }
  }
  return {
    next,
    step: {
      kind: spurious && !passed ? 'spurious-fail' : 'perform',
      thread: th.name,
      text: i.text,
      detail: notes?.join('; ') ?? '',
      line: th.lines[r.i]!,
    },
  };
}

/**
 * How a cmpxchg decides: by comparing; failing spuriously (weak); or, when the value read is undef
 * (never written), taken as equal to the expected value.
 */
type CasChoice = 'normal' | 'spurious' | 'undef-matches';

/** The value a read-modify-write writes (null: a failed cmpxchg writes nothing) and its registers. */
function finishRmw(
  i: MInstr & { k: 'mem' },
  r: Req,
  w: Wave,
  old: number,
  cas: CasChoice,
  notes: string[] | null,
  write: (nv: number) => void,
): void {
  let nv: number | null;
  if (i.acc === 'rmw') nv = rmwop(i.rmw!, old, r.a, i.width);
  else {
    // Memory no write reached holds some value the machine does not know (undef): the compare may
    // go either way, so both outcomes are explored (an abstraction that only adds behaviours).
    const ok = cas !== 'spurious' && (isUndef(old) ? cas === 'undef-matches' : old === wrap(r.e, i.width));
    nv = ok ? wrap(r.a, i.width) : null;
    if (i.okDst >= 0) {
      w.regs[i.okDst] = ok ? 1 : 0;
      w.pend &= ~(1 << i.okDst);
    }
    if (cas === 'spurious') notes?.push('weak cmpxchg fails spuriously');
    if (isUndef(old)) notes?.push(`compares an unwritten value: ${ok ? 'equal' : 'not equal'}`);
  }
  if (nv !== null) write(nv);
  if (i.unreturned) notes?.push('returns nothing to its register (no return bit)');
  if (i.dst >= 0) {
    w.regs[i.dst] = old;
    w.pend &= ~(1 << i.dst);
  }
}

/** Exploration options. */
export interface ExploreOptions {
  /** Partial-order reduction (docs/hardware.md); false explores every interleaving. */
  reduce: boolean;
  maxStates: number;
  deadline: number;
  /** Polled every few thousand states; true stops the search. */
  interrupted?: () => boolean;
  /**
   * A final state the caller is looking for: the search stops at the first one (`found`). A check that
   * only needs to know whether some outcome is forbidden asks for that.
   */
  seek?: (o: MachineOutcome) => boolean;
}

/** A final state of the machine: every register of every thread and the value of every location. */
export interface MachineOutcome {
  regs: number[][];
  mem: number[];
}

/** Why an exploration ended: all of it, a budget, an interrupt, or the outcome sought (`seek`) found. */
export type ExploreStop = 'done' | 'max-states' | 'timeout' | 'interrupted' | 'found';

export interface Exploration {
  outcomes: Map<string, MachineOutcome>;
  /** Some run ends with waves blocked forever (a barrier never completed). */
  deadlock: boolean;
  states: number;
  stop: ExploreStop;
}

/** Key of an outcome (registers, then memory). */
export function outcomeKey(o: MachineOutcome): string {
  return `${o.regs.map((r) => r.join(',')).join('|')}#${o.mem.join(',')}`;
}

function allIssued(m: Machine, s: State): boolean {
  return (
    s.waves.every((w, t) => w.pc >= m.program.threads[t]!.instrs.length) &&
    s.queues.every((q) => q.length === 0)
  );
}

/**
 * May the reduction take this issue step alone? It touches only the thread's own registers and pc
 * (local computation, barrier steps) or — for a thread alone in its wavefront — also its own queue,
 * which no other thread pushes to: such a step commutes with every other step and stays enabled.
 */
function issueAlone(m: Machine, s: State, t: number, i: MInstr): boolean {
  // Barrier modifications (arrive, init, leave) do not commute with each other: their order decides
  // phases and `isfirst`. A last instruction drops barriers (waveEnds): not alone either.
  if (i.k === 'arrive' || i.k === 'binit' || i.k === 'leave') return false;
  if (m.nObj > 0 && s.waves[t]!.pc === m.program.threads[t]!.instrs.length - 1) return false;
  // An access issued on a CU whose waves share per-channel queues takes its place among theirs.
  if (i.k === 'mem' && i.path === 'vmem' && m.cuShared[t]) return false;
  // An Intel fence that acts on caches changes what other threads read.
  if (i.k === 'fence' && i.op !== 'none' && i.levels.length > 0) return false;
  if (m.lanes[m.waveOf[t]!] === 1) return true;
  return i.k !== 'mem' && i.k !== 'inv' && i.k !== 'wb' && i.k !== 'wait' && i.k !== 'fence';
}

/**
 * Successors of `s` (all of them, or a reduced set). `final` when every wave has finished and no
 * request or dirty line is left; `stuck` when some wave can never move again.
 */
export function successors(
  m: Machine,
  s: State,
  reduce: boolean,
  notes = false,
): { succ: { next: State; step: Step }[]; final: boolean; stuck: boolean } {
  const succ: { next: State; step: Step }[] = [];
  const n = m.program.threads.length;
  let progress = false;
  for (let t = 0; t < n; t++) {
    if (issueBlock(m, s, t) !== null) continue;
    progress = true;
    const i = m.program.threads[t]!.instrs[s.waves[t]!.pc]!;
    if (reduce && issueAlone(m, s, t, i))
      return { succ: [issue(m, s, t, notes)], final: false, stuck: false };
    succ.push(issue(m, s, t, notes));
  }
  if (reduce) {
    // R4 (docs/hardware.md): the oldest request of a wave alone on its CU's cache, still at that
    // cache, touches only that cache, the wave's queue and registers: its step (with every choice it
    // has) is taken alone.
    for (let q = 0; q < s.queues.length; q++) {
      const r = s.queues[q]![0];
      if (r === undefined || r.f !== 0 || !m.aloneL0[q]) continue;
      const i = instrOf(m, r);
      if (i.k !== 'mem' || i.path !== 'vmem' || (i.acc !== 'load' && !m.cfg.levels[0]!.writeThrough))
        continue;
      const alone: { next: State; step: Step }[] = [];
      const choices = stepChoices(m, s, r, reduce);
      for (let skip = 0; skip < choices; skip++) {
        alone.push(perform(m, s, q, 0, skip, 'normal', notes));
        if (i.acc === 'cas') {
          if (i.weak) alone.push(perform(m, s, q, 0, skip, 'spurious', notes));
          alone.push(perform(m, s, q, 0, skip, 'undef-matches', notes));
        }
      }
      return { succ: alone, final: false, stuck: false };
    }
  }
  for (let q = 0; q < s.queues.length; q++) {
    for (const j of performable(m, s, q)) {
      progress = true;
      const r = s.queues[q]![j]!;
      const i = instrOf(m, r);
      const choices = stepChoices(m, s, r, reduce);
      for (let skip = 0; skip < choices; skip++) {
        succ.push(perform(m, s, q, j, skip, 'normal', notes));
        if (i.k === 'mem' && i.acc === 'cas') {
          if (i.weak) succ.push(perform(m, s, q, j, skip, 'spurious', notes));
          // Only differs from 'normal' when the value read is undef (finishRmw); duplicates hash away.
          succ.push(perform(m, s, q, j, skip, 'undef-matches', notes));
        }
      }
    }
  }
  const done = allIssued(m, s);
  if (!progress && !done) return { succ: [], final: false, stuck: true };
  // Cache steps: a dirty copy is written back one level at any time; a clean copy is evicted at
  // any time (the reduction folds evictions into the reads that miss, R1). Once every wave is done
  // evictions change nothing.
  let dirty = false;
  for (let c = 0; c < m.instName.length; c++) {
    for (let l = 0; l < m.nLoc; l++) {
      const idx = c * m.nLoc + l;
      const st = s.st[idx];
      if (st === 2) {
        dirty = true;
        // A write-back is a request of the cache to the next level: where the requests to a location
        // share a queue past the first level (sharedPastL0), it goes behind those already passed.
        if (m.cfg.order.sharedPastL0 && s.passed[c]!.some((id) => locOfId(m, id) === l)) continue;
        const next = cloneState(s);
        const to = writeBackOne(m, next, c, l);
        succ.push({
          next,
          step: {
            kind: 'writeback',
            thread: '',
            line: 0,
            text: notes ? `${locName(m, l)} in ${m.instName[c]}` : '',
            detail: notes ? `value ${s.val[idx]} written back to ${to}` : '',
          },
        });
      } else if (st === 1 && !done && !reduce) {
        const next = cloneState(s);
        next.st[idx] = 0;
        succ.push({
          next,
          step: {
            kind: 'evict',
            thread: '',
            line: 0,
            text: notes ? `${locName(m, l)} in ${m.instName[c]}` : '',
            detail: notes ? `clean copy (${s.val[idx]}) evicted` : '',
          },
        });
      }
    }
  }
  return { succ, final: done && !dirty, stuck: false };
}

/**
 * Visits every reachable state of the machine (depth first, each state once by its key) and collects
 * the final states. Works in slices (`step`) so a caller can stop it between them.
 */
export class Explorer {
  private readonly seen = new Set<string>();
  private readonly stack: State[];
  private readonly outcomes = new Map<string, MachineOutcome>();
  private deadlock = false;
  private stop: ExploreStop | null = null;

  constructor(
    private readonly m: Machine,
    private readonly opts: ExploreOptions,
  ) {
    const s0 = initialState(m);
    this.stack = [s0];
    this.seen.add(stateKey(s0));
  }

  /** Explores up to `n` states; true when the exploration is over (finished or stopped). */
  step(n: number): boolean {
    if (this.stop) return true;
    if (performance.now() > this.opts.deadline) this.stop = 'timeout';
    else if (this.opts.interrupted?.()) this.stop = 'interrupted';
    if (this.stop) return true;
    for (let k = 0; k < n; k++) {
      const s = this.stack.pop();
      if (!s) {
        this.stop = 'done';
        return true;
      }
      if (this.seen.size > this.opts.maxStates) {
        this.stop = 'max-states';
        return true;
      }
      const { succ, final, stuck } = successors(this.m, s, this.opts.reduce);
      if (stuck) this.deadlock = true;
      if (final) {
        const o: MachineOutcome = { regs: s.waves.map((w) => w.regs.slice()), mem: s.mem.slice() };
        this.outcomes.set(outcomeKey(o), o);
        if (this.opts.seek?.(o)) {
          this.stop = 'found';
          return true;
        }
      }
      for (const { next } of succ) {
        const key = stateKey(next);
        if (this.seen.has(key)) continue;
        this.seen.add(key);
        this.stack.push(next);
      }
    }
    return false;
  }

  result(): Exploration {
    return {
      outcomes: this.outcomes,
      deadlock: this.deadlock,
      states: this.seen.size,
      stop: this.stop ?? 'interrupted',
    };
  }
}

/** Explores the whole machine at once. */
export function explore(m: Machine, opts: ExploreOptions): Exploration {
  const e = new Explorer(m, opts);
  while (!e.step(4096));
  return e.result();
}

/** A shortest run from the initial state to a final state with outcome key `want` (breadth-first). */
export function traceTo(m: Machine, want: string, opts: ExploreOptions): Step[] | null {
  return shortestRun(m, want, opts)?.steps ?? null;
}

/**
 * `traceTo` with the machine state before the first step and after each one (`states[k + 1]` is
 * the state after `steps[k]`): what the explorer draws as it steps through a run. The states are
 * found again by replaying the run along its state keys, so the search keeps no more than
 * `traceTo`'s.
 */
export function traceRun(
  m: Machine,
  want: string,
  opts: ExploreOptions,
): { steps: Step[]; states: State[] } | null {
  const run = shortestRun(m, want, opts);
  if (!run) return null;
  const states = [initialState(m)];
  for (let k = 0; k < run.steps.length; k++) {
    const { succ } = successors(m, states[k]!, opts.reduce, true);
    const next = succ.find((x) => stateKey(x.next) === run.keys[k + 1]);
    if (!next) throw new Error('a traced run could not be replayed');
    states.push(next.next);
  }
  return { steps: run.steps, states };
}

/** Breadth-first search for a shortest run to outcome `want`: its steps and the keys of its states. */
function shortestRun(
  m: Machine,
  want: string,
  opts: ExploreOptions,
): { steps: Step[]; keys: string[] } | null {
  const s0 = initialState(m);
  const parent = new Map<string, { from: string; step: Step } | null>();
  const k0 = stateKey(s0);
  parent.set(k0, null);
  let frontier: { s: State; k: string }[] = [{ s: s0, k: k0 }];
  while (frontier.length > 0) {
    const nextFrontier: { s: State; k: string }[] = [];
    for (const { s, k } of frontier) {
      if (performance.now() > opts.deadline || parent.size > opts.maxStates) return null;
      const { succ, final } = successors(m, s, opts.reduce, true);
      if (final) {
        const o: MachineOutcome = { regs: s.waves.map((w) => w.regs.slice()), mem: s.mem.slice() };
        if (outcomeKey(o) === want) {
          const steps: Step[] = [];
          const keys: string[] = [k];
          let cur = parent.get(k);
          while (cur) {
            steps.push(cur.step);
            keys.push(cur.from);
            cur = parent.get(cur.from);
          }
          return { steps: steps.reverse(), keys: keys.reverse() };
        }
      }
      for (const { next, step } of succ) {
        const nk = stateKey(next);
        if (parent.has(nk)) continue;
        parent.set(nk, { from: k, step });
        nextFrontier.push({ s: next, k: nk });
      }
    }
    frontier = nextFrontier;
  }
  return null;
}
