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

import { binop, icmp, isUndef, rmwop, wrap } from '../events/program.ts';
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
}

interface Wave {
  pc: number;
  regs: number[];
  /** Bit r set: register r waits for a load not yet performed. */
  pend: number;
  /** Work-group barrier: signals sent, waits passed. */
  sig: number;
  passed: number;
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
  /** 0 absent, 1 clean, 2 dirty. */
  st: number[];
  val: number[];
  mem: number[];
}

/** One step of a run, for traces. */
export interface Step {
  kind: 'issue' | 'perform' | 'evict' | 'writeback' | 'spurious-fail';
  thread: string;
  text: string;
  detail: string;
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
  /** Per thread: the threads of its work-group (barrier members). */
  wgMembers: number[][];
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
      const unit = lv.unit === 'cu' ? `cu${h.cu}` : lv.unit === 'sa' ? `a${h.agent}.sa${h.sa}` : `a${h.agent}`;
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
  const wgMembers = program.threads.map((th) =>
    program.threads.flatMap((u, k) => (u.wg === th.wg ? [k] : [])),
  );
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
    wgMembers,
  };
}

/** The initial state: every wave at its first instruction, caches empty, memory initialised. */
export function initialState(m: Machine): State {
  const n = m.instName.length * m.nLoc;
  return {
    waves: m.program.threads.map((th) => ({
      pc: 0,
      regs: th.regs.map(() => Number.NaN),
      pend: 0,
      sig: 0,
      passed: 0,
    })),
    queues: m.lanes.map(() => []),
    st: new Array<number>(n).fill(0),
    val: new Array<number>(n).fill(0),
    mem: m.program.locs.map((l) => l.init),
  };
}

/** A string that identifies the state (state hashing). */
export function stateKey(s: State): string {
  let k = '';
  for (const w of s.waves) {
    k += `${w.pc},${w.pend},${w.sig},${w.passed},${w.regs.join(',')};`;
  }
  for (const q of s.queues) {
    for (const r of q) k += `${r.t}:${r.i}:${r.a}:${r.e},`;
    k += ';';
  }
  return `${k}#${s.st.join('')}#${s.val.join(',')}#${s.mem.join(',')}`;
}

function cloneWave(w: Wave): Wave {
  return { pc: w.pc, regs: w.regs.slice(), pend: w.pend, sig: w.sig, passed: w.passed };
}

function cloneState(s: State): State {
  return {
    waves: s.waves.map(cloneWave),
    queues: s.queues.map((q) => q.slice()),
    st: s.st.slice(),
    val: s.val.slice(),
    mem: s.mem.slice(),
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
    case 'wait':
      // Spec (all families): s_waitcnt / s_wait_* stall the wave until the counter is zero.
      for (const r of s.queues[m.waveOf[t]!]!) if (hasCounter(m, r, i.counters)) return 'counter';
      return null;
    case 'mem':
      return operandReady(w, i.a) && operandReady(w, i.exp) ? null : 'register';
    case 'bin':
    case 'icmp':
      return operandReady(w, i.a) && operandReady(w, i.b) ? null : 'register';
    case 'select':
      return operandReady(w, i.cond) && operandReady(w, i.a) && operandReady(w, i.b) ? null : 'register';
    case 'copy':
      return (w.pend & (1 << i.src)) === 0 ? null : 'register';
    case 'bwait': {
      // seeds/001: a wave waiting on the work-group barrier continues once every (live) member
      // wave of its work-group has signalled it as often; finished waves no longer count.
      for (const u of m.wgMembers[t]!) {
        const x = s.waves[u]!;
        const done = x.pc >= m.program.threads[u]!.instrs.length;
        if (!done && x.sig <= w.passed) return 'barrier';
      }
      return null;
    }
    default:
      return null;
  }
}

/** Issues the wave's next instruction (which must be unblocked). */
function issue(m: Machine, s: State, t: number): { next: State; step: Step } {
  const next = cloneState(s);
  const w = next.waves[t]!;
  const th = m.program.threads[t]!;
  const i = th.instrs[w.pc]!;
  let detail = '';
  switch (i.k) {
    case 'wait': {
      detail = `${i.counters.join(', ')} drained`;
      break;
    }
    case 'mem':
      next.queues[m.waveOf[t]!]!.push({ t, i: w.pc, a: value(w, i.a), e: value(w, i.exp) });
      if (i.dst >= 0) w.pend |= 1 << i.dst;
      if (i.okDst >= 0) w.pend |= 1 << i.okDst;
      detail = `queued on ${i.counters.join(', ')}`;
      break;
    case 'inv':
    case 'wb':
      next.queues[m.waveOf[t]!]!.push({ t, i: w.pc, a: Number.NaN, e: Number.NaN });
      detail = `queued on ${i.counters.join(', ')}`;
      break;
    case 'signal':
      w.sig++;
      break;
    case 'bwait':
      w.passed++;
      break;
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
      break;
  }
  w.pc++;
  return { next, step: { kind: 'issue', thread: th.name, text: i.text, detail } };
}

type ReqClass = 'vmem' | 'lds' | 'private' | 'inv' | 'wb' | 'none';

function reqClass(i: MInstr): ReqClass {
  if (i.k === 'mem') return i.path;
  if (i.k === 'inv' || i.k === 'wb') return i.k;
  return 'none';
}

/**
 * May request `later` be performed while `earlier` (issued before it by the same wave) is still
 * outstanding?
 */
function mayOvertake(earlier: MInstr, later: MInstr): boolean {
  const e = reqClass(earlier);
  const l = reqClass(later);
  // Same location, same path: one queue (one L2 channel / GL1 quadrant serves an address), in order.
  if (earlier.k === 'mem' && later.k === 'mem' && earlier.loc === later.loc) return false;
  // usage-2018 / gfx12: "All LDS operations of a CU are performed as wavefront wide operations in a
  // global order … Completion is reported to a wavefront in execution order": a wave's LDS
  // operations are performed in order.
  if (e === 'lds' && l === 'lds') return false;
  // gfx12: "The invalidation requests cannot be reordered with pending or upcoming memory
  // operations." (GFX6–9 buffer_wbinvl1_vol is read the same way: its tables put no wait after it.)
  if (e === 'inv' && (l === 'vmem' || l === 'inv' || l === 'wb')) return false;
  if (l === 'inv' && (e === 'vmem' || e === 'wb')) return false;
  // gfx12: global_wb "ensures that previous memory operation … have reached the SCOPE": it is
  // performed after every earlier vector memory operation; later ones may overtake it.
  if (l === 'wb' && (e === 'vmem' || e === 'wb')) return false;
  return true;
}

function instrOf(m: Machine, r: Req): MInstr {
  return m.program.threads[r.t]!.instrs[r.i]!;
}

/** Indices (into wavefront `q`'s request list) of the requests that may be performed now. */
function performable(m: Machine, s: State, q: number): number[] {
  const reqs = s.queues[q]!;
  const out: number[] = [];
  for (let j = 0; j < reqs.length; j++) {
    const later = instrOf(m, reqs[j]!);
    let ok = true;
    for (let e = 0; e < j && ok; e++) if (!mayOvertake(instrOf(m, reqs[e]!), later)) ok = false;
    if (ok) out.push(j);
  }
  return out;
}

/** Writes a dirty line back one level (to memory behind the last level). */
function writeBackOne(m: Machine, s: State, c: number, l: number): string {
  const k = c * m.nLoc + l;
  const v = s.val[k]!;
  const p = m.parent[c]!;
  s.st[k] = 1;
  if (p < 0) {
    s.mem[l] = v;
    return 'memory';
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
 * How many ways a read of `l` at rank `rank` along thread `t`'s path can go: hit the first level of
 * sufficient rank holding a copy, or — the copy having been evicted — skip it and go on (a clean copy
 * only: a dirty one is written back before it can be evicted). Used by the reduction in place of
 * explicit evictions (docs/hardware.md, R1).
 */
function readChoices(m: Machine, s: State, t: number, l: number, rank: number): number {
  const path = m.path[t]!;
  let n = 1;
  for (let k = 0; k < path.length; k++) {
    const st = s.st[path[k]! * m.nLoc + l];
    if (m.cfg.levels[k]!.rank < rank || st === 0) continue;
    if (st === 2) return n;
    n++;
  }
  return n;
}

/**
 * Reads location `l` at rank `rank` along thread `t`'s path: forwarded past levels of smaller rank
 * (a dirty copy there is written back first: a request never overtakes its own cache's data), a
 * hit in the first level of sufficient rank holding a copy (after skipping `skip` clean copies,
 * evicted), else memory; every level passed keeps a clean copy of the value read.
 */
function readAt(m: Machine, s: State, t: number, l: number, rank: number, skip: number, notes: string[]): number {
  const path = m.path[t]!;
  let v = Number.NaN;
  let hit = path.length;
  let skipped = 0;
  for (let k = 0; k < path.length; k++) {
    const c = path[k]!;
    const lv = m.cfg.levels[k]!;
    const idx = c * m.nLoc + l;
    if (lv.rank >= rank && s.st[idx] !== 0) {
      if (s.st[idx] === 1 && skipped < skip) {
        skipped++;
        notes.push(`copy of ${locName(m, l)} in ${m.instName[c]} evicted, miss`);
        s.st[idx] = 0;
        continue;
      }
      v = s.val[idx]!;
      hit = k;
      break;
    }
    if (s.st[idx] === 2)
      notes.push(
        `dirty ${locName(m, l)}=${s.val[idx]} in ${m.instName[c]} written back to ${writeBackOne(m, s, c, l)}`,
      );
  }
  if (hit === path.length) {
    v = s.mem[l]!;
    notes.push(`read ${locName(m, l)}=${v} from memory`);
  } else {
    const c = path[hit]!;
    const stale = s.st[c * m.nLoc + l] === 1 && v !== s.mem[l] && !(isUndef(v) && isUndef(s.mem[l]!));
    notes.push(`hit ${locName(m, l)}=${v} in ${m.instName[c]}${stale ? ` (stale: memory holds ${s.mem[l]})` : ''}`);
  }
  for (let k = 0; k < hit; k++) {
    const idx = path[k]! * m.nLoc + l;
    s.val[idx] = v;
    s.st[idx] = 1;
  }
  return v;
}

/**
 * Writes `v` to location `l` at rank `rank`: performed (dirty) in the first level of sufficient rank
 * that holds written data, else in memory; every level passed keeps a clean copy of `v`.
 */
function writeAt(m: Machine, s: State, t: number, l: number, rank: number, v: number, notes: string[]): void {
  const path = m.path[t]!;
  for (let k = 0; k < path.length; k++) {
    const c = path[k]!;
    const lv = m.cfg.levels[k]!;
    const idx = c * m.nLoc + l;
    if (lv.rank >= rank && !lv.writeThrough) {
      s.val[idx] = v;
      s.st[idx] = 2;
      notes.push(`wrote ${locName(m, l)}=${v} in ${m.instName[c]} (dirty)`);
      return;
    }
    if (s.st[idx] !== 0) {
      s.val[idx] = v;
      s.st[idx] = 1;
    }
  }
  s.mem[l] = v;
  notes.push(`wrote ${locName(m, l)}=${v} to memory`);
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

/**
 * Performs request `j` of wavefront `q`; `skip`: clean copies the read misses (evicted);
 * `spurious`: a weak cmpxchg fails although the values match.
 */
function perform(
  m: Machine,
  s: State,
  q: number,
  j: number,
  skip: number,
  spurious: boolean,
): { next: State; step: Step } {
  const next = cloneState(s);
  const r = next.queues[q]![j]!;
  next.queues[q]!.splice(j, 1);
  const t = r.t;
  const w = next.waves[t]!;
  const th = m.program.threads[t]!;
  const i = th.instrs[r.i]!;
  const notes: string[] = [];
  if (i.k === 'inv') {
    const path = m.path[t]!;
    for (let k = 0; k < path.length; k++) {
      if (m.cfg.levels[k]!.rank >= i.below) continue;
      const c = path[k]!;
      const dropped: string[] = [];
      for (let l = 0; l < m.nLoc; l++) {
        const idx = c * m.nLoc + l;
        if (next.st[idx] === 1) {
          next.st[idx] = 0;
          dropped.push(locName(m, l));
        }
      }
      notes.push(`${m.instName[c]} invalidated${dropped.length ? ` (dropped ${dropped.join(', ')})` : ''}`);
    }
    if (notes.length === 0) notes.push('no cache below its scope');
  } else if (i.k === 'wb') {
    const path = m.path[t]!;
    for (let k = 0; k < path.length; k++) {
      if (m.cfg.levels[k]!.rank >= i.below) continue;
      const c = path[k]!;
      for (let l = 0; l < m.nLoc; l++)
        if (next.st[c * m.nLoc + l] === 2)
          notes.push(
            `${locName(m, l)}=${next.val[c * m.nLoc + l]} written back from ${m.instName[c]} to ${writeBackOne(m, next, c, l)}`,
          );
    }
    if (notes.length === 0) notes.push('nothing dirty below its scope');
  } else if (i.k === 'mem') {
    const l = i.loc;
    const direct = i.path !== 'vmem';
    const where = i.path === 'lds' ? 'LDS' : 'scratch';
    if (i.acc === 'load') {
      let v: number;
      if (direct) {
        v = next.mem[l]!;
        notes.push(`read ${locName(m, l)}=${v} from ${where}`);
      } else v = readAt(m, next, t, l, i.rank, skip, notes);
      w.regs[i.dst] = wrap(v, i.width);
      w.pend &= ~(1 << i.dst);
    } else if (i.acc === 'store') {
      const v = wrap(r.a, i.width);
      if (direct) {
        next.mem[l] = v;
        notes.push(`wrote ${locName(m, l)}=${v} to ${where}`);
      } else writeAt(m, next, t, l, i.rank, v, notes);
    } else {
      const at = direct ? 0 : rmwRank(m, i.rank);
      const old = direct ? next.mem[l]! : readAt(m, next, t, l, at, skip, notes);
      if (direct) notes.push(`read ${locName(m, l)}=${old} from ${where}`);
      let nv: number | null;
      if (i.acc === 'rmw') nv = rmwop(i.rmw!, old, r.a, i.width);
      else {
        const ok = !spurious && !isUndef(old) && old === wrap(r.e, i.width);
        nv = ok ? wrap(r.a, i.width) : null;
        if (i.okDst >= 0) {
          w.regs[i.okDst] = isUndef(old) ? Number.NaN : ok ? 1 : 0;
          w.pend &= ~(1 << i.okDst);
        }
        if (spurious) notes.push('weak cmpxchg fails spuriously');
      }
      if (nv !== null) {
        if (direct) {
          next.mem[l] = nv;
          notes.push(`wrote ${locName(m, l)}=${nv} to ${where}`);
        } else writeAt(m, next, t, l, at, nv, notes);
      }
      if (i.dst >= 0) {
        w.regs[i.dst] = old;
        w.pend &= ~(1 << i.dst);
      }
    }
  }
  return {
    next,
    step: { kind: spurious ? 'spurious-fail' : 'perform', thread: th.name, text: i.text, detail: notes.join('; ') },
  };
}

/** Exploration options. */
export interface ExploreOptions {
  /** Partial-order reduction (docs/hardware.md); false explores every interleaving. */
  reduce: boolean;
  maxStates: number;
  deadline: number;
  /** Polled every few thousand states; true stops the search. */
  interrupted?: () => boolean;
}

/** A final state of the machine: every register of every thread and the value of every location. */
export interface MachineOutcome {
  regs: number[][];
  mem: number[];
}

export type ExploreStop = 'done' | 'max-states' | 'timeout' | 'interrupted';

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
    s.waves.every((w, t) => w.pc >= m.program.threads[t]!.instrs.length) && s.queues.every((q) => q.length === 0)
  );
}

/**
 * May the reduction take this issue step alone? It touches only the thread's own registers and pc
 * (local computation, barrier steps) or — for a thread alone in its wavefront — also its own queue,
 * which no other thread pushes to: such a step commutes with every other step and stays enabled.
 */
function issueAlone(m: Machine, t: number, i: MInstr): boolean {
  if (m.lanes[m.waveOf[t]!] === 1) return true;
  return i.k !== 'mem' && i.k !== 'inv' && i.k !== 'wb' && i.k !== 'wait';
}

/**
 * Successors of `s` (all of them, or a reduced set). `final` when every wave has finished and no
 * request or dirty line is left; `stuck` when some wave can never move again.
 */
export function successors(
  m: Machine,
  s: State,
  reduce: boolean,
): { succ: { next: State; step: Step }[]; final: boolean; stuck: boolean } {
  const succ: { next: State; step: Step }[] = [];
  const n = m.program.threads.length;
  let progress = false;
  for (let t = 0; t < n; t++) {
    if (issueBlock(m, s, t) !== null) continue;
    progress = true;
    const i = m.program.threads[t]!.instrs[s.waves[t]!.pc]!;
    if (reduce && issueAlone(m, t, i)) return { succ: [issue(m, s, t)], final: false, stuck: false };
    succ.push(issue(m, s, t));
  }
  for (let q = 0; q < s.queues.length; q++) {
    for (const j of performable(m, s, q)) {
      progress = true;
      const i = instrOf(m, s.queues[q]![j]!);
      const rr = readRank(m, i);
      const choices = reduce && rr >= 0 ? readChoices(m, s, s.queues[q]![j]!.t, (i as { loc: number }).loc, rr) : 1;
      for (let skip = 0; skip < choices; skip++) {
        succ.push(perform(m, s, q, j, skip, false));
        if (i.k === 'mem' && i.acc === 'cas' && i.weak) succ.push(perform(m, s, q, j, skip, true));
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
        const next = cloneState(s);
        const to = writeBackOne(m, next, c, l);
        succ.push({
          next,
          step: {
            kind: 'writeback',
            thread: '',
            text: `${locName(m, l)} in ${m.instName[c]}`,
            detail: `value ${s.val[idx]} written back to ${to}`,
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
            text: `${locName(m, l)} in ${m.instName[c]}`,
            detail: `clean copy (${s.val[idx]}) evicted`,
          },
        });
      }
    }
  }
  return { succ, final: done && !dirty, stuck: false };
}

/** Visits every reachable state of the machine and collects its final states. */
export function explore(m: Machine, opts: ExploreOptions): Exploration {
  const seen = new Set<string>();
  const s0 = initialState(m);
  const stack: State[] = [s0];
  seen.add(stateKey(s0));
  const outcomes = new Map<string, MachineOutcome>();
  let deadlock = false;
  let stop: ExploreStop = 'done';
  let n = 0;
  while (stack.length > 0) {
    const s = stack.pop()!;
    n++;
    if ((n & 1023) === 0) {
      if (performance.now() > opts.deadline) {
        stop = 'timeout';
        break;
      }
      if (opts.interrupted?.()) {
        stop = 'interrupted';
        break;
      }
    }
    if (seen.size > opts.maxStates) {
      stop = 'max-states';
      break;
    }
    const { succ, final, stuck } = successors(m, s, opts.reduce);
    if (stuck) deadlock = true;
    if (final) {
      const o: MachineOutcome = { regs: s.waves.map((w) => w.regs.slice()), mem: s.mem.slice() };
      outcomes.set(outcomeKey(o), o);
    }
    for (const { next } of succ) {
      const k = stateKey(next);
      if (seen.has(k)) continue;
      seen.add(k);
      stack.push(next);
    }
  }
  return { outcomes, deadlock, states: seen.size, stop };
}

/** A shortest run from the initial state to a final state with outcome key `want` (breadth-first). */
export function traceTo(m: Machine, want: string, opts: ExploreOptions): Step[] | null {
  const s0 = initialState(m);
  const parent = new Map<string, { from: string; step: Step } | null>();
  const k0 = stateKey(s0);
  parent.set(k0, null);
  let frontier: { s: State; k: string }[] = [{ s: s0, k: k0 }];
  while (frontier.length > 0) {
    const nextFrontier: { s: State; k: string }[] = [];
    for (const { s, k } of frontier) {
      if (performance.now() > opts.deadline || parent.size > opts.maxStates) return null;
      const { succ, final } = successors(m, s, opts.reduce);
      if (final) {
        const o: MachineOutcome = { regs: s.waves.map((w) => w.regs.slice()), mem: s.mem.slice() };
        if (outcomeKey(o) === want) {
          const steps: Step[] = [];
          let cur = parent.get(k);
          while (cur) {
            steps.push(cur.step);
            cur = parent.get(cur.from);
          }
          return steps.reverse();
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
