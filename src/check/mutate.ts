/**
 * The mutation matrix: each instruction of each table row a catalogue test uses, removed (a wait, an
 * invalidate, a write-back, a barrier), weakened (a narrower `scope:` or GFX942 `sc` scope, a wait on
 * fewer counters, a weaker Intel fence op), stripped of one cache or hint bit (`glc`, `slc`, `dlc`,
 * `sc0`, `sc1`, `nt`, `th:`), or — a wait — moved one place later, in every place the row is used. A
 * mutant is killed when a test the documented code keeps sound becomes unsound on the machine; every
 * survivor gets one class with its reason (docs/mutation.md): `redundant` (the machine runs the same
 * program), `no-counted-instruction`, `progress-only`, `assumption` (killed once a named assumption is
 * dropped) or `test-missing`. The score is killed / (mutants − redundant − progress-only −
 * no-counted-instruction − undecided). The report also lists the table rows no catalogue test can kill.
 */

import * as z from 'zod';
import { diagnosticLine } from '../core/diagnostics.ts';
import type { Instr, Test } from '../core/types.ts';
import type { Report } from '../enumerate/report.ts';
import { gridBlocks, gridColumns } from '../lower/grid.ts';
import {
  CACHE_SCOPES,
  type Counter,
  formatIsa,
  type InvInstr,
  type IsaInstr,
  lds,
  type ScBits,
  type VmemEncoding,
  type VmemInstr,
  vmem,
  type WbInstr,
} from '../lower/isa.ts';
import type { LscFenceOp, LscScope, XeLeaf } from '../lower/isa-xe.ts';
import { lowerTest } from '../lower/lower.ts';
import type { TableFamily } from '../lower/targets.ts';
import type { LowerCtx } from '../lower/types.ts';
import { isLowered } from '../lower/types.ts';
import { ASSUMPTION_IDS, type AssumptionId, assumption, assumptionsOf } from '../sim/assumptions.ts';
import { type FamilyConfig, familyMachine, type MachineMode } from '../sim/config.ts';
import type { ExploreOptions } from '../sim/machine.ts';
import { compileProgram, type LoweredCode, type MProgram } from '../sim/program.ts';
import { assumptionMatters } from '../sim/simulate.ts';
import { type CheckResult, checkTest, machineMode, modeText } from './check.ts';

/** How a mutation changes the code: remove an instruction, weaken it, clear one of its bits, move a wait. */
export type MutationKind = 'drop' | 'weaken' | 'clear' | 'move';

/** One mutation of one instruction. */
export interface Mutation {
  kind: Exclude<MutationKind, 'move'>;
  /** What the instruction becomes (null: dropped). */
  apply: (i: IsaInstr) => IsaInstr | null;
  text: string;
}

/**
 * What an Intel fence op weakens to: each does less of the LSC_FENCE_OP table's work (evict = write back
 * the dirty lines and invalidate every line; clean only the first, invalidate only the clean lines).
 */
const WEAKER_OP: Record<LscFenceOp, LscFenceOp[]> = {
  evict: ['clean', 'invalidate', 'none'],
  invalidate: ['none'],
  clean: ['none'],
  discard: [],
  flushl3: [],
  none: [],
};

/**
 * The next narrower Intel fence scope. `local` is skipped: it is the Xe-core, which holds a whole
 * work-group (barrier.cl: "Single workgroup executes on one DSS"), so group and local act alike on
 * every machine; `sysacq` is not a widening of `sysrel`.
 */
const NARROWER_SCOPE: Partial<Record<LscScope, LscScope>> = {
  tile: 'group',
  gpu: 'tile',
  gpus: 'gpu',
  sysrel: 'gpus',
};

/** The mutations of an Intel instruction: drop a fence or barrier, weaken a fence's op, narrow its scope. */
function xeMutations(i: IsaInstr): Mutation[] {
  const out: Mutation[] = [];
  if (i.kind === 'lsc_fence' || i.kind === 'xe_barrier')
    out.push({ kind: 'drop', apply: () => null, text: `drop ${formatIsa(i)}` });
  if (i.kind === 'lsc_fence') {
    for (const op of WEAKER_OP[i.op])
      out.push({ kind: 'weaken', apply: () => ({ ...i, op }), text: `${formatIsa(i)} as ${op}` });
    const narrower = NARROWER_SCOPE[i.scope];
    if (narrower !== undefined)
      out.push({
        kind: 'weaken',
        apply: () => ({ ...i, scope: narrower }),
        text: `${formatIsa(i)} at ${narrower}`,
      });
  }
  if (i.kind === 'xe_generic')
    // Each fence of each branch of a generic-pointer dispatch, within its branch.
    i.branches.forEach((b, bi) => {
      b.seq.forEach((leaf, li) => {
        for (const mu of xeMutations(leaf))
          out.push({
            kind: mu.kind,
            text: `${b.spaces.join(', ')} branch: ${mu.text}`,
            apply: (g) => {
              if (g.kind !== 'xe_generic') return g;
              const m = mu.apply(leaf) as XeLeaf | null;
              const seq = b.seq.flatMap((x, k) => (k !== li ? [x] : m ? [m] : []));
              return { ...g, branches: g.branches.map((x, k) => (k === bi ? { ...x, seq } : x)) };
            },
          });
      });
    });
  return out;
}

/**
 * The cache and hint bits of a vector memory instruction (isa.ts `VmemInstr`), each cleared by one
 * mutation. `scope` is narrowed instead (below); `returns` is no bit of the encoding — the family's
 * return bit (`glc`, `sc0`, `th:TH_ATOMIC_RETURN`) encodes it, and the machine reads that bit.
 */
const VMEM_BITS = ['glc', 'slc', 'dlc', 'sc0', 'sc1', 'nt'] as const;

/**
 * The mutations of one instruction: drop what only orders, narrow scopes, clear cache and hint bits,
 * remove one counter of a multi-counter wait.
 */
export function mutationsOf(i: IsaInstr): Mutation[] {
  const out: Mutation[] = xeMutations(i);
  if (i.kind === 'wait' || i.kind === 'inv' || i.kind === 'wb' || i.kind === 'barrier')
    out.push({ kind: 'drop', apply: () => null, text: `drop ${formatIsa(i)}` });
  if (i.kind === 'wait' && i.counters.length > 1)
    for (const c of i.counters)
      out.push({
        kind: 'weaken',
        apply: () => ({ ...i, counters: i.counters.filter((x) => x !== c) }),
        text: `${formatIsa(i)} without ${c}`,
      });
  if ((i.kind === 'inv' || i.kind === 'wb' || i.kind === 'vmem') && i.scope !== null) {
    const k = CACHE_SCOPES.indexOf(i.scope);
    if (k > 0) {
      const narrower = CACHE_SCOPES[k - 1]!;
      out.push({
        kind: 'weaken',
        apply: () => ({ ...i, scope: narrower === 'SCOPE_CU' && i.kind === 'vmem' ? null : narrower }),
        text: `${formatIsa(i)} at ${narrower}`,
      });
    }
  }
  if ((i.kind === 'inv' || i.kind === 'wb') && i.sc !== null && i.sc !== 'sc0') {
    // GFX942 scope bits: system (sc0 sc1) → agent (sc1) → workgroup (sc0).
    const narrower: ScBits = i.sc === 'sc0 sc1' ? 'sc1' : 'sc0';
    out.push({
      kind: 'weaken',
      apply: () => ({ ...i, sc: narrower }),
      text: `${formatIsa(i)} at ${narrower.replace(/sc(\d)/g, 'sc$1=1')}`,
    });
  }
  if (i.kind === 'vmem') {
    for (const bit of VMEM_BITS)
      if (i[bit])
        out.push({
          kind: 'clear',
          apply: () => ({ ...i, [bit]: false }),
          text: `${formatIsa(i)} without ${bit}`,
        });
    if (i.th !== null)
      out.push({
        kind: 'clear',
        apply: () => ({ ...i, th: null }),
        text: `${formatIsa(i)} without th:${i.th}`,
      });
  }
  return out;
}

/** One mutation of a row's sequence: an instruction's (`mutationsOf`) or a wait moved one place later. */
export interface SeqMutation {
  kind: MutationKind;
  /** Index of the instruction mutated (a moved wait: its index before the move). */
  position: number;
  text: string;
  apply: (seq: readonly IsaInstr[]) => IsaInstr[];
}

/**
 * Every mutation of a sequence, instruction by instruction: the instruction's own, then — a wait with
 * an instruction after it — the wait swapped with that instruction (a wait already last moves past
 * nothing).
 */
export function sequenceMutations(seq: readonly IsaInstr[]): SeqMutation[] {
  const out: SeqMutation[] = [];
  seq.forEach((i, p) => {
    for (const m of mutationsOf(i))
      out.push({
        kind: m.kind,
        position: p,
        text: m.text,
        apply: (s) =>
          s.flatMap((x, q) => {
            if (q !== p) return [x];
            const y = m.apply(x);
            return y ? [y] : [];
          }),
      });
    const next = seq[p + 1];
    if (i.kind === 'wait' && next !== undefined)
      out.push({
        kind: 'move',
        position: p,
        text: `move ${formatIsa(i)} after ${formatIsa(next)}`,
        apply: (s) => s.map((x, q) => (q === p ? s[p + 1]! : q === p + 1 ? s[p]! : x)),
      });
  });
  return out;
}

/** The classes of a surviving mutant (docs/mutation.md). */
export const SURVIVOR_CLASSES = [
  'redundant',
  'no-counted-instruction',
  'progress-only',
  'assumption',
  'test-missing',
] as const;
export type SurvivorClass = (typeof SURVIVOR_CLASSES)[number];

export const MutantSchema = z.object({
  row: z.string(),
  /** 1-based index of the mutated instruction in the row's sequence. */
  position: z.number().int(),
  instruction: z.string(),
  mutation: z.string(),
  kind: z.enum(['drop', 'weaken', 'clear', 'move']),
  /** `undecided`: no check killed it and some check stopped at its budget (counted apart from survivors). */
  status: z.enum(['killed', 'survived', 'undecided']),
  killedBy: z.string().nullable(),
  /** The class of a survivor; null otherwise. */
  class: z.enum(SURVIVOR_CLASSES).nullable(),
  /** The assumptions without which a test kills it (class `assumption`). */
  assumptions: z.array(z.string()),
  /** Why a surviving mutant survives (or why an undecided one is undecided). */
  survives: z.string().nullable(),
});

export type Mutant = z.infer<typeof MutantSchema>;

export const ScoreSchema = z.object({
  mutants: z.number().int(),
  killed: z.number().int(),
  undecided: z.number().int(),
  redundant: z.number().int(),
  progressOnly: z.number().int(),
  noCountedInstruction: z.number().int(),
  assumption: z.number().int(),
  testMissing: z.number().int(),
  /** killed / (mutants − redundant − progressOnly − noCountedInstruction − undecided); null when that is 0. */
  value: z.number().nullable(),
});

export type Score = z.infer<typeof ScoreSchema>;

/** A table row with mutants that no catalogue test can kill (docs/mutation.md, "Killing-capable tests"). */
export const RowGapSchema = z.object({
  row: z.string(),
  /** The catalogue tests that use the row (on this target and mode); empty when none does. */
  usedBy: z.array(z.string()),
  why: z.string(),
});

export const MutationReportSchema = z.object({
  target: z.string(),
  mode: z.string(),
  tests: z.number().int(),
  score: ScoreSchema,
  mutants: z.array(MutantSchema),
  /** Rows of the table (used by the catalogue or not) with mutants and no killing-capable test. */
  gaps: z.array(RowGapSchema),
  ms: z.number(),
});

export type MutationReport = z.infer<typeof MutationReportSchema>;

/** A catalogue test with its model report and, per thread and instruction, the row each came from. */
export interface Subject {
  test: Test;
  report: Report;
  code: LoweredCode;
  rows: string[][];
}

/** The row an instruction's code comes from: its first cited row that is not a general rule. */
function mainRow(rows: readonly string[]): string {
  return rows.find((r) => !r.startsWith('rule:')) ?? '';
}

/** The documents' code of a test with the table row of each instruction, or null when it does not lower. */
export function subjectOf(test: Test, report: Report, ctx: LowerCtx): Subject | null {
  const lowered = lowerTest(test, ctx);
  const code: IsaInstr[][][] = [];
  const rows: string[][] = [];
  for (const th of lowered) {
    const seqs: IsaInstr[][] = [];
    const rs: string[] = [];
    for (const li of th.instrs) {
      if (!isLowered(li.result)) return null;
      seqs.push(li.result.seq);
      rs.push(mainRow(li.result.rows));
    }
    code.push(seqs);
    rows.push(rs);
  }
  return { test, report, code, rows };
}

/** The score of a list of mutants (docs/mutation.md, "Score"). */
export function mutationScore(mutants: readonly Pick<Mutant, 'status' | 'class'>[]): Score {
  const n = (f: (m: Pick<Mutant, 'status' | 'class'>) => boolean) => mutants.filter(f).length;
  const cls = (c: SurvivorClass) => n((m) => m.status === 'survived' && m.class === c);
  const s = {
    mutants: mutants.length,
    killed: n((m) => m.status === 'killed'),
    undecided: n((m) => m.status === 'undecided'),
    redundant: cls('redundant'),
    progressOnly: cls('progress-only'),
    noCountedInstruction: cls('no-counted-instruction'),
    assumption: cls('assumption'),
    testMissing: cls('test-missing'),
  };
  const scored = scoredMutants(s);
  return { ...s, value: scored > 0 ? s.killed / scored : null };
}

/** The mutants a score counts: all but the redundant, progress-only, no-counted-instruction and undecided. */
function scoredMutants(s: Omit<Score, 'value'>): number {
  return s.mutants - s.redundant - s.progressOnly - s.noCountedInstruction - s.undecided;
}

// ---------------------------------------------------------------------------------------------------
// What the machine cannot tell apart: the compiled programs, in a canonical form.

const ENCODINGS: readonly VmemEncoding[] = ['buffer', 'global', 'flat', 'scratch'];
/** Every invalidate and write-back mnemonic (a record, so that a new one must be listed). */
const INV_MNEMONICS: Record<InvInstr['mnemonic'], true> = {
  buffer_wbinvl1_vol: true,
  buffer_invl2: true,
  buffer_inv: true,
  buffer_gl0_inv: true,
  buffer_gl1_inv: true,
  global_inv: true,
};
const WB_MNEMONICS: Record<WbInstr['mnemonic'], true> = { global_wb: true, buffer_wbl2: true };
const SCOPES_OR_NONE = [null, ...CACHE_SCOPES];
const SC_OR_NONE: (ScBits | null)[] = [null, 'sc0', 'sc1', 'sc0 sc1'];

/**
 * The counters of `cfg` that no instruction its machine runs is counted on: its known counters less
 * those of every vector memory instruction (each op, encoding, with and without return), LDS
 * instruction, invalidate and write-back (config.ts `counters`, `inv`, `wb`). A wait on one of them
 * never blocks, whatever the test.
 */
export function uncountedCounters(cfg: FamilyConfig): Counter[] {
  const counted = new Set<Counter>();
  for (const op of ['load', 'store', 'atomic'] as const)
    for (const ret of [false, true]) {
      for (const c of cfg.counters(lds(op, ret))) counted.add(c);
      for (const enc of ENCODINGS) {
        const i = vmem(op, enc, { returns: ret, glc: ret, sc0: ret, th: ret ? 'TH_ATOMIC_RETURN' : null });
        for (const c of cfg.counters({ ...i, returns: op === 'atomic' ? cfg.returns(i) : ret }))
          counted.add(c);
      }
    }
  for (const scope of SCOPES_OR_NONE)
    for (const sc of SC_OR_NONE) {
      for (const mnemonic of Object.keys(INV_MNEMONICS) as InvInstr['mnemonic'][])
        for (const c of cfg.inv({ kind: 'inv', mnemonic, scope, sc })?.counters ?? []) counted.add(c);
      for (const mnemonic of Object.keys(WB_MNEMONICS) as WbInstr['mnemonic'][])
        for (const c of cfg.wb({ kind: 'wb', mnemonic, scope, sc })?.counters ?? []) counted.add(c);
    }
  return cfg.knownCounters.filter((c) => !counted.has(c));
}

/**
 * A compiled program with what the machine does not read taken out, so that two programs the
 * machine runs alike compare equal (docs/mutation.md, "Redundant"): instruction texts and citations;
 * `s_mov_b32 m0` (a nop: m0 is read when the program is compiled); counters nothing is counted on
 * (`uncounted`: always zero); the op of an Intel fence that acts on no cache level (the op acts only on
 * `levels`). Adjacent waits to zero of a thread alone in its wavefront become one wait on all their
 * counters: nothing is issued between them and the wave's counters only fall meanwhile, so the pair
 * passes exactly when one wait on both would.
 */
export function canonicalProgram(p: MProgram, uncounted: readonly Counter[]): string {
  const lanes = new Map<string, number>();
  for (const th of p.threads) lanes.set(th.wave, (lanes.get(th.wave) ?? 0) + 1);
  const threads = p.threads.map((th) => {
    const alone = lanes.get(th.wave) === 1;
    const out: Record<string, unknown>[] = [];
    for (const i of th.instrs) {
      if (i.k === 'nop') continue;
      const { text: _text, ...rest } = i;
      const x: Record<string, unknown> = { ...rest };
      delete x.cite;
      if (i.k === 'fence' && i.levels.length === 0) x.op = 'none';
      if (i.k === 'wait') {
        const kept = i.counters.flatMap((c, n) =>
          uncounted.includes(c) ? [] : [[c, i.counts[n]!] as const],
        );
        if (kept.length === 0) continue;
        const zero = kept.every(([, n]) => n === 0);
        const prev = out[out.length - 1];
        if (alone && zero && prev?.k === 'wait' && (prev.counts as number[]).every((n) => n === 0)) {
          const all = [...new Set([...(prev.counters as Counter[]), ...kept.map(([c]) => c)])].sort();
          prev.counters = all;
          prev.counts = all.map(() => 0);
          continue;
        }
        const sorted = zero ? [...kept].sort(([a], [b]) => a.localeCompare(b)) : kept;
        x.counters = sorted.map(([c]) => c);
        x.counts = sorted.map(([, n]) => n);
      }
      out.push(x);
    }
    return { wg: th.wg, cluster: th.cluster, wave: th.wave, regs: th.regs, instrs: out };
  });
  return JSON.stringify({ threads, locs: p.locs, barriers: p.barriers });
}

// ---------------------------------------------------------------------------------------------------
// Killing-capable tests (docs/mutation.md).

/** A register observable's name: `P1:r0`. */
function regLabel(thread: string, reg: string): string {
  return `${thread}:${reg.replace(/^%/, '')}`;
}

/** The location an access reads, or null. */
function readLoc(i: Instr): string | null {
  return i.kind === 'load' || i.kind === 'rmw' || i.kind === 'cmpxchg' || i.kind === 'avload'
    ? i.ptr.loc
    : null;
}

/** The location an access writes, or null. */
function writtenLoc(i: Instr): string | null {
  return i.kind === 'store' || i.kind === 'rmw' || i.kind === 'cmpxchg' || i.kind === 'avstore'
    ? i.ptr.loc
    : null;
}

/** The registers an instruction writes (a cmpxchg's through the `extractvalue`s of its pair). */
function writtenRegs(body: readonly Instr[], i: Instr): string[] {
  if (i.kind === 'cmpxchg')
    return i.dst === null
      ? []
      : body.flatMap((x) => (x.kind === 'extract' && x.src === i.dst ? [x.dst] : []));
  return 'dst' in i && i.dst !== null ? [i.dst] : [];
}

/**
 * The observables fed by instruction `ir` of thread `th`: the registers it writes, and for a location it
 * writes, the location's final value and every register any thread reads from it.
 */
function observablesOf(
  test: Test,
  th: Test['threads'][number],
  ir: Instr,
  labels: readonly string[],
  out: Set<string>,
): void {
  for (const r of writtenRegs(th.body, ir)) out.add(regLabel(th.name, r));
  const loc = writtenLoc(ir);
  if (loc === null) return;
  for (const l of labels) if (l === `@${loc}` || l.endsWith(`:@${loc}`)) out.add(l);
  for (const u of test.threads)
    for (const x of u.body)
      if (readLoc(x) === loc) for (const r of writtenRegs(u.body, x)) out.add(regLabel(u.name, r));
}

/**
 * The observables a row instance — instruction `k` of thread `t` — orders with its waits, invalidates,
 * write-backs, barriers and fences: those fed by the thread's other instructions (`observablesOf`).
 * The row's own access is left out: its ordering instructions order the thread's other accesses.
 */
export function orderedObservables(test: Test, t: number, k: number, labels: readonly string[]): string[] {
  const th = test.threads[t]!;
  const out = new Set<string>();
  th.body.forEach((ir, j) => {
    if (j !== k) observablesOf(test, th, ir, labels, out);
  });
  return labels.filter((l) => out.has(l));
}

/** The observables of a row instance's own access (what its return bit and its scope decide). */
export function accessObservables(test: Test, t: number, k: number, labels: readonly string[]): string[] {
  const th = test.threads[t]!;
  const out = new Set<string>();
  observablesOf(test, th, th.body[k]!, labels, out);
  return labels.filter((l) => out.has(l));
}

type Values = Record<string, number | 'undef'>;

/** Does some model state match `v` (an `undef` on either side matching anything)? */
function allowedByModel(states: readonly { values: Values }[], v: Values): boolean {
  return states.some((s) =>
    Object.entries(v).every(([l, x]) => x === 'undef' || s.values[l] === 'undef' || s.values[l] === x),
  );
}

/** The constant values a test writes to location `loc`, with its initial value. */
function writtenValues(test: Test, loc: string): number[] {
  const out: number[] = [];
  const init = test.locations.find((l) => l.name === loc)?.init;
  if (typeof init === 'number') out.push(init);
  for (const th of test.threads)
    for (const i of th.body) {
      if (writtenLoc(i) !== loc) continue;
      const v =
        i.kind === 'store' || i.kind === 'avstore'
          ? i.value
          : i.kind === 'cmpxchg'
            ? i.desired
            : i.kind === 'rmw' && i.op === 'xchg'
              ? i.value
              : null;
      if (v?.kind === 'const') out.push(v.value);
    }
  return out;
}

/**
 * The values each observable may take: those it has in a model state or in a machine outcome of the
 * documented code, and — for a location's final value or a register read from a location — the
 * location's initial value and every constant the test writes to it (a cmpxchg's success flag: 0, 1).
 */
export function observableValues(
  test: Test,
  report: Report,
  machine: readonly { values: Values }[],
): Map<string, Set<number>> {
  const out = new Map<string, Set<number>>();
  for (const l of report.observables) {
    const dom = new Set<number>();
    for (const s of [...report.states, ...machine]) {
      const x = s.values[l];
      if (typeof x === 'number') dom.add(x);
    }
    const at = l.indexOf('@');
    const colon = l.indexOf(':');
    let loc: string | null = at >= 0 ? l.slice(at + 1) : null;
    if (loc === null) {
      const th = test.threads.find((t) => t.name === l.slice(0, colon));
      const reg = l.slice(colon + 1);
      const w = th?.body.find((i) => writtenRegs(th.body, i).some((r) => r.replace(/^%/, '') === reg));
      const ex = th?.body.find((i) => i.kind === 'extract' && i.dst.replace(/^%/, '') === reg);
      if (ex?.kind === 'extract' && ex.index === 1) for (const v of [0, 1]) dom.add(v);
      else if (w) loc = readLoc(w);
    }
    if (loc !== null) for (const v of writtenValues(test, loc)) dom.add(v);
    out.set(l, dom);
  }
  return out;
}

/**
 * Is a test killing-capable for a row instance whose ordered observables are `ordered`? When some
 * model state with a defined value at an ordered observable becomes an outcome the model forbids once
 * that one value is changed to another the observable may take (`observableValues`): a mutant of the
 * row can then be caught giving it that value.
 */
export function killingCapable(
  report: Report,
  values: ReadonlyMap<string, ReadonlySet<number>>,
  ordered: readonly string[],
): boolean {
  if (report.flags.ub) return false;
  for (const o of ordered)
    for (const s of report.states) {
      const x = s.values[o];
      if (typeof x !== 'number') continue;
      for (const d of values.get(o) ?? [])
        if (d !== x && !allowedByModel(report.states, { ...s.values, [o]: d })) return true;
    }
  return false;
}

// ---------------------------------------------------------------------------------------------------
// The matrix.

/** One mutation of one row position, with the sound tests whose code has it. */
interface Site {
  row: string;
  position: number;
  instr: IsaInstr;
  text: string;
  kind: MutationKind;
  /** Order among the mutations of its position. */
  order: number;
  users: Subject[];
  /** Every place it applies is the one access of an atomic load or store (or av) row: the flag access. */
  flagAccess: boolean;
}

/** Per row of the target's table: its sequences and who uses it. */
interface RowUse {
  seqs: Map<string, readonly IsaInstr[]>;
  users: Set<string>;
  sound: Set<string>;
  /** The sound tests killing-capable for the row, for mutants of each target (`mutantTarget`). */
  capable: Record<MutantTarget, Set<string>>;
}

/**
 * What a mutant changes: the row's ordering instructions (waits, invalidates, write-backs, barriers,
 * Intel fences) or the atomic RMW access itself (its return bit, its scope); null for what no test
 * needs to kill (a load's or store's own bits: progress only or a plain access's hint; a wait's
 * counters nothing is counted on).
 */
export type MutantTarget = 'ordering' | 'access';

/** Is `ir` an atomic load or store, or an av intrinsic — an access whose own bits decide where it goes? */
function isFlagAccess(ir: Instr): boolean {
  if (ir.kind === 'avload' || ir.kind === 'avstore') return true;
  return (
    (ir.kind === 'load' || ir.kind === 'store') && ir.ordering !== 'notatomic' && ir.ordering !== 'unordered'
  );
}

/** `code` with the mutation `text` at `position` applied to every sequence of `row`. */
function mutantCode(s: Subject, row: string, position: number, text: string): LoweredCode {
  return s.code.map((th, t) =>
    th.map((seq, k) => {
      if (s.rows[t]![k] !== row) return seq;
      const m = sequenceMutations(seq).find((x) => x.position === position && x.text === text);
      return m ? m.apply(seq) : seq;
    }),
  );
}

/** The machine's family, generation, mode and every configuration it explores (with and without assumptions). */
function machineConfigs(ctx: LowerCtx): FamilyConfig[] {
  const p = ctx.target.processor;
  const mode = machineMode(ctx);
  const all = familyMachine(p.table as TableFamily, p.generation)?.configs(mode) ?? [];
  const weak = familyMachine(p.table as TableFamily, p.generation, { assume: [] })?.configs(mode) ?? [];
  return [...all, ...weak];
}

/**
 * How far a survivor is checked again without each assumption (docs/mutation.md, "Assumption"): on the
 * first `tests` of the tests using its row (those killing-capable for the row first, then the smallest),
 * each within `states` states per placement — the weaker machine of a large test can have millions,
 * and a check that stops there is no evidence either way.
 */
export const ASSUMPTION_PASS = { tests: 4, states: 25_000 };

/** The assumptions about one wave's requests (assumptions.ts): they act where a wave's code changed. */
const PER_WAVE: readonly AssumptionId[] = ['cu-in-order-reads', 'cu-in-order-types', 'lds-in-order'];

/** Lists at most four names, then how many more. */
function someNames(names: readonly string[]): string {
  return names.length > 4 ? `${names.slice(0, 4).join(', ')} and ${names.length - 4} more` : names.join(', ');
}

/** A check of a subject's code: with every assumption, or without `drop` within `cap` states per placement. */
type Check = (s: Subject, code: LoweredCode, drop?: AssumptionId, cap?: number) => Promise<CheckResult>;

/**
 * Every row the subjects use (for the listing of rows no test can kill) and every mutation site of the
 * sound ones, with the tests killing-capable for each row.
 */
function collectSites(
  subjects: readonly Subject[],
  results: ReadonlyMap<Subject, CheckResult>,
): { rowUse: Map<string, RowUse>; sites: Site[] } {
  const rowUse = new Map<string, RowUse>();
  const sites = new Map<string, Site>();
  for (const s of subjects) {
    const r = results.get(s);
    const labels = s.report.observables;
    const values = r ? observableValues(s.test, s.report, r.machine) : new Map<string, Set<number>>();
    for (let t = 0; t < s.rows.length; t++)
      for (let k = 0; k < s.rows[t]!.length; k++) {
        const row = s.rows[t]![k]!;
        const seq = s.code[t]![k]!;
        if (row === '') continue;
        let use = rowUse.get(row);
        if (!use) {
          use = {
            seqs: new Map(),
            users: new Set(),
            sound: new Set(),
            capable: { ordering: new Set(), access: new Set() },
          };
          rowUse.set(row, use);
        }
        use.seqs.set(seq.map(formatIsa).join('; '), seq);
        use.users.add(s.test.name);
        if (!r) continue;
        use.sound.add(s.test.name);
        if (killingCapable(s.report, values, orderedObservables(s.test, t, k, labels)))
          use.capable.ordering.add(s.test.name);
        if (killingCapable(s.report, values, accessObservables(s.test, t, k, labels)))
          use.capable.access.add(s.test.name);
        const flag = isFlagAccess(s.test.threads[t]!.body[k]!);
        sequenceMutations(seq).forEach((m, order) => {
          const key = `${row}\u0000${m.position}\u0000${m.text}`;
          const site = sites.get(key) ?? {
            row,
            position: m.position,
            instr: seq[m.position]!,
            text: m.text,
            kind: m.kind,
            order,
            users: [],
            flagAccess: true,
          };
          if (!site.users.includes(s)) site.users.push(s);
          site.flagAccess &&= flag;
          sites.set(key, site);
        });
      }
  }
  const sorted = [...sites.values()].sort(
    (a, b) => a.row.localeCompare(b.row) || a.position - b.position || a.order - b.order,
  );
  return { rowUse, sites: sorted };
}

/**
 * The assumptions without which a test using the row kills the survivor, each with its killer
 * (`ASSUMPTION_PASS`): for each assumption that applies, the tests whose changed waves it acts on
 * first, then the others it can matter to, in the kill checks' order; a test counts only where its
 * documented code is sound without the assumption.
 */
async function assumptionKillers(
  users: readonly Subject[],
  codes: readonly LoweredCode[],
  applicable: readonly AssumptionId[],
  cfg: FamilyConfig,
  mode: MachineMode,
  check: Check,
  soundWithout: (s: Subject, a: AssumptionId) => Promise<boolean>,
): Promise<{ assumption: AssumptionId; test: string }[]> {
  const programs = users.map((s, n) => {
    const built = compileProgram(s.test, codes[n]!, cfg, mode);
    return 'unsupported' in built ? null : built.program;
  });
  const out: { assumption: AssumptionId; test: string }[] = [];
  for (const a of applicable) {
    const near = users.map((s, n) => {
      const p = programs[n];
      if (!p || !assumptionMatters(a, p)) return 2;
      if (!PER_WAVE.includes(a)) return 0;
      const changed = p.threads.filter((_, t) => codes[n]![t]!.some((seq, k) => seq !== s.code[t]![k]));
      const waves = new Set(changed.map((th) => th.wave));
      return assumptionMatters(a, { ...p, threads: p.threads.filter((th) => waves.has(th.wave)) }) ? 0 : 1;
    });
    const order = users
      .map((_, n) => n)
      .filter((n) => near[n]! < 2)
      .sort((x, y) => near[x]! - near[y]!)
      .slice(0, ASSUMPTION_PASS.tests);
    for (const n of order) {
      const s = users[n]!;
      if (!(await soundWithout(s, a))) continue;
      if ((await check(s, codes[n]!, a, ASSUMPTION_PASS.states)).verdict === 'UNSOUND') {
        out.push({ assumption: a, test: s.test.name });
        break;
      }
    }
  }
  return out;
}

/** Why a load or store's own narrowed access survives (docs/mutation.md, "Progress only"). */
function progressOnlyReason(i: VmemInstr, names: readonly string[]): string {
  return `the ${i.op} is the atomic access itself, not an RMW: a narrower ${i.op} only changes when it takes effect at its scope (a store reaches that level later, written back at any time; a load may read a copy the level held earlier), which a final-state test cannot tell from a slow access — the row's waits and cache maintenance, not this access's bits, order the thread's other accesses (tried ${someNames(names)})`;
}

/**
 * Runs the matrix for one target and mode over the subjects: only tests the documented code keeps
 * sound can kill a mutant. Kill checks run the machine with its assumptions and no attribution; a
 * survivor is run again without each assumption that applies.
 */
export async function mutationMatrix(
  subjects: Subject[],
  ctx: LowerCtx,
  budget: ExploreOptions,
  pause?: () => Promise<void>,
): Promise<MutationReport> {
  const t0 = performance.now();
  const mode = machineMode(ctx);
  const family = ctx.target.processor.table as TableFamily;
  const check: Check = (s, code, drop, cap) =>
    checkTest(
      s.test,
      s.report,
      code,
      ctx,
      'doc',
      {
        ...budget,
        ...(cap !== undefined ? { maxStates: Math.min(cap, budget.maxStates) } : {}),
        trace: false,
        attribute: false,
        ...(drop ? { settings: { assume: ASSUMPTION_IDS.filter((x) => x !== drop) } } : {}),
      },
      pause,
    );
  const configs = machineConfigs(ctx);
  const uncounted = configs.length > 0 ? uncountedCounters(configs[0]!) : [];
  const applicable = assumptionsOf(family, mode);

  // Only tests the documented code keeps sound can kill a mutant.
  const results = new Map<Subject, CheckResult>();
  for (const s of subjects) {
    const r = await check(s, s.code);
    if (r.verdict === 'sound') results.set(s, r);
  }
  const { rowUse, sites } = collectSites(subjects, results);

  // The compiled programs of the documented code, per test and configuration (for `redundant`).
  const canonOf = (s: Subject, code: LoweredCode) =>
    configs.map((cfg) => {
      const c = compileProgram(s.test, code, cfg, mode);
      return 'unsupported' in c
        ? `unsupported: ${diagnosticLine(c.unsupported)}`
        : canonicalProgram(c.program, uncounted);
    });
  const canon = new Map<Subject, string[]>();
  const withoutChecks = new Map<string, boolean>();
  /** Is the documented code of `s` sound without assumption `a`? */
  const soundWithout = async (s: Subject, a: AssumptionId): Promise<boolean> => {
    const key = `${s.test.name}\u0000${a}`;
    let v = withoutChecks.get(key);
    if (v === undefined) {
      v = (await check(s, s.code, a, ASSUMPTION_PASS.states)).verdict === 'sound';
      withoutChecks.set(key, v);
    }
    return v;
  };

  const mutants: Mutant[] = [];
  for (const site of sites) {
    const mutant: Mutant = {
      row: site.row,
      position: site.position + 1,
      instruction: formatIsa(site.instr),
      mutation: site.text,
      kind: site.kind,
      status: 'survived',
      killedBy: null,
      class: null,
      assumptions: [],
      survives: null,
    };
    mutants.push(mutant);
    // Tests killing-capable for the row first, then smaller tests: they are checked fastest.
    const target = mutantTarget(site.instr, site, uncounted);
    const capable = rowUse.get(site.row)!.capable[target ?? 'ordering'];
    const rank = (s: Subject) => (capable.has(s.test.name) ? 0 : 100) + s.test.threads.length;
    const users = [...site.users].sort((a, b) => rank(a) - rank(b));
    const codes = users.map((s) => mutantCode(s, site.row, site.position, site.text));
    // The same machine program for every test using the row: nothing can kill it. (Not for a branch of an
    // Intel generic-pointer dispatch: the machine runs only the branch of the tests' address space.)
    const same =
      site.instr.kind !== 'xe_generic' &&
      users.every((s, n) => {
        const orig = canon.get(s) ?? canonOf(s, s.code);
        canon.set(s, orig);
        const mut = canonOf(s, codes[n]!);
        return mut.every((x, c) => x === orig[c]);
      });
    if (same) {
      const removed = removedCounters(site.instr, site);
      const uncountedOnly =
        removed !== null && removed.length > 0 && removed.every((c) => uncounted.includes(c));
      mutant.class = uncountedOnly ? 'no-counted-instruction' : 'redundant';
      mutant.survives = uncountedOnly ? noCountedReason(removed, family) : redundantReason(site, configs[0]!);
      continue;
    }
    let undecided = 0;
    for (const [n, s] of users.entries()) {
      const r = await check(s, codes[n]!);
      if (r.verdict === 'UNSOUND') {
        mutant.status = 'killed';
        mutant.killedBy = s.test.name;
        // A test that kills one of a row's mutants is killing-capable for it, whatever the criterion says.
        if (target) capable.add(s.test.name);
        break;
      }
      if (r.verdict !== 'sound') undecided++;
    }
    if (mutant.status === 'killed') continue;
    if (undecided > 0) {
      mutant.status = 'undecided';
      mutant.survives = `no test killed it, and ${undecided} of the ${users.length} checks could not decide (the budget, or the machine cannot run the mutant): counted apart`;
      continue;
    }
    const names = users.map((u) => u.test.name);
    if (site.flagAccess && site.instr.kind === 'vmem' && site.instr.op !== 'atomic' && site.kind !== 'drop') {
      mutant.class = 'progress-only';
      mutant.survives = progressOnlyReason(site.instr, names);
      continue;
    }
    const killers = await assumptionKillers(users, codes, applicable, configs[0]!, mode, check, soundWithout);
    if (killers.length > 0) {
      mutant.class = 'assumption';
      mutant.assumptions = killers.map((k) => k.assumption);
      mutant.survives = `killed once an assumption is dropped: ${killers
        .map((k) => `${k.test} without ${k.assumption} (under it, ${assumption(k.assumption).under})`)
        .join('; ')}`;
    } else {
      mutant.class = 'test-missing';
      mutant.survives = `no test using the row becomes unsound on ${ctx.target.name}, with or without each assumption (${someNames(names)}): a test is missing`;
    }
  }

  const gaps = rowGaps(rowUse, ctx, uncounted);
  const gapRows = new Set(gaps.map((g) => g.row));
  for (const m of mutants)
    if (m.class === 'test-missing' && gapRows.has(m.row))
      m.survives +=
        ' (no test using the row is killing-capable for it: see the rows no catalogue test can kill)';
  return {
    target: ctx.target.name,
    mode,
    tests: results.size,
    score: mutationScore(mutants),
    mutants,
    gaps,
    ms: performance.now() - t0,
  };
}

/** The counters a wait mutation takes out of the wait (all of a dropped or moved wait's); null for other mutations. */
function removedCounters(i: IsaInstr, m: Pick<SeqMutation, 'kind' | 'text'>): Counter[] | null {
  if (i.kind !== 'wait') return null;
  if (m.kind === 'weaken') {
    const w = mutationsOf(i)
      .find((x) => x.text === m.text)
      ?.apply(i);
    return w && w.kind === 'wait' ? i.counters.filter((c) => !w.counters.includes(c)) : null;
  }
  return i.counters;
}

/** Which part of the row a mutation of instruction `i` changes (`MutantTarget`), or null when no test need kill it. */
export function mutantTarget(
  i: IsaInstr,
  m: Pick<SeqMutation, 'kind' | 'text'>,
  uncounted: readonly Counter[],
): MutantTarget | null {
  const removed = removedCounters(i, m);
  if (removed?.every((c) => uncounted.includes(c))) return null;
  if (i.kind === 'vmem') return i.op === 'atomic' ? 'access' : null;
  return 'ordering';
}

function noCountedReason(removed: readonly Counter[], family: TableFamily): string {
  const xcnt = removed.includes('xcnt')
    ? ' (s_wait_xcnt waits for address translation, and the machine models no translation fault: the XNACK replay it guards an atomic against, docs/hardware.md)'
    : '';
  return `no instruction the ${family} machine runs is counted on ${removed.join(', ')}: config.ts gives no vector memory, LDS, invalidate or write-back instruction that counter, so the wait never blocks${xcnt}`;
}

/** Why the machine runs a mutant as the original: the config entry that reads the same from both. */
function redundantReason(site: Site, cfg: FamilyConfig): string {
  const i = site.instr;
  const m =
    site.kind === 'move'
      ? null
      : mutationsOf(i)
          .find((x) => x.text === site.text)
          ?.apply(i);
  const same = 'the machine program is the same on every test using the row and every configuration';
  if (i.kind === 'vmem' && m?.kind === 'vmem') {
    const ret = (x: VmemInstr) => (x.op === 'atomic' ? { ...x, returns: cfg.returns(x) } : x);
    const a = ret(i);
    const b = ret(m);
    return `the ${cfg.family} machine performs both alike: config.ts \`rank\` gives rank ${cfg.rank(a)} (${cfg.levels.find((l) => l.rank >= cfg.rank(a))?.name ?? cfg.memoryName}) and \`counters\` ${cfg.counters(a).join(', ') || 'none'} with or without it${
      i.op === 'atomic' ? `, \`returns\` ${cfg.returns(b) ? 'a value' : 'nothing'} either way` : ''
    }: ${same}`;
  }
  if ((i.kind === 'inv' && m?.kind === 'inv') || (i.kind === 'wb' && m?.kind === 'wb')) {
    const spec = i.kind === 'inv' ? cfg.inv(i) : cfg.wb(i as WbInstr);
    return `config.ts \`${i.kind}\` makes both act on the levels of rank ${spec?.from ?? '?'} to ${(spec?.below ?? 1) - 1} (${spec?.cite ?? ''}): ${same}`;
  }
  if (i.kind === 'lsc_fence' && m?.kind === 'lsc_fence') {
    const levels = (f: typeof i) => {
      const spec = cfg.lsc?.fence(f);
      if (!spec || typeof spec === 'string') return '?';
      return spec.levels.length === 0
        ? 'no cache level'
        : spec.levels.map((k) => cfg.levels[k]!.name).join(', ');
    };
    return `config.ts \`xeFence\` makes ${formatIsa(i)} act on ${levels(i)} and ${formatIsa(m)} on ${levels(m)} (an op acts only on the levels it is given): ${same}`;
  }
  if (i.kind === 'wait')
    return `adjacent waits of a wave that has the thread to itself act as one wait on all their counters (nothing is issued between them, and the counters only fall meanwhile): ${same}`;
  return same;
}

/**
 * The rows with mutants — of the catalogue's tests and of the whole table for this mode — that no test
 * is killing-capable for.
 */
function rowGaps(
  rowUse: Map<string, RowUse>,
  ctx: LowerCtx,
  uncounted: readonly Counter[],
): MutationReport['gaps'] {
  const f = ctx.target.processor.features;
  const cols = gridColumns(ctx.target);
  const col = Math.max(
    0,
    cols.findIndex(
      (c) =>
        c.tgsplit === (ctx.tgsplit === true) &&
        (!f.wgpMode || c.mode === ctx.mode) &&
        (c.lang === ctx.lang || ctx.target.processor.vendor === 'Intel'),
    ),
  );
  const table = new Map<string, Map<string, readonly IsaInstr[]>>();
  for (const b of gridBlocks(ctx.target).blocks) {
    // Volatile and nontemporal add waits and hints the model gives no meaning: no outcome can need them.
    if (b.volatile === true || b.nontemporal === true) continue;
    const r = b.results[col];
    if (!r || !isLowered(r)) continue;
    const row = mainRow(r.rows);
    if (row === '') continue;
    const seqs = table.get(row) ?? new Map<string, readonly IsaInstr[]>();
    seqs.set(r.seq.map(formatIsa).join('; '), r.seq);
    table.set(row, seqs);
  }
  const rows = new Set([...rowUse.keys(), ...table.keys()]);
  const out: MutationReport['gaps'] = [];
  for (const row of [...rows].sort()) {
    const use = rowUse.get(row);
    const seqs = [...(use?.seqs.values() ?? []), ...(table.get(row)?.values() ?? [])];
    const targets = new Set(
      seqs.flatMap((s) =>
        sequenceMutations(s).flatMap((m) => mutantTarget(s[m.position]!, m, uncounted) ?? []),
      ),
    );
    const open = [...targets].filter((t) => !use || use.capable[t].size === 0).sort();
    if (open.length === 0) continue;
    const usedBy = use ? [...use.users].sort() : [];
    const what = open
      .map((t) => (t === 'ordering' ? 'its ordering instructions' : 'its atomic access'))
      .join(' and ');
    const why = !use
      ? 'no catalogue test uses the row'
      : use.sound.size === 0
        ? `used only by tests the machine does not find sound (${someNames(usedBy)})`
        : `no test using it can kill the mutants of ${what}: no observable ${open.length > 1 ? 'they decide' : open[0] === 'ordering' ? "the thread's other instructions feed" : 'the access feeds'} has a value the model constrains (${someNames([...use.sound].sort())})`;
    out.push({ row, usedBy, why });
  }
  return out;
}

/** The score as text: `83% (29 killed of 35 = 53 mutants − 6 redundant − …)`. */
function scoreText(s: Score): string {
  const pct = s.value === null ? 'n/a' : `${Math.round(s.value * 1000) / 10}%`;
  return `${pct} (${s.killed} killed of ${scoredMutants(s)} = ${s.mutants} mutants − ${s.redundant} redundant − ${s.progressOnly} progress only − ${s.noCountedInstruction} no counted instruction − ${s.undecided} undecided)`;
}

const CLASS_TEXT: Record<SurvivorClass, string> = {
  redundant: 'redundant',
  'no-counted-instruction': 'no counted instruction',
  'progress-only': 'progress only',
  assumption: 'assumption',
  'test-missing': 'test missing',
};

/**
 * Text of the matrix: the score, per row and instruction the killing test or the survivor's class, then
 * every survivor by class with its reason, the undecided mutants, and the rows no test can kill.
 */
export function formatMutationReport(r: MutationReport): string {
  const mode = modeText(r.target, r.mode) ? ` (${r.mode.toUpperCase()} mode)` : '';
  const s = r.score;
  const lines = [
    `Mutation score for ${r.target}${mode}: ${scoreText(s)}, over ${r.tests} sound catalogue tests`,
    `  survivors: ${s.testMissing} test missing, ${s.assumption} assumption, ${s.redundant} redundant, ${s.progressOnly} progress only, ${s.noCountedInstruction} no counted instruction; rows no catalogue test can kill: ${r.gaps.length}`,
  ];
  let row = '';
  for (const m of r.mutants) {
    if (m.row !== row) {
      row = m.row;
      lines.push(row);
    }
    const verdict =
      m.status === 'killed'
        ? `killed by ${m.killedBy}`
        : m.status === 'undecided'
          ? 'UNDECIDED'
          : `SURVIVES: ${CLASS_TEXT[m.class!]}`;
    lines.push(`  ${m.position}. ${m.mutation.padEnd(48)} ${verdict}`);
  }
  for (const c of SURVIVOR_CLASSES) {
    const ms = r.mutants.filter((m) => m.status === 'survived' && m.class === c);
    if (ms.length === 0) continue;
    lines.push('', `Surviving mutants, ${CLASS_TEXT[c]} (${ms.length}):`);
    for (const m of ms) lines.push(`  ${m.row} #${m.position} ${m.mutation}: ${m.survives}`);
  }
  const undecided = r.mutants.filter((m) => m.status === 'undecided');
  if (undecided.length > 0) {
    lines.push('', `Undecided mutants (${undecided.length}, not scored):`);
    for (const m of undecided) lines.push(`  ${m.row} #${m.position} ${m.mutation}: ${m.survives}`);
  }
  if (r.gaps.length > 0) {
    lines.push('', `Rows no catalogue test can kill (${r.gaps.length}):`);
    for (const g of r.gaps) lines.push(`  ${g.row}: ${g.why}`);
  }
  return lines.join('\n');
}
