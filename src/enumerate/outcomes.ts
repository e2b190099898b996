/**
 * From consistent executions to a verdict: the observed values (final registers and memory), the
 * final states with counts, flags (data races, undef reads) and the condition's three-valued truth.
 */

import { has } from '../core/relation.ts';
import { assertNever, type Cond, type Quantifier, type Test } from '../core/types.ts';
import { isUndef, widthOf, wrap } from '../core/values.ts';
import type { ThreadProgram } from '../events/program.ts';
import type { Skeleton } from '../events/skeleton.ts';
import type { Workspace } from '../models/amdgpu.ts';

/** A value the test observes at the end: a thread's register or a location's final value. */
export type Observable =
  | { kind: 'reg'; label: string; thread: number; reg: number }
  | { kind: 'mem'; label: string; loc: number };

export type Truth = 'true' | 'false' | 'unknown';

/** Whether the final condition holds over all consistent executions. */
export type ConditionVerdict = 'holds' | 'fails' | 'unknown';

function stripPct(r: string): string {
  return r.startsWith('%') ? r.slice(1) : r;
}

function findReg(p: ThreadProgram, name: string): number {
  return p.regIndex.get(name) ?? p.regIndex.get(stripPct(name)) ?? p.regIndex.get(`%${name}`) ?? -1;
}

/** Resolves a location term (`@x`, or `P1:@x` for LDS) to a location instance id, or -1. */
export function resolveLoc(sk: Skeleton, loc: string, thread: string | null): number {
  const name = loc.startsWith('@') ? loc.slice(1) : loc;
  const cands = sk.locs.filter((l) => l.name === name);
  if (thread === null) return cands.length === 1 ? cands[0]!.id : -1;
  const t = sk.test.threads.findIndex((th) => th.name === thread);
  if (t < 0) return -1;
  const pl = sk.test.threads[t]!.placement;
  const owner =
    cands[0]?.space === 'private'
      ? `t${t}`
      : cands[0]?.space === 'local' && pl.kind === 'device'
        ? `a${pl.agent}.c${pl.cluster}.w${pl.workgroup}`
        : null;
  return cands.find((l) => l.owner === owner)?.id ?? -1;
}

/** Problems resolving the condition's terms. */
export interface ObservableError {
  message: string;
}

/**
 * What a final state shows: `all` — the condition's terms, then every register a read or a
 * `signal.isfirst` writes (what each thread saw); `condition` — the condition's terms only, as
 * herd7 lists them (far fewer states, and reads nothing observes are counted, not enumerated).
 */
export type ObserveMode = 'all' | 'condition';

/**
 * The observables of a test: the terms of its condition, then (`observe: 'all'`) every register a
 * read or a `signal.isfirst` writes, without duplicates.
 */
export function observables(
  sk: Skeleton,
  programs: ThreadProgram[],
  errors: ObservableError[] = [],
  observe: ObserveMode = 'all',
): Observable[] {
  const out: Observable[] = [];
  const seen = new Set<string>();
  const push = (o: Observable) => {
    if (seen.has(o.label)) return;
    seen.add(o.label);
    out.push(o);
  };
  const visit = (c: Cond) => {
    switch (c.kind) {
      case 'true':
      case 'false':
        return;
      case 'not':
        visit(c.arg);
        return;
      case 'and':
      case 'or':
        c.args.forEach(visit);
        return;
      case 'cmp': {
        const t = c.lhs;
        if (t.kind === 'reg') {
          const ti = sk.test.threads.findIndex((th) => th.name === t.thread);
          const ri = ti >= 0 ? findReg(programs[ti]!, t.reg) : -1;
          if (ri < 0) errors.push({ message: `unknown register ${t.thread}:${t.reg} in condition` });
          else push({ kind: 'reg', label: `${t.thread}:${stripPct(t.reg)}`, thread: ti, reg: ri });
        } else {
          const li = resolveLoc(sk, t.loc, t.thread);
          if (li < 0)
            errors.push({
              message: `unknown or ambiguous location ${t.thread ? `${t.thread}:` : ''}@${t.loc}`,
            });
          else
            push({
              kind: 'mem',
              label: `${t.thread ? `${t.thread}:` : ''}@${t.loc.replace(/^@/, '')}`,
              loc: li,
            });
        }
        return;
      }
      default:
        assertNever(c, 'condition');
    }
  };
  if (sk.test.condition) visit(sk.test.condition.cond);
  if (observe === 'condition') return out;
  sk.test.threads.forEach((th, t) => {
    th.body.forEach((ins) => {
      const dst =
        ins.kind === 'load' || ins.kind === 'avload' || ins.kind === 'rmw' || ins.kind === 'cmpxchg'
          ? ins.dst
          : ins.kind === 'barrier' && ins.op === 'signal_isfirst'
            ? ins.dst
            : null;
      if (dst === null) return;
      const ri = findReg(programs[t]!, dst);
      if (ri >= 0) push({ kind: 'reg', label: `${th.name}:${stripPct(dst)}`, thread: t, reg: ri });
    });
  });
  return out;
}

/**
 * The final value of location instance `l`: its co-last write's value, `undef` unless every other
 * write to it is location-ordered before that write or is an atomic write inclusive with it
 * (DESIGN, "A location's final value …").
 */
export function finalValue(ws: Workspace, l: number): number {
  const ws2 = ws.sk.writesByLoc[l]!;
  let last = -1;
  for (const w of ws2) if (last < 0 || ws.coRank[w]! > ws.coRank[last]!) last = w;
  if (last < 0) return Number.NaN;
  for (const w of ws2) {
    if (w === last) continue;
    if (!has(ws.lo, w, last) && !has(ws.sk.ai, w, last)) return Number.NaN;
  }
  return ws.evaluator.writeVal[last]!;
}

/** Fills `out` with the observables' values for the execution loaded in `ws` (after evaluation). */
export function observe(ws: Workspace, obs: Observable[], out: Float64Array): void {
  for (let k = 0; k < obs.length; k++) {
    const o = obs[k]!;
    out[k] = o.kind === 'reg' ? ws.evaluator.regs[o.thread]![o.reg]! : finalValue(ws, o.loc);
  }
}

/**
 * Pairs of events that race unless hb orders them: same location, one a write, not both atomic
 * with inclusive scopes, not the initial write, not in the same thread.
 */
export function racePairs(sk: Skeleton): Int32Array {
  const out: number[] = [];
  const ev = sk.events;
  for (const a of ev) {
    if (a.loc < 0 || a.kind === 'init') continue;
    for (const b of ev) {
      if (b.id <= a.id || b.loc !== a.loc || b.kind === 'init') continue;
      if (a.kind === 'read' && b.kind === 'read') continue;
      if (has(sk.ai, a.id, b.id) || a.thread === b.thread) continue;
      out.push(a.id, b.id);
    }
  }
  return Int32Array.from(out);
}

/**
 * The first pair of `pairs` unordered by hb (the hb of the pair's address-space class, see
 * docs/model.md choice 6), as an index into `pairs`, or -1.
 */
export function firstRace(ws: Workspace, pairs: Int32Array): number {
  for (let k = 0; k < pairs.length; k += 2) {
    const a = pairs[k]!;
    const b = pairs[k + 1]!;
    const hb = ws.hbOf(a);
    if (!has(hb, a, b) && !has(hb, b, a)) return k;
  }
  return -1;
}

/** Three-valued truth of the condition on one final state (Kleene logic; `undef` compares unknown). */
export function evalCond(
  c: Cond,
  value: (label: string) => number | undefined,
  labelOf: (c: Cond) => string,
  widthOfTerm: (c: Cond) => number = () => 32,
): Truth {
  switch (c.kind) {
    case 'true':
      return 'true';
    case 'false':
      return 'false';
    case 'not': {
      const v = evalCond(c.arg, value, labelOf, widthOfTerm);
      return v === 'unknown' ? v : v === 'true' ? 'false' : 'true';
    }
    case 'and': {
      let r: Truth = 'true';
      for (const a of c.args) {
        const v = evalCond(a, value, labelOf, widthOfTerm);
        if (v === 'false') return 'false';
        if (v === 'unknown') r = 'unknown';
      }
      return r;
    }
    case 'or': {
      let r: Truth = 'false';
      for (const a of c.args) {
        const v = evalCond(a, value, labelOf, widthOfTerm);
        if (v === 'true') return 'true';
        if (v === 'unknown') r = 'unknown';
      }
      return r;
    }
    case 'cmp': {
      const v = value(labelOf(c));
      if (v === undefined) return 'unknown';
      let t: Truth;
      if (c.rhs.kind === 'undef') t = isUndef(v) ? 'true' : 'false';
      else if (isUndef(v)) t = 'unknown';
      // Values are kept as unsigned bits of their type: `i8 -1` and `255` are the same value.
      else t = v === wrap(c.rhs.value, widthOfTerm(c)) ? 'true' : 'false';
      if (c.op === '!=') t = t === 'unknown' ? t : t === 'true' ? 'false' : 'true';
      return t;
    }
    default:
      return assertNever(c, 'condition');
  }
}

/** The label a `cmp` condition's term has among the observables. */
export function termLabel(c: Cond): string {
  if (c.kind !== 'cmp') return '';
  const t = c.lhs;
  return t.kind === 'reg'
    ? `${t.thread}:${stripPct(t.reg)}`
    : `${t.thread ? `${t.thread}:` : ''}@${t.loc.replace(/^@/, '')}`;
}

/**
 * The condition verdict over all final states (`exists`: some state satisfies it; `not exists`: none
 * does; `forall`: all do), with `unknown` when the answer depends on what undef values turn out to be.
 */
export function conditionVerdict(
  test: { condition: { quantifier: Quantifier } | null },
  truths: Truth[],
): ConditionVerdict | null {
  const q = test.condition?.quantifier;
  if (!q) return null;
  const some = (t: Truth) => truths.includes(t);
  switch (q) {
    case 'exists':
      return some('true') ? 'holds' : some('unknown') ? 'unknown' : 'fails';
    case 'not exists':
      return some('true') ? 'fails' : some('unknown') ? 'unknown' : 'holds';
    case 'forall':
      return some('false') ? 'fails' : some('unknown') ? 'unknown' : 'holds';
    default:
      return assertNever(q, 'quantifier');
  }
}

/**
 * The bit width of a condition term's value: the type of the instruction that defines the register
 * (`icmp` and a cmpxchg's success flag are i1) or of the location.
 */
export function termWidth(test: Test, c: Cond): number {
  if (c.kind !== 'cmp') return 32;
  const t = c.lhs;
  if (t.kind === 'mem') {
    const loc = test.locations.find((l) => l.name === t.loc.replace(/^@/, ''));
    return loc ? widthOf(loc.type) : 32;
  }
  const body = test.threads.find((th) => th.name === t.thread)?.body ?? [];
  const name = stripPct(t.reg);
  const def = body.find((i) => 'dst' in i && i.dst === name);
  if (!def) return 32;
  if (def.kind === 'icmp' || def.kind === 'barrier') return 1;
  if (def.kind === 'extract') {
    if (def.index === 1) return 1;
    const src = body.find((i) => i.kind === 'cmpxchg' && i.dst === def.src);
    return src && src.kind === 'cmpxchg' ? widthOf(src.type) : 32;
  }
  return 'type' in def ? widthOf(def.type) : 32;
}
