/**
 * A Vulkan test as the searches see it (the cat enumerator's `CatFront`, shared by the fast search):
 * its variants (`src/vulkan/paths.ts`) with their events (`src/vulkan/events.ts`), the observables
 * of a final state, the filter, and the condition's value on a final state.
 *
 * Observables: the condition's terms, then every register a load or RMW assigns, per thread.
 * A register a variant never assigns (its thread stopped at a barrier, or a branch skipped the
 * assignment, and the test gives it no initial value) has no value: `UNSET`. A final state with an
 * unset register in the condition is not counted for the condition (Dartagnan gives such a
 * register no value either; docs/model-vulkan.md, "Registers without a value").
 * No Node APIs here.
 */
import type { CatFront, CatVariantInput } from '../cat/enumerate.ts';
import { finalValue } from '../cat/enumerate.ts';
import { assertNever } from '../core/types.ts';
import { isUndef, wrap } from '../core/values.ts';
import type { Truth } from '../enumerate/outcomes.ts';
import { Evaluator } from '../events/program.ts';
import { forEachVkTerm, type VkCond, type VkTerm, type VulkanTest } from './ast.ts';
import { buildVulkanPrimitives } from './cat-primitives.ts';
import { buildVkSkeleton, locationsOf, UNSET, type VkSkeleton } from './events.ts';
import { DEFAULT_UNROLL, type Variant, variantsOf } from './paths.ts';
import { printDat3mInstr } from './print.ts';
import { readConstraints, rfDomainOf, staticWriteValues } from './statics.ts';

/** A term's observable label: `P0:r0`, or `@x` for a location's final value. */
export function vkTermLabel(t: VkTerm): string | null {
  return t.kind === 'reg' ? `${t.thread}:${t.reg}` : t.kind === 'mem' ? `@${t.loc}` : null;
}

/**
 * Every observable label of a Vulkan test, in report order: the condition's terms, then (`all`)
 * every register a read writes, then the filter's terms.
 */
export function vkLabels(test: VulkanTest, observe: 'all' | 'condition' = 'all'): string[] {
  const out: string[] = [];
  const push = (l: string | null) => {
    if (l !== null && !out.includes(l)) out.push(l);
  };
  const visit = (c: VkCond) => forEachVkTerm(c, (x) => push(vkTermLabel(x)));
  if (test.condition) visit(test.condition.cond);
  if (observe === 'all')
    for (const th of test.threads)
      for (const i of th.body) if (i.kind === 'ld' || i.kind === 'rmw') push(`${th.name}:${i.dst}`);
  if (test.filter) visit(test.filter);
  return out;
}

/**
 * The truth of `c` on a final state (`value(label)`): 'unset' when a term has no value, 'unknown'
 * when one is undef (a location's final value after a race).
 */
export function evalVkCond(c: VkCond, value: (label: string) => number): Truth | 'unset' {
  return compileVkCond(c, (t) => {
    const l = vkTermLabel(t)!;
    return () => value(l);
  })();
}

/**
 * `c` compiled against a final state's columns: `column(term)` gives a reader of a term's value.
 * The result gives the condition's truth ('unset', 'unknown' as `evalVkCond`).
 */
export function compileVkCond(
  c: VkCond,
  column: (t: Exclude<VkTerm, { kind: 'const' }>) => () => number,
): () => Truth | 'unset' {
  const term = (t: VkTerm): (() => number) => {
    if (t.kind === 'const') {
      const v = wrap(t.value, 32);
      return () => v;
    }
    return column(t);
  };
  switch (c.kind) {
    case 'true':
      return () => 'true';
    case 'false':
      return () => 'false';
    case 'cmp': {
      const a = term(c.lhs);
      const b = term(c.rhs);
      const op = c.op;
      // The usual atom, `P0:r0 == 1`: one column read, against a constant known now.
      const k = c.rhs.kind === 'const' && op === '==' ? wrap(c.rhs.value, 32) : UNSET;
      if (k !== UNSET)
        return () => {
          const x = a();
          if (x === UNSET) return 'unset';
          if (isUndef(x)) return 'unknown';
          return x === k ? 'true' : 'false';
        };
      return () => {
        const x = a();
        const y = b();
        if (x === UNSET || y === UNSET) return 'unset';
        if (isUndef(x) || isUndef(y)) return 'unknown';
        // Values are 32-bit; comparisons other than equality are signed, as Dartagnan's integers.
        let r: boolean;
        switch (op) {
          case '==':
            r = x === y;
            break;
          case '!=':
            r = x !== y;
            break;
          case '<':
            r = (x | 0) < (y | 0);
            break;
          case '<=':
            r = (x | 0) <= (y | 0);
            break;
          case '>':
            r = (x | 0) > (y | 0);
            break;
          case '>=':
            r = (x | 0) >= (y | 0);
            break;
        }
        return r ? 'true' : 'false';
      };
    }
    case 'not': {
      const arg = compileVkCond(c.arg, column);
      return () => {
        const v = arg();
        return v === 'true' ? 'false' : v === 'false' ? 'true' : v;
      };
    }
    case 'and':
    case 'or': {
      const args = c.args.map((a) => compileVkCond(a, column));
      const stop = c.kind === 'and' ? 'false' : 'true';
      const start = c.kind === 'and' ? 'true' : 'false';
      return () => {
        let r: Truth | 'unset' = start;
        for (let k = 0; k < args.length; k++) {
          const v = args[k]!();
          if (v === 'unset') return 'unset';
          if (v === stop) r = stop;
          else if (v === 'unknown' && r !== stop) r = 'unknown';
        }
        return r;
      };
    }
    default:
      return assertNever(c, 'condition');
  }
}

/** `c` as a function of a final state's values, columns named by `labels`. */
export function condOnValues(
  c: VkCond,
  labels: readonly string[],
): (vals: ArrayLike<number>) => Truth | 'unset' {
  const index = new Map(labels.map((l, k) => [l, k]));
  let cur: ArrayLike<number> = [];
  const f = compileVkCond(c, (t) => {
    const k = index.get(vkTermLabel(t)!)!;
    return () => cur[k]!;
  });
  return (vals) => {
    cur = vals;
    return f();
  };
}

/** Options that shape a Vulkan test's variants and final states. */
export interface VkFrontOptions {
  /** How many times a loop that is not an await loop may jump back. */
  unroll: number;
  /** `all`: every register a read writes, and the condition's terms; `condition`: its terms only. */
  observe: 'all' | 'condition';
}

export const DEFAULT_VK_FRONT: VkFrontOptions = { unroll: DEFAULT_UNROLL, observe: 'all' };

/** A Vulkan test's front: variants, observables, and what each variant's searches need. */
export interface VkFront extends CatFront {
  vtest: VulkanTest;
  variants: Variant[];
  /** Some path takes more loop iterations than `--unroll` allows. */
  tooManyPaths: boolean;
  /** A consistent execution reached a cut path (set during a search). */
  boundReached: boolean;
  skeleton(index: number): VkSkeleton;
}

/** The front of `test`. */
export function vulkanFront(test: VulkanTest, opts: VkFrontOptions = DEFAULT_VK_FRONT): VkFront {
  const { variants, tooMany } = variantsOf(test, opts.unroll);
  const labels = vkLabels(test, opts.observe);
  const { rootOf, names } = locationsOf(test);
  const filter = test.filter ? condOnValues(test.filter, labels) : null;
  // The constants the condition and the filter compare with belong to the domain of thin-air
  // values (`Evaluator`, docs/model-vulkan.md "Values"): `== 42` can be witnessed.
  const constants: number[] = [];
  const visit = (c: VkCond) =>
    forEachVkTerm(c, (x) => {
      if (x.kind === 'const') constants.push(x.value);
    });
  if (test.condition) visit(test.condition.cond);
  if (test.filter) visit(test.filter);
  const skeletons = new Map<number, VkSkeleton>();
  const skeleton = (index: number): VkSkeleton => {
    let sk = skeletons.get(index);
    if (!sk) {
      sk = buildVkSkeleton(test, variants[index]!, index);
      skeletons.set(index, sk);
    }
    return sk;
  };
  const front: VkFront = {
    test: null,
    vtest: test,
    labels,
    variants,
    tooManyPaths: tooMany,
    boundReached: false,
    variantCount: variants.length,
    skeleton,
    variant(index: number): CatVariantInput {
      const sk = skeleton(index);
      const { prims, cand } = buildVulkanPrimitives(sk);
      const evaluator = new Evaluator(sk, sk.programs, constants);
      const observe = observer(sk, labels, rootOf, names, evaluator);
      const v = variants[index]!;
      return {
        n: sk.n,
        writesByLoc: sk.writesByLoc,
        isInit: (w) => sk.events[w]!.kind === 'init',
        reads: sk.reads,
        locOf: (e) => sk.events[e]!.loc,
        rfDomain: rfDomainOf(staticWriteValues(sk), readConstraints(sk, test)),
        prims,
        cand,
        evaluator,
        ub: v.blocked.length > 0,
        describe: (e) => describeVkEvent(sk, e),
        observe(out, coRank, fu) {
          observe(out, coRank, fu);
          if (v.cut) {
            front.boundReached = true;
            return false;
          }
          return filter === null || filter(out) === 'true';
        },
      };
    },
  };
  return front;
}

/** Fills a final state: registers from the evaluator, locations from the co-last write. */
export function observer(
  sk: VkSkeleton,
  labels: readonly string[],
  rootOf: Map<string, string>,
  names: readonly string[],
  evaluator: Evaluator,
): (out: Float64Array, coRank: Int32Array, fu: Uint32Array | null) => void {
  const getters = labels.map((l) => {
    if (l.startsWith('@')) {
      const loc = names.indexOf(rootOf.get(l.slice(1)) ?? l.slice(1));
      return (coRank: Int32Array, fu: Uint32Array | null) =>
        loc < 0 ? UNSET : finalValue(sk.writesByLoc[loc]!, coRank, fu, evaluator.writeVal);
    }
    const colon = l.indexOf(':');
    const t = sk.test.threads.findIndex((th) => th.name === l.slice(0, colon));
    const slot = t < 0 ? undefined : sk.finalSlot[t]!.get(l.slice(colon + 1));
    return () => (slot === undefined ? UNSET : evaluator.regs[t]![slot]!);
  });
  return (out, coRank, fu) => {
    for (let k = 0; k < getters.length; k++) out[k] = getters[k]!(coRank, fu);
  };
}

/** `P0:3 ld.atom.acq.wg.sc0.semsc0 r0, y` (line-in-thread, 1-based), or the initial write. */
export function describeVkEvent(sk: VkSkeleton, id: number): string {
  const e = sk.events[id]!;
  if (e.kind === 'init') {
    const l = sk.locs[e.loc]!;
    return `the initial value of ${l.name} (${l.init})`;
  }
  const th = sk.test.threads[e.thread]!;
  const ins = th.body[e.instr]!;
  const half = e.rmw >= 0 ? (e.kind === 'read' ? 'the read of ' : 'the write of ') : '';
  return `${half}${th.name}:${e.instr + 1} \`${printDat3mInstr(ins)}\``;
}
