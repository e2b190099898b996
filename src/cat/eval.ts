/**
 * The cat evaluator. A model is compiled, once per event skeleton, into a list of steps over
 * preallocated bitsets (`src/core/relation.ts`): each step owns its result and knows
 *
 * - its *tier*: 0 when it depends on the skeleton only (computed once), 1 when on the coherence
 *   order, 2 when on the reads-from choice (rf and the set of reads that return undef);
 * - whether it is *monotone* in the rf choice: built from rf, `Undef` and fixed values with
 *   operators that preserve ⊆ (`|`, `&`, `;`, `*`, `+`, `?`, `^-1`, `[S]`, cartesian product,
 *   `domain`, `range`, least fixpoints of such), where `\` and `~` only ever take a fixed value on
 *   their right or as their argument. A check (`acyclic`, `irreflexive`, `empty`, not negated) on a
 *   monotone expression that fails on a partial rf (some reads not chosen yet) fails on every
 *   completion, whose rf and `Undef` are supersets: the enumerator prunes with such checks only.
 *
 * Functions (`let f(x) = e`) are expanded where they are applied. `let rec` groups are least
 * fixpoints computed by iteration from the empty relation (herd7's semantics).
 * No Node APIs here: the web page imports this file.
 */

import { diag, type SourceDiagnostic } from '../core/diagnostics.ts';
import { nearestNames } from '../core/nearest.ts';
import {
  addIdentity,
  closureInto,
  composeInto,
  findCycle,
  has,
  inverseInto,
  isAcyclic,
  type Relation,
  relation,
  wordsFor,
} from '../core/relation.ts';
import type { Span } from '../core/types.ts';
import type { Binding, CheckKind, Expr, Instr, Model, UnOp } from './ast.ts';
import { prelude } from './prelude.ts';

export type ValueType = 'set' | 'rel';
export type Tier = 0 | 1 | 2;

/** One compiled step: a set (bitset of `w` words) or a relation, recomputed by `run`. */
export interface Step {
  type: ValueType;
  tier: Tier;
  mono: boolean;
  /** The result (a relation's `bits`, or the set's words). */
  bits: Uint32Array;
  rel: Relation | null;
  run: (() => void) | null;
  deps: Step[];
  /**
   * Bumped whenever the value changes. A step whose dependencies' versions are those it last ran
   * with is not run again (`runStep`): across candidates most of a model (hb when no
   * synchronisation changed, availability, visibility, location order) stays as it was.
   */
  version: number;
  /** Dependency versions at the last run. */
  seen: Int32Array;
  /** The value before the last run, to tell whether it changed. */
  prev: Uint32Array;
  /** Never run yet. */
  fresh: boolean;
  /** `run` bumps `version` itself (fixpoint groups). */
  selfVersioned: boolean;
}

/**
 * Brings `s` up to date: runs it when a dependency changed since its last run (or it never ran),
 * and bumps its version when its value changed. A step without `run` (a fixpoint group's other
 * members) mirrors the version of the step that fills it.
 */
export function runStep(s: Step): void {
  const run = s.run;
  const deps = s.deps;
  if (run === null) {
    if (deps.length === 1) s.version = deps[0]!.version;
    return;
  }
  const seen = s.seen;
  let dirty = s.fresh;
  for (let k = 0; !dirty && k < deps.length; k++) if (deps[k]!.version !== seen[k]) dirty = true;
  if (!dirty) return;
  s.fresh = false;
  for (let k = 0; k < deps.length; k++) seen[k] = deps[k]!.version;
  if (s.selfVersioned) {
    run();
    return;
  }
  const b = s.bits;
  const p = s.prev;
  p.set(b);
  run();
  for (let k = 0; k < b.length; k++) {
    if (b[k] !== p[k]) {
      s.version++;
      return;
    }
  }
}

/** A value the enumerator fills in per candidate (`rf`, `co`, `Undef`), or a fixed one. */
export interface PrimitiveValue {
  type: ValueType;
  tier: Tier;
  bits: Uint32Array;
  rel: Relation | null;
}

/** What a cat model sees of one skeleton (see `primitives.ts` and docs/cat.md). */
export interface Primitives {
  n: number;
  values: ReadonlyMap<string, PrimitiveValue>;
  /** Names herd7 models use that gpumm cannot give a meaning to, with the reason (CAT3006). */
  lacking: ReadonlyMap<string, string>;
}

export interface CompiledCheck {
  test: CheckKind;
  negated: boolean;
  flag: boolean;
  name: string | null;
  /** The source text position of the check (for explanations). */
  span: Span;
  step: Step;
  /** Usable on partial candidates (see the file comment). */
  prunable: boolean;
}

export interface Compiled {
  n: number;
  /** Top-level steps in dependency order. */
  steps: Step[];
  checks: CompiledCheck[];
  /** Values bound by the model, by name (the last binding of each), for `show` and conventions. */
  bound: Map<string, Step>;
  diagnostics: SourceDiagnostic[];
  /**
   * The model mentions the primitive `Undef`. A model that does not (herd7's models) has no say on
   * undefined reads, so its candidates have none: every read reads a write (docs/cat.md).
   */
  usesUndef: boolean;
  /** The primitives' steps by name: the enumerator bumps the version of those it changes. */
  prims: Map<string, Step>;
}

type EnvEntry =
  | { kind: 'value'; step: Step }
  | { kind: 'fn'; params: string[]; body: Expr; env: Env; name: string }
  /** A prelude binding (`prelude.ts`), compiled where a model first uses it. */
  | { kind: 'lazy'; body: Expr; env: Env; step: Step | null };

/**
 * A model's top-level bindings, in the order it makes them, each name with its successive
 * bindings. A view of the scope as of binding k sees what was bound up to k, so a function keeps
 * the names of its definition point, while looking a name up costs the same whatever the number of
 * instructions before it (a model of 100 000 `let`s compiles in linear time).
 */
class TopScope {
  private readonly byName = new Map<string, { at: number; entry: EnvEntry }[]>();
  private count = 0;
  /** Adds a group of bindings; returns the point that sees them. */
  bind(entries: [string, EnvEntry][]): number {
    const at = ++this.count;
    for (const [k, entry] of entries) {
      const l = this.byName.get(k);
      if (l) l.push({ at, entry });
      else this.byName.set(k, [{ at, entry }]);
    }
    return at;
  }
  get(name: string, upTo: number): EnvEntry | undefined {
    const l = this.byName.get(name);
    if (!l) return undefined;
    for (let i = l.length - 1; i >= 0; i--) if (l[i]!.at <= upTo) return l[i]!.entry;
    return undefined;
  }
  names(upTo: number): string[] {
    const out: string[] = [];
    for (const [k, l] of this.byName) if (l[0]!.at <= upTo) out.push(k);
    return out;
  }
}

/**
 * Names in scope: local bindings (`let … in`, function parameters, `let rec` members) chained over
 * a view of the top-level scope, itself over the primitives and the prelude (`map` of the root).
 */
class Env {
  constructor(
    private readonly map: Map<string, EnvEntry>,
    private readonly parent: Env | null,
    private readonly top: TopScope | null = null,
    private readonly upTo = 0,
  ) {}
  get(name: string): EnvEntry | undefined {
    if (this.top) return this.top.get(name, this.upTo) ?? this.map.get(name);
    return this.map.get(name) ?? this.parent?.get(name);
  }
  names(): string[] {
    if (this.top) return [...this.top.names(this.upTo), ...this.map.keys()];
    return [...this.map.keys(), ...(this.parent?.names() ?? [])];
  }
  /** A local scope over this one. */
  extend(entries: [string, EnvEntry][]): Env {
    return new Env(new Map(entries), this);
  }
  /** Top-level bindings after this view's (only on a view of the top-level scope). */
  bind(entries: [string, EnvEntry][]): Env {
    const top = this.top!;
    return new Env(this.map, null, top, top.bind(entries));
  }
}

class CompileError extends Error {}

const BUILTIN_FNS = ['domain', 'range'];

/**
 * Compiles `model` against the primitives of one skeleton. `variants` are the names for which
 * `if "name" then … else …` takes its first branch.
 */
/**
 * Operations a model may compile to: far above the largest shipped model's, far below what fills
 * memory (each holds an n×n relation).
 */
export const MAX_STEPS = 200_000;

export function compileModel(model: Model, prims: Primitives, variants: ReadonlySet<string>): Compiled {
  const n = prims.n;
  const w = wordsFor(n);
  const diagnostics: SourceDiagnostic[] = [];
  const top: Step[] = [];
  let list = top;
  const bound = new Map<string, Step>();
  /** Steps made so far (MAX_STEPS), the outermost function application being expanded, the expression being compiled. */
  let made = 0;
  let expandingAt: Span | null = null;
  let compiling: Span | null = null;

  const mkStep = (type: ValueType, tier: Tier, mono: boolean, deps: Step[], run: (s: Step) => void): Step => {
    const rel = type === 'rel' ? relation(n) : null;
    const bits = rel ? rel.bits : new Uint32Array(w);
    const step: Step = {
      type,
      tier,
      mono,
      bits,
      rel,
      run: null,
      deps,
      version: 0,
      seen: new Int32Array(deps.length),
      prev: new Uint32Array(bits.length),
      fresh: true,
      selfVersioned: false,
    };
    step.run = () => run(step);
    list.push(step);
    if (++made > MAX_STEPS)
      err('CAT3008', expandingAt ?? compiling!, { limit: MAX_STEPS.toLocaleString('en-US') });
    return step;
  };
  const fixed = (v: PrimitiveValue): Step => ({
    ...v,
    mono: true,
    run: null,
    deps: [],
    version: 0,
    seen: new Int32Array(0),
    prev: new Uint32Array(0),
    fresh: false,
    selfVersioned: false,
  });

  const universeSet = new Uint32Array(w);
  for (let i = 0; i < n; i++) universeSet[i >>> 5]! |= 1 << (i & 31);
  const allPairs = relation(n);
  for (let i = 0; i < n; i++) allPairs.bits.set(universeSet, i * w);

  const err = (
    code: Parameters<typeof diag>[0],
    span: Span,
    args: Record<string, string | undefined> = {},
  ) => {
    diagnostics.push(diag(code, span, args));
    throw new CompileError();
  };
  const tierOf = (...xs: Step[]): Tier => Math.max(0, ...xs.map((x) => x.tier)) as Tier;
  const zero = (type: ValueType): Step => {
    const rel = type === 'rel' ? relation(n) : null;
    return fixed({ type, tier: 0, bits: rel ? rel.bits : new Uint32Array(w), rel });
  };
  const want = (s: Step, type: ValueType, span: Span, what: string): Step => {
    if (s.type !== type)
      err('CAT3002', span, {
        expected: type === 'rel' ? 'a relation' : 'a set',
        found: s.type === 'rel' ? 'a relation' : 'a set',
        what,
      });
    return s;
  };
  // The nearest known names for an unknown one; past the first hundred (no printer shows more), none,
  // so that a file of many unknown names takes linear time.
  let suggested = 0;
  const suggest = (name: string, env: Env): string[] =>
    suggested++ < 100 ? nearestNames(name, [...env.names(), ...BUILTIN_FNS]) : [];
  /** Marks steps that are the empty literal `0`, whose type follows the other operand. */
  const emptyLit = new WeakSet<Step>();

  const compile = (e: Expr, env: Env): Step => {
    compiling = e.span;
    switch (e.kind) {
      case 'empty': {
        const z = zero('rel');
        emptyLit.add(z);
        return z;
      }
      case 'universe':
        return fixed({ type: 'set', tier: 0, bits: universeSet, rel: null });
      case 'var': {
        const entry = env.get(e.name);
        if (entry?.kind === 'value' && entry.step === undefStep) usesUndef = true;
        if (entry?.kind === 'value') return entry.step;
        if (entry?.kind === 'lazy') {
          if (!entry.step) {
            // Its steps go to the top level, ahead of the step that uses it, wherever that is.
            const outer = list;
            list = top;
            try {
              entry.step = compile(entry.body, entry.env);
            } finally {
              list = outer;
            }
          }
          return entry.step;
        }
        if (entry?.kind === 'fn')
          return err('CAT3003', e.span, { name: e.name, why: 'is a function: apply it, as in f(x)' });
        const lack = prims.lacking.get(e.name);
        if (lack !== undefined) return err('CAT3006', e.span, { name: e.name, why: lack });
        const near = suggest(e.name, env);
        return err('CAT3001', e.span, { name: e.name, near: near.join(', ') || undefined });
      }
      case 'if':
        return compile(variants.has(e.variant) ? e.yes : e.no, env);
      case 'try': {
        // herd7: the alternative when the body fails (an unknown name, a type error).
        const mark = diagnostics.length;
        const at = list.length;
        try {
          return compile(e.body, env);
        } catch (x) {
          if (!(x instanceof CompileError)) throw x;
          diagnostics.length = mark;
          list.length = at;
          return compile(e.alt, env);
        }
      }
      case 'app':
        return apply(e, env);
      case 'let':
        return compile(e.body, env.extend(e.rec ? compileRec(e.bindings, env) : bindLet(e.bindings, env)));
      case 'un':
        return unary(e.op, compile(e.arg, env), e.arg.span);
      case 'bin': {
        let l = compile(e.left, env);
        let r = compile(e.right, env);
        if (e.op === 'seq') {
          if (emptyLit.has(l)) l = zero('rel');
          if (emptyLit.has(r)) r = zero('rel');
          want(l, 'rel', e.left.span, "the left of ';'");
          want(r, 'rel', e.right.span, "the right of ';'");
          return mkStep('rel', tierOf(l, r), l.mono && r.mono, [l, r], (s) =>
            composeInto(s.rel!, l.rel!, r.rel!),
          );
        }
        if (e.op === 'cartesian') {
          if (emptyLit.has(l)) l = zero('set');
          if (emptyLit.has(r)) r = zero('set');
          want(l, 'set', e.left.span, "the left of '*'");
          want(r, 'set', e.right.span, "the right of '*'");
          return mkStep('rel', tierOf(l, r), l.mono && r.mono, [l, r], (s) => {
            const d = s.bits;
            const a = l.bits;
            const b = r.bits;
            for (let i = 0; i < n; i++) {
              const on = ((a[i >>> 5]! >>> (i & 31)) & 1) === 1;
              for (let m = 0; m < w; m++) d[i * w + m] = on ? b[m]! : 0;
            }
          });
        }
        if (emptyLit.has(l) && !emptyLit.has(r)) l = zero(r.type);
        if (emptyLit.has(r) && !emptyLit.has(l)) r = zero(l.type);
        const opName = e.op === 'union' ? "'|'" : e.op === 'inter' ? "'&'" : "'\\'";
        want(
          r,
          l.type,
          e.right.span,
          `the right of ${opName} (the left is ${l.type === 'rel' ? 'a relation' : 'a set'})`,
        );
        const mono = e.op === 'diff' ? l.mono && r.tier < 2 : l.mono && r.mono;
        const a = l.bits;
        const b = r.bits;
        const run =
          e.op === 'union'
            ? (s: Step) => {
                const d = s.bits;
                for (let k = 0; k < d.length; k++) d[k] = a[k]! | b[k]!;
              }
            : e.op === 'inter'
              ? (s: Step) => {
                  const d = s.bits;
                  for (let k = 0; k < d.length; k++) d[k] = a[k]! & b[k]!;
                }
              : (s: Step) => {
                  const d = s.bits;
                  for (let k = 0; k < d.length; k++) d[k] = a[k]! & ~b[k]!;
                };
        return mkStep(l.type, tierOf(l, r), mono, [l, r], run);
      }
    }
  };

  const unary = (op: UnOp, a0: Step, span: Span): Step => {
    let a = a0;
    if (emptyLit.has(a)) a = zero(op === 'toid' ? 'set' : 'rel');
    const t = tierOf(a);
    switch (op) {
      case 'toid':
        want(a, 'set', span, 'the inside of [ ]');
        return mkStep('rel', t, a.mono, [a], (s) => {
          s.bits.fill(0);
          for (let i = 0; i < n; i++)
            if (((a.bits[i >>> 5]! >>> (i & 31)) & 1) === 1) s.bits[i * w + (i >>> 5)]! |= 1 << (i & 31);
        });
      case 'comp': {
        const all = a.type === 'rel' ? allPairs.bits : universeSet;
        return mkStep(a.type, t, t < 2, [a], (s) => {
          const d = s.bits;
          for (let k = 0; k < d.length; k++) d[k] = all[k]! & ~a.bits[k]!;
        });
      }
      case 'inv':
        want(a, 'rel', span, "the argument of '^-1'");
        return mkStep('rel', t, a.mono, [a], (s) => inverseInto(s.rel!, a.rel!));
      case 'plus':
        want(a, 'rel', span, "the argument of '+'");
        return mkStep('rel', t, a.mono, [a], (s) => closureInto(s.rel!, a.rel!));
      case 'star':
        want(a, 'rel', span, "the argument of '*'");
        return mkStep('rel', t, a.mono, [a], (s) => {
          closureInto(s.rel!, a.rel!);
          addIdentity(s.rel!);
        });
      case 'opt':
        want(a, 'rel', span, "the argument of '?'");
        return mkStep('rel', t, a.mono, [a], (s) => {
          s.bits.set(a.bits);
          addIdentity(s.rel!);
        });
    }
  };

  const expanding: string[] = [];
  /**
   * Applications already expanded, by function and argument steps: a function applied again to the
   * same values is the same step (`let f1(x) = f0(f0(x))` nested 19 deep made 2^19 steps, 1.3 GB).
   */
  const expanded = new Map<object, Map<string, Step>>();
  let nextStepId = 0;
  const stepIds = new WeakMap<Step, number>();
  const idOf = (s: Step): number => {
    let id = stepIds.get(s);
    if (id === undefined) {
      id = nextStepId++;
      stepIds.set(s, id);
    }
    return id;
  };
  const apply = (e: Extract<Expr, { kind: 'app' }>, env: Env): Step => {
    if (e.fn === 'domain' || e.fn === 'range') {
      if (e.args.length !== 1) err('CAT3003', e.span, { name: e.fn, why: 'takes one relation' });
      let a = compile(e.args[0]!, env);
      if (emptyLit.has(a)) a = zero('rel');
      want(a, 'rel', e.args[0]!.span, `the argument of ${e.fn}`);
      const dom = e.fn === 'domain';
      return mkStep('set', tierOf(a), a.mono, [a], (s) => {
        const d = s.bits;
        d.fill(0);
        const x = a.bits;
        for (let i = 0; i < n; i++) {
          for (let m = 0; m < w; m++) {
            const v = x[i * w + m]!;
            if (v === 0) continue;
            if (dom) d[i >>> 5]! |= 1 << (i & 31);
            else d[m]! |= v;
          }
        }
      });
    }
    const entry = env.get(e.fn);
    if (!entry) {
      const lack = prims.lacking.get(e.fn);
      if (lack !== undefined) return err('CAT3006', e.span, { name: e.fn, why: lack });
      const near = suggest(e.fn, env);
      return err('CAT3001', e.span, { name: e.fn, near: near.join(', ') || undefined });
    }
    if (entry.kind !== 'fn') return err('CAT3003', e.span, { name: e.fn, why: 'is not a function' });
    if (entry.params.length !== e.args.length)
      err('CAT3003', e.span, {
        name: e.fn,
        why: `takes ${entry.params.length} argument(s), given ${e.args.length}`,
      });
    if (expanding.includes(entry.name)) err('CAT3007', e.span, { name: entry.name });
    const args = e.args.map((a) => compile(a, env));
    let memo = expanded.get(entry);
    if (!memo) {
      memo = new Map();
      expanded.set(entry, memo);
    }
    const key = args.map(idOf).join(',');
    const done = memo.get(key);
    if (done) return done;
    expanding.push(entry.name);
    const outer = expandingAt;
    expandingAt ??= e.span;
    try {
      const step = compile(
        entry.body,
        entry.env.extend(entry.params.map((p, k) => [p, { kind: 'value', step: args[k]! }])),
      );
      memo.set(key, step);
      return step;
    } finally {
      expanding.pop();
      expandingAt = outer;
    }
  };

  /** A `let rec` group: least fixpoint by iteration, every member starting empty. */
  const compileRec = (bs: Binding[], env: Env): [string, EnvEntry][] => {
    for (const b of bs) if (b.params) err('CAT3007', b.span, { name: b.name });
    let types: ValueType[] = bs.map(() => 'rel');
    for (let attempt = 0; attempt < 3; attempt++) {
      const outer = list;
      const inner: Step[] = [];
      list = inner;
      const holders = types.map((t) => zero(t));
      for (const h of holders) h.mono = true;
      const recEnv = env.extend(bs.map((b, k) => [b.name, { kind: 'value', step: holders[k]! }]));
      let bodies: Step[];
      const mark = diagnostics.length;
      try {
        bodies = bs.map((b) => compile(b.body, recEnv));
      } catch (e) {
        // First guess (every member a relation) wrong: try every member a set, then report.
        if (!(e instanceof CompileError) || attempt > 0 || types.every((t) => t === 'set')) throw e;
        diagnostics.length = mark;
        types = bs.map(() => 'set');
        continue;
      } finally {
        list = outer;
      }
      const got = bodies.map((b) => (emptyLit.has(b) ? types[bodies.indexOf(b)]! : b.type));
      if (got.some((t, k) => t !== types[k]) && attempt < 2) {
        types = got;
        continue;
      }
      for (let k = 0; k < bodies.length; k++)
        want(bodies[k]!, holders[k]!.type, bs[k]!.body.span, `the definition of ${bs[k]!.name}`);
      // Tier: the widest of the steps the group reads from outside.
      const tier = tierOf(...inner, ...bodies);
      const mono = inner.every((s) => s.mono) && bodies.every((b) => b.mono);
      // Inner steps that do not read a member are the same in every round: run them once, first.
      const holderSet = new Set<Step>(holders);
      const innerSet = new Set<Step>(inner);
      const varying = new Set<Step>();
      for (const s of inner) if (s.deps.some((d) => holderSet.has(d) || varying.has(d))) varying.add(s);
      const perRound = inner.filter((s) => varying.has(s));
      const once = inner.filter((s) => !varying.has(s));
      const external = [
        ...new Set(
          [...inner.flatMap((s) => s.deps), ...bodies].filter((d) => !innerSet.has(d) && !holderSet.has(d)),
        ),
      ];
      const results = holders.map((h) => mkStep(h.type, tier, mono, external, () => {}));
      const group = results[0]!;
      group.selfVersioned = true;
      group.run = () => {
        for (const s of once) runStep(s);
        for (const h of holders) h.bits.fill(0);
        // A monotone body reaches its least fixpoint within n² rounds; a non-monotone one may
        // oscillate, and stops there (herd7 would not terminate).
        for (let round = 0; round <= n * n + 1; round++) {
          for (const s of perRound) s.run?.();
          let changed = false;
          for (let k = 0; k < holders.length; k++) {
            const hb = holders[k]!.bits;
            const bb = bodies[k]!.bits;
            for (let m = 0; m < hb.length; m++) {
              if (hb[m] !== bb[m]) {
                changed = true;
                hb[m] = bb[m]!;
              }
            }
          }
          if (!changed) break;
        }
        let changed = false;
        for (let k = 0; k < holders.length; k++) {
          const r = results[k]!.bits;
          const h = holders[k]!.bits;
          for (let m = 0; m < r.length; m++) {
            if (r[m] !== h[m]) {
              changed = true;
              r[m] = h[m]!;
            }
          }
        }
        if (changed) group.version++;
      };
      // The other members are filled by the first one's run.
      for (let k = 1; k < results.length; k++) {
        results[k]!.run = null;
        results[k]!.deps = [group];
      }
      return bs.map((b, k) => [b.name, { kind: 'value', step: results[k]! }]);
    }
    // Three attempts always settle the types (rel, set, then what the bodies gave).
    return err('CAT3002', bs[0]!.span, {
      expected: 'a set or a relation',
      found: 'neither',
      what: bs[0]!.name,
    });
  };

  /** Non-recursive bindings: values compiled in `env`, functions closed over it. */
  const bindLet = (bs: Binding[], env0: Env): [string, EnvEntry][] =>
    bs.map((b) => {
      if (b.params) return [b.name, { kind: 'fn', params: b.params, body: b.body, env: env0, name: b.name }];
      const s = compile(b.body, env0);
      return [b.name, { kind: 'value', step: emptyLit.has(s) ? zero('rel') : s }];
    });

  const primSteps = new Map([...prims.values].map(([k, v]) => [k, fixed(v)]));
  // The root scope: the primitives, then herd7's standard names (prelude.ts), each compiled only if
  // the model uses it, in the scope of the root alone.
  const root = new Map<string, EnvEntry>();
  for (const [k, step] of primSteps) root.set(k, { kind: 'value', step });
  const base = new Env(root, null, new TopScope(), 0);
  for (const ins of prelude().instrs) {
    if (ins.kind !== 'let') continue;
    for (const b of ins.bindings)
      root.set(
        b.name,
        b.params
          ? { kind: 'fn', params: b.params, body: b.body, env: base, name: b.name }
          : { kind: 'lazy', body: b.body, env: base, step: null },
      );
  }
  let env = base;
  const undefEntry = env.get('Undef');
  const undefStep = undefEntry?.kind === 'value' ? undefEntry.step : null;
  let usesUndef = false;
  const checks: CompiledCheck[] = [];
  const visit = (ins: Instr) => {
    try {
      switch (ins.kind) {
        case 'let': {
          const entries = bindLet(ins.bindings, env);
          env = env.bind(entries);
          for (const [k, v] of entries) if (v.kind === 'value') bound.set(k, v.step);
          return;
        }
        case 'rec': {
          env = env.bind(compileRec(ins.bindings, env));
          for (const b of ins.bindings) {
            const v = env.get(b.name);
            if (v?.kind === 'value') bound.set(b.name, v.step);
          }
          return;
        }
        case 'check': {
          let s = compile(ins.expr, env);
          if (emptyLit.has(s)) s = zero('rel');
          if (ins.test !== 'empty') want(s, 'rel', ins.expr.span, `the argument of ${ins.test}`);
          checks.push({
            test: ins.test,
            negated: ins.negated,
            flag: ins.flag,
            name: ins.name,
            span: ins.span,
            step: s,
            prunable: !ins.flag && !ins.negated && s.mono,
          });
          return;
        }
        case 'show':
          if (ins.expr) {
            // Checked, never evaluated: its steps go to a list no one runs.
            const outer = list;
            list = [];
            try {
              compile(ins.expr, env);
            } finally {
              list = outer;
            }
          }
          for (const name of ins.names) {
            const v = env.get(name);
            if (!v) {
              const near = suggest(name, env);
              err('CAT3001', ins.span, { name, near: near.join(', ') || undefined });
            }
          }
          return;
        case 'include':
          // `loadModel` splices includes in; one left here could not be read.
          return;
      }
    } catch (e) {
      if (!(e instanceof CompileError)) throw e;
      // Bind what failed to an empty relation so one mistake is reported once, not at every use.
      if (ins.kind === 'let' || ins.kind === 'rec')
        env = env.bind(ins.bindings.map((b) => [b.name, { kind: 'value', step: zero('rel') }]));
    }
  };
  for (const ins of model.instrs) visit(ins);
  return { n, steps: top, checks, bound, diagnostics, usesUndef, prims: primSteps };
}

/** Whether a check's test holds on its step's current value (before negation). */
export function testHolds(test: CheckKind, s: Step, scratch: Uint32Array): boolean {
  if (test === 'empty') {
    const b = s.bits;
    for (let k = 0; k < b.length; k++) if (b[k] !== 0) return false;
    return true;
  }
  const r = s.rel!;
  if (test === 'acyclic') return isAcyclic(r, scratch);
  for (let i = 0; i < r.n; i++) if (has(r, i, i)) return false;
  return true;
}

/** Whether a (non-flag) check passes. */
export function checkPasses(c: CompiledCheck, scratch: Uint32Array): boolean {
  return testHolds(c.test, c.step, scratch) !== c.negated;
}

/**
 * Why a check fails, as events: a cycle for `acyclic`, the reflexive element for `irreflexive`,
 * one pair or element for `empty`; empty for a negated check (it fails because its relation is
 * *absent*, which no single element shows).
 */
export function checkWitness(c: CompiledCheck): number[] {
  if (c.negated) return [];
  const s = c.step;
  if (c.test === 'acyclic') return findCycle(s.rel!) ?? [];
  const n = s.rel ? s.rel.n : s.bits.length * 32;
  if (c.test === 'irreflexive') {
    for (let i = 0; i < n; i++) if (has(s.rel!, i, i)) return [i];
    return [];
  }
  if (s.rel) {
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) if (has(s.rel, i, j)) return [i, j];
    return [];
  }
  for (let i = 0; i < n; i++) if (((s.bits[i >>> 5]! >>> (i & 31)) & 1) === 1) return [i];
  return [];
}
