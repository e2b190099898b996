/**
 * Candidate executions for a cat model. For every variant of the test (cmpxchg outcomes × barrier
 * executions, each its own event skeleton), every coherence order of every location (the initial
 * write first, herd7's convention: it is the write every other one overwrites), and every rf choice
 * of every read (each same-location write, or `undef`), the model's checks decide consistency.
 *
 * The one pruning: after each rf choice the *prunable* checks (`eval.ts`: non-negated checks on
 * expressions monotone in rf and `Undef`) run on the partial candidate; one that fails cuts the
 * subtree, since every completion only adds rf edges and `Undef` members. This is safe for any cat
 * model because monotonicity is decided from the expression, not from knowledge of the model.
 *
 * Consistent candidates are evaluated (register values, cmpxchg outcomes: the program semantics of
 * `src/events/program.ts`) and recorded in a `Collector`, so reports are built as `gpumm run` builds
 * them. The search is an explicit-stack loop run in slices, like the fast search, so budgets and
 * interrupts apply between slices. It shares the event skeleton with the fast search, nothing of
 * its model. No Node APIs here: the web page imports this file.
 */

import { Orderings } from '../core/permutations.ts';
import { add, remove } from '../core/relation.ts';
import type { Test } from '../core/types.ts';
import { noRaceStats, VariantDriver } from '../enumerate/driver.ts';
import { describeEvent } from '../enumerate/explain.ts';
import { type Observable, type ObserveMode, observables } from '../enumerate/outcomes.ts';
import { compile, conditionConstants, type EvalStatus, Evaluator } from '../events/program.ts';
import { buildSkeleton, countBarrierVariants, countCmpxchg, type Skeleton } from '../events/skeleton.ts';
import type { Model } from './ast.ts';
import {
  type Compiled,
  type CompiledCheck,
  checkPasses,
  compileModel,
  type Primitives,
  runStep,
  type Step,
  testHolds,
} from './eval.ts';
import { buildPrimitives, type CandidateBuffers } from './primitives.ts';

/** Flags a model raises with `flag … as NAME` that the report shows (docs/cat.md, "Flags"). */
export const RACE_FLAG = 'race';
/** Dartagnan's name of the race flag (its models say `flag ~empty dr as racy`): read as `race`. */
export const RACY_FLAG = 'racy';
export const UNDEF_FLAG = 'undef';
/** The set a model binds to say which co-last writes leave their location `undef` at the end. */
export const FINAL_UNDEF = 'final-undef';

export interface CatOptions {
  /** Names for which `if "name"` takes its first branch. */
  variants: ReadonlySet<string>;
  maxExecutions: number;
  timeoutMs: number;
  maxStates: number;
  keepExamples: boolean;
  observe: ObserveMode;
  /** Prune with the prunable checks (off: check every complete candidate, for tests). */
  prune: boolean;
  /** Called for every complete candidate the model rejects, with the check that rejects it. */
  onReject: ((v: CatVariant, reason: CatRejection) => void) | null;
  /**
   * Called for every execution the model accepts (the explorer's list of executions): a candidate
   * with its race and undef flags, once per valuation of its values (`solution`: the index of the
   * solution of a value cycle now loaded, else 0).
   */
  onAccept: ((v: CatVariant, race: boolean, undef: boolean, solution: number) => void) | null;
}

export const DEFAULT_CAT: CatOptions = {
  variants: new Set(),
  maxExecutions: Number.POSITIVE_INFINITY,
  timeoutMs: Number.POSITIVE_INFINITY,
  maxStates: Number.POSITIVE_INFINITY,
  keepExamples: true,
  observe: 'all',
  prune: true,
  onReject: null,
  onAccept: null,
};

/** Why a candidate is rejected: a failing check of the model, or the program's values. */
export type CatRejection =
  | { kind: 'check'; check: CompiledCheck }
  | { kind: 'values'; status: Exclude<EvalStatus, 'ok'> }
  /** The final state fails the test's filter (Vulkan tests, src/vulkan/front.ts). */
  | { kind: 'filter' };

/**
 * What the enumerator needs of one variant of a test, whatever its language: the events (as a
 * count, the writes of each location and the reads), the primitives a model sees, the candidate
 * buffers they share, the register evaluation, and the final state of a candidate.
 */
export interface CatVariantInput {
  n: number;
  /** Per location, its writes. */
  writesByLoc: number[][];
  /** Initial writes (first in every coherence order, herd7's convention). */
  isInit(w: number): boolean;
  reads: number[];
  /** The location (index into `writesByLoc`) an access is to. */
  locOf(e: number): number;
  /**
   * The writes read `r` may read among `writes` (all of its location's): those whose value the
   * program's assumptions (branch outcomes, a filter) do not rule out before any choice. Absent:
   * all of them.
   */
  rfDomain?(r: number, writes: number[]): number[];
  prims: Primitives;
  cand: CandidateBuffers;
  /** Register values: one valuation, or the solutions of a value cycle (`Evaluator.valuations`). */
  evaluator: Evaluator;
  /**
   * With a valuation loaded in `evaluator`: fills `out` with the observables' values (`coRank`: the
   * candidate's coherence ranks; `finalUndef`: the model's `final-undef` set, or null). False when
   * the state is filtered out.
   */
  observe(out: Float64Array, coRank: Int32Array, finalUndef: Uint32Array | null): boolean;
  /** Words for event `e` (explanations). */
  describe(e: number): string;
  /** Every execution of this variant has undefined behaviour (a deadlocked barrier). */
  ub: boolean;
}

/** A test as the cat enumerator sees it: observables, and its variants one at a time. */
export interface CatFront {
  test: Test | null;
  /** Observable labels (the final state's columns). */
  labels: string[];
  variantCount: number;
  variant(index: number): CatVariantInput;
}

/** The AMDGPU test front: a variant per cmpxchg outcomes × barrier execution (its own skeleton). */
export function amdgpuFront(test: Test, observe: ObserveMode): CatFront {
  const sk0 = variantSkeleton(test, 0);
  return {
    test,
    labels: observables(sk0, compile(sk0), [], observe).map((o) => o.label),
    variantCount: catVariantCount(test),
    variant(index) {
      const sk = variantSkeleton(test, index);
      const { prims, cand } = buildPrimitives(sk);
      const programs = compile(sk);
      const evaluator = new Evaluator(sk, programs, conditionConstants(test.condition?.cond));
      const obs: Observable[] = observables(sk, programs, [], observe);
      return {
        n: sk.n,
        writesByLoc: sk.writesByLoc,
        isInit: (w) => sk.events[w]!.kind === 'init',
        reads: sk.reads,
        locOf: (e) => sk.events[e]!.loc,
        prims,
        cand,
        evaluator,
        ub: false,
        describe: (e) => describeEvent(sk, e),
        observe(out, coRank, fu) {
          for (let k = 0; k < obs.length; k++) {
            const o = obs[k]!;
            out[k] =
              o.kind === 'reg'
                ? evaluator.regs[o.thread]![o.reg]!
                : finalValue(sk.writesByLoc[o.loc]!, coRank, fu, evaluator.writeVal);
          }
          return true;
        },
      };
    },
  };
}

/** The value of the co-last write of a location's writes `ws`, or undef when the model puts that write in `final-undef`. */
export function finalValue(
  ws: readonly number[],
  coRank: Int32Array,
  fu: Uint32Array | null,
  writeVal: Float64Array,
): number {
  let last = -1;
  for (const w of ws) if (last < 0 || coRank[w]! > coRank[last]!) last = w;
  if (last < 0) return Number.NaN;
  if (fu && ((fu[last >>> 5]! >>> (last & 31)) & 1) === 1) return Number.NaN;
  return writeVal[last]!;
}

/** The number of variants (cmpxchg outcomes × barrier executions), as the fast search counts them. */
export function catVariantCount(test: Test): number {
  return 2 ** countCmpxchg(test) * countBarrierVariants(test);
}

function variantSkeleton(test: Test, v: number): Skeleton {
  const k = countCmpxchg(test);
  const cas = Array.from({ length: k }, (_, i) => (((v % 2 ** k) >>> i) & 1) === 0);
  return buildSkeleton(test, cas, Math.floor(v / 2 ** k));
}

/** One variant, its compiled model and the state of its search. */
export interface CatVariant {
  index: number;
  input: CatVariantInput;
  compiled: Compiled;
  cand: CandidateBuffers;
  /** rf source per event (reads only; -1 undef, -2 not chosen). */
  rfSrc: Int32Array;
  /** Coherence rank per write. */
  coRank: Int32Array;
}

type ChoicePoint =
  | { kind: 'co'; loc: number; perms: Orderings }
  | { kind: 'rf'; read: number; domain: Int32Array };

/**
 * `model` evaluated on one complete candidate of a variant, every binding computed (the explorer
 * draws its relations): rf from `rfSrc` (-1: the read is undef), co from `coRank`. `input` must be
 * fresh (`CatFront.variant`): its candidate buffers are written here.
 */
export function replayCandidate(
  input: CatVariantInput,
  model: Model,
  variants: ReadonlySet<string>,
  rfSrc: Int32Array,
  coRank: Int32Array,
): Compiled {
  const compiled = compileModel(model, input.prims, variants);
  const { cand } = input;
  for (const r of input.reads) {
    const src = rfSrc[r]!;
    if (src >= 0) add(cand.rf, src, r);
    else if (src === -1) cand.undef[r >>> 5]! |= 1 << (r & 31);
  }
  for (const ws of input.writesByLoc)
    for (const a of ws) for (const b of ws) if (coRank[a]! < coRank[b]!) add(cand.co, a, b);
  cand.refreshFr();
  for (const s of compiled.steps) runStep(s);
  return compiled;
}

/** Compiles `model` for variant 0 of `test` (for its diagnostics, before any search). */
export function compileFor(test: Test, model: Model, variants: ReadonlySet<string>): Compiled {
  const sk = variantSkeleton(test, 0);
  return compileModel(model, buildPrimitives(sk).prims, variants);
}

/** A resumable enumeration of a test's executions under a cat model. */
export class CatEnumeration extends VariantDriver<CatVariantState> {
  readonly front: CatFront;
  readonly model: Model;
  readonly opts: CatOptions;
  /** The model's own flags (`flag … as NAME`, other than race and undef) raised by some execution. */
  readonly modelFlags = new Set<string>();

  /** `subject`: an AMDGPU test, or a front for another kind of test (src/vulkan/front.ts). */
  constructor(subject: Test | CatFront, model: Model, opts: CatOptions = DEFAULT_CAT) {
    const front = 'variant' in subject ? subject : amdgpuFront(subject, opts.observe);
    super(front.labels, opts, front.variantCount, noRaceStats());
    this.front = front;
    this.model = model;
    this.opts = opts;
  }

  /** The AMDGPU test, or null for another kind of test. */
  get test(): Test | null {
    return this.front.test;
  }

  protected start(v: number): CatVariantState {
    const s = new CatVariantState(this.front.variant(v), v, this.model, this.opts, this.front.labels.length);
    s.setup();
    return s;
  }

  protected advance(s: CatVariantState, budget: number): number {
    return s.advance(budget, this);
  }

  record(vs: CatVariantState, values: Float64Array, race: boolean, undef: boolean): void {
    this.recordExecution(vs.v.index, vs.v.input.ub, values, race, undef, () => ({
      variant: vs.v.index,
      rf: vs.v.rfSrc.slice(),
      co: vs.v.coRank.slice(),
    }));
  }
}

/** The search state of one variant. */
class CatVariantState {
  readonly v: CatVariant;
  finished = false;
  private readonly cps: ChoicePoint[];
  private readonly cur: Int32Array;
  private depth = 0;
  private readonly lastCo: number;
  private readonly tier1: Step[];
  private readonly pruneSteps: Step[];
  private readonly leafSteps: Step[];
  private readonly pruneChecks: CompiledCheck[];
  private readonly leafChecks: CompiledCheck[];
  private readonly flags: CompiledCheck[];
  private readonly values: Float64Array;
  private readonly finalUndef: Step | null;
  private scratch: Uint32Array = new Uint32Array(8);
  private readonly rfStep: Step | undefined;
  private readonly coStep: Step | undefined;
  private readonly undefStep: Step | undefined;
  private readonly frStep: Step | undefined;

  constructor(
    input: CatVariantInput,
    index: number,
    model: Model,
    private readonly opts: CatOptions,
    labelCount: number,
  ) {
    const compiled = compileModel(model, input.prims, opts.variants);
    this.v = {
      index,
      input,
      compiled,
      cand: input.cand,
      rfSrc: new Int32Array(input.n).fill(-2),
      coRank: new Int32Array(input.n).fill(-1),
    };
    this.values = new Float64Array(labelCount);
    const cps: ChoicePoint[] = [];
    input.writesByLoc.forEach((ws, loc) => {
      const init = ws.filter((w) => input.isInit(w));
      const rest = ws.filter((w) => !input.isInit(w));
      if (ws.length === 0) return;
      cps.push({ kind: 'co', loc, perms: new Orderings(init, rest) });
    });
    this.lastCo = cps.length - 1;
    for (const r of input.reads) {
      const all = input.writesByLoc[input.locOf(r)]!;
      // Writes whose value the program's assumptions rule out never reach the leaf's evaluation.
      const ws = input.rfDomain ? input.rfDomain(r, all) : all;
      // Undef is a choice when the model speaks of it, or when nothing writes the location.
      const undef = compiled.usesUndef || all.length === 0 ? [-1] : [];
      cps.push({ kind: 'rf', read: r, domain: Int32Array.from([...ws, ...undef]) });
    }
    this.cps = cps;
    this.cur = new Int32Array(cps.length).fill(-1);

    // Which steps each pass recomputes: tier 1 when the coherence order is complete, the cone of
    // the prunable checks after every rf choice, the rest at a complete candidate.
    const steps = compiled.steps;
    const checks = compiled.checks.filter((c) => !c.flag);
    this.pruneChecks = opts.prune ? checks.filter((c) => c.prunable) : [];
    this.leafChecks = checks.filter((c) => !this.pruneChecks.includes(c));
    this.flags = compiled.checks.filter((c) => c.flag);
    // The cone, walked with a stack of its own: a model's steps may chain 200,000 deep (MAX_STEPS).
    const cone = new Set<Step>();
    const todo = this.pruneChecks.map((c) => c.step);
    while (todo.length > 0) {
      const st = todo.pop()!;
      if (cone.has(st)) continue;
      cone.add(st);
      for (const d of st.deps) todo.push(d);
    }
    this.tier1 = steps.filter((s) => s.tier === 1);
    this.pruneSteps = steps.filter((s) => s.tier === 2 && cone.has(s));
    this.leafSteps = steps.filter((s) => s.tier === 2 && !cone.has(s));
    this.finalUndef = compiled.bound.get(FINAL_UNDEF) ?? null;
    for (const s of steps) if (s.tier === 0) runStep(s);
    const p = compiled.prims;
    this.rfStep = p.get('rf');
    this.coStep = p.get('co');
    this.undefStep = p.get('Undef');
    this.frStep = p.get('fr');
  }

  setup(): void {
    this.scratch = new Uint32Array(Math.ceil(this.v.input.n / 32) + 1);
    // No location has a write: the coherence order is complete before any choice.
    if (this.lastCo < 0) this.runSteps(this.tier1);
    if (this.cps.length === 0) {
      // No choice at all: the one candidate.
      this.runSteps(this.pruneSteps);
    }
  }

  private runSteps(steps: Step[]): void {
    for (let k = 0; k < steps.length; k++) runStep(steps[k]!);
  }

  /** Marks a primitive the enumerator just changed. */
  private touch(s: Step | undefined): void {
    if (s) s.version++;
  }

  private applyChoice(d: number, idx: number): void {
    const cp = this.cps[d]!;
    const { cand, rfSrc, coRank, input } = this.v;
    if (cp.kind === 'co') {
      const perm = cp.perms.at(idx);
      const ws = input.writesByLoc[cp.loc]!;
      for (const a of ws) for (const b of ws) remove(cand.co, a, b);
      for (let i = 0; i < perm.length; i++) {
        coRank[perm[i]!] = i;
        for (let j = i + 1; j < perm.length; j++) add(cand.co, perm[i]!, perm[j]!);
      }
      this.touch(this.coStep);
      return;
    }
    this.clearChoice(d);
    const src = cp.domain[idx]!;
    rfSrc[cp.read] = src;
    if (src >= 0) add(cand.rf, src, cp.read);
    else cand.undef[cp.read >>> 5]! |= 1 << (cp.read & 31);
    this.touch(this.rfStep);
    this.touch(this.undefStep);
  }

  private clearChoice(d: number): void {
    const cp = this.cps[d]!;
    if (cp.kind !== 'rf') return;
    const { cand, rfSrc } = this.v;
    const prev = rfSrc[cp.read]!;
    if (prev >= 0) remove(cand.rf, prev, cp.read);
    else if (prev === -1) cand.undef[cp.read >>> 5]! &= ~(1 << (cp.read & 31));
    rfSrc[cp.read] = -2;
    this.touch(this.rfStep);
    this.touch(this.undefStep);
  }

  /** Whether the prunable checks pass on the current (partial) candidate. */
  private partialOk(): boolean {
    this.v.cand.refreshFr();
    this.touch(this.frStep);
    this.runSteps(this.pruneSteps);
    for (const c of this.pruneChecks) if (!checkPasses(c, this.scratch)) return false;
    return true;
  }

  /** Advances the search by up to `budget` nodes; returns the nodes used. */
  advance(budget: number, en: CatEnumeration): number {
    let used = 0;
    const cps = this.cps;
    if (cps.length === 0) {
      en.stats.nodes++;
      if (this.partialOk()) this.leaf(en);
      else this.reject(en, this.pruneChecks.find((c) => !checkPasses(c, this.scratch))!);
      this.finished = true;
      return 1;
    }
    while (used < budget && !en.stop && en.stats.consistent < en.sliceEnd) {
      const d = this.depth;
      const cp = cps[d]!;
      const size = cp.kind === 'co' ? cp.perms.size : cp.domain.length;
      const idx = this.cur[d]! + 1;
      if (idx >= size) {
        this.clearChoice(d);
        this.cur[d] = -1;
        if (d === 0) {
          this.finished = true;
          return used;
        }
        this.depth--;
        continue;
      }
      this.cur[d] = idx;
      this.applyChoice(d, idx);
      used++;
      en.stats.nodes++;
      if (d === this.lastCo) this.runSteps(this.tier1);
      if (d >= this.lastCo && d >= 0) {
        const ok = this.partialOk();
        if (!ok) {
          if (d === cps.length - 1) {
            en.stats.explored++;
            if (this.opts.onReject)
              this.reject(en, this.pruneChecks.find((c) => !checkPasses(c, this.scratch))!);
          }
          continue;
        }
      }
      if (d === cps.length - 1) this.leaf(en);
      else this.depth++;
    }
    return used;
  }

  private reject(_en: CatEnumeration, c: CompiledCheck): void {
    this.opts.onReject?.(this.v, { kind: 'check', check: c });
  }

  /** A complete candidate whose prunable checks pass: the rest of the model, then the values. */
  private leaf(en: CatEnumeration): void {
    en.stats.explored++;
    this.runSteps(this.leafSteps);
    for (const c of this.leafChecks) {
      if (!checkPasses(c, this.scratch)) {
        this.opts.onReject?.(this.v, { kind: 'check', check: c });
        return;
      }
    }
    const { input, rfSrc, coRank } = this.v;
    const ev = input.evaluator;
    // The model accepts the candidate; its values decide its states: one execution per valuation
    // (the solutions of a value cycle, docs/model.md "Values out of thin air"), none when no
    // valuation meets the program's own assumptions (cmpxchg outcomes, branch conditions).
    const n = ev.valuations(rfSrc);
    if (n === 0) {
      this.opts.onReject?.(this.v, { kind: 'values', status: ev.status as Exclude<EvalStatus, 'ok'> });
      return;
    }
    let race = false;
    let undef = false;
    for (const f of this.flags) {
      if (testHolds(f.test, f.step, this.scratch) === f.negated) continue;
      if (f.name === RACE_FLAG || f.name === RACY_FLAG) race = true;
      else if (f.name === UNDEF_FLAG) undef = true;
      else if (f.name !== null) en.modelFlags.add(f.name);
    }
    for (let k = 0; k < n; k++) {
      if (k > 0) ev.loadSolution(k);
      if (!input.observe(this.values, coRank, this.finalUndef?.bits ?? null)) {
        this.opts.onReject?.(this.v, { kind: 'filter' });
        continue;
      }
      this.opts.onAccept?.(this.v, race, undef, k);
      en.record(this, this.values, race, undef);
    }
  }
}
