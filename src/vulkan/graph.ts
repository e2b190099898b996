/**
 * One execution of a Vulkan test drawn as `gpumm run --graph` draws an AMDGPU one
 * (`src/enumerate/graph.ts`, `drawDot`): threads as columns inside their queue family, workgroup and
 * subgroup instances, and the relations of a cat model evaluated on the candidate
 * (`replayCandidate`) under the toggles' names — for models/vulkan.cat: synchronizes-with (and the
 * control-barrier instances), happens-before, availability and visibility chains (labelled with the
 * widest domain they reach), location order. A model that binds none of these draws po, rf and co.
 * No Node APIs here: the web page imports this file.
 */
import type { Model } from '../cat/ast.ts';
import { replayCandidate } from '../cat/enumerate.ts';
import { type Compiled, compileModel } from '../cat/eval.ts';
import { closureInto, has, type Relation, relation } from '../core/relation.ts';
import { isUndef } from '../core/values.ts';
import { type DrawnEdge, drawDot, type EdgeKind, type GraphOptions, immediate } from '../enumerate/graph.ts';
import { buildVulkanPrimitives } from './cat-primitives.ts';
import type { VkSkeleton } from './events.ts';
import type { VkFront } from './front.ts';
import { printDat3mInstr } from './print.ts';

/** The domain names of the availability / visibility chains of models/vulkan.cat, widest first. */
const DOMAINS = [
  ['sh', 'shader'],
  ['qf', 'queue family'],
  ['wg', 'workgroup'],
  ['sg', 'subgroup'],
] as const;

/** Which bindings of a Vulkan cat model each toggle draws (models/vulkan.cat's names). */
const BINDINGS: Partial<Record<EdgeKind, readonly string[]>> = {
  sw: ['sw'],
  hb: ['hb'],
  lo: ['locord'],
  av: DOMAINS.map(([d]) => `av${d}`),
  vis: DOMAINS.map(([d]) => `vis${d}`),
};

function relationOf(c: Compiled, name: string): Relation | null {
  const s = c.bound.get(name);
  return s && s.type === 'rel' ? s.rel : null;
}

/** The edge kinds a compiled Vulkan cat model can draw: po, rf, co, and each toggle whose bindings it has. */
export function vulkanEdgeKinds(c: Compiled): EdgeKind[] {
  const out: EdgeKind[] = ['po', 'rf', 'co'];
  for (const [kind, names] of Object.entries(BINDINGS) as [EdgeKind, readonly string[]][])
    if (names.every((n) => relationOf(c, n) !== null)) out.push(kind);
  return out;
}

/** The edge kinds `model` draws on Vulkan test `front` (compiled for its first variant). */
export function vulkanModelEdgeKinds(
  front: VkFront,
  model: Model,
  variants: ReadonlySet<string>,
): EdgeKind[] {
  if (front.variantCount === 0) return ['po', 'rf', 'co'];
  return vulkanEdgeKinds(compileModel(model, buildVulkanPrimitives(front.skeleton(0)).prims, variants));
}

/** `init x = 0`, `P1:2 ld.vis.dv.sc0 r1, x = 0`, `P0:1 rmw.atom.acq.dv.sc0 r0, x, 1 (read) = 0`. */
function vkLabel(sk: VkSkeleton, e: number, value: number | null): string {
  const ev = sk.events[e]!;
  const v = value === null ? '' : ` = ${isUndef(value) ? 'undef' : value}`;
  if (ev.kind === 'init') return `init ${sk.locs[ev.loc]!.name}${v}`;
  const th = sk.test.threads[ev.thread]!;
  const half = ev.rmw >= 0 ? (ev.kind === 'read' ? ' (read)' : ' (write)') : '';
  return `${th.name}:${ev.instr + 1} ${printDat3mInstr(th.body[ev.instr]!)}${half}${v}`;
}

/**
 * DOT text of candidate (`rfSrc`, `coRank`) of variant `variant` of a Vulkan test under `model`,
 * with the edges `opts.edges` asks for among those the model binds.
 */
export function vulkanDot(
  front: VkFront,
  variant: number,
  model: Model,
  variants: ReadonlySet<string>,
  rfSrc: Int32Array,
  coRank: Int32Array,
  title: string,
  opts: GraphOptions,
): string {
  const sk = front.skeleton(variant);
  const input = front.variant(variant);
  const c = replayCandidate(input, model, variants, rfSrc, coRank);
  // The values of the candidate's valuation `opts.solution` (a value cycle has one per solution).
  const count = input.evaluator.valuations(rfSrc);
  const ok = count > 0;
  if (ok && (opts.solution ?? 0) > 0 && (opts.solution ?? 0) < count)
    input.evaluator.loadSolution(opts.solution!);
  const vals = input.evaluator.writeVal;
  const n = sk.n;
  const isInit = (e: number) => sk.events[e]!.kind === 'init';
  const show = new Set(vulkanEdgeKinds(c).filter((k) => opts.edges.includes(k)));
  const edges: DrawnEdge[] = [];
  const edge = (from: number, to: number, name: string, kind: DrawnEdge['kind']) =>
    edges.push({ from, to, name, kind });
  const po = immediate(sk.po);
  const co = immediate(input.cand.co);
  let hb: Relation | null = null;
  const hbRel = show.has('hb') ? relationOf(c, 'hb') : null;
  if (hbRel) {
    hb = relation(n);
    closureInto(hb, hbRel);
    hb = immediate(hb);
  }
  const sw = show.has('sw') ? relationOf(c, 'sw') : null;
  const lo = show.has('lo') ? relationOf(c, 'locord') : null;
  const chains = (kind: 'av' | 'vis') =>
    show.has(kind) ? DOMAINS.map(([d]) => [d, relationOf(c, `${kind}${d}`)!] as const) : [];
  const av = chains('av');
  const vis = chains('vis');
  for (let a = 0; a < n; a++)
    for (let b = 0; b < n; b++) {
      if (has(po, a, b)) edge(a, b, 'po', 'po');
      if (rfSrc[b] === a) edge(a, b, 'rf', 'rf');
      if (has(co, a, b)) edge(a, b, 'co', 'co');
      if (sw && has(sw, a, b)) edge(a, b, 'sw', 'sw');
      if (show.has('sw') && a < b && has(sk.syncbar, a, b)) edge(a, b, 'cbar instance', 'barrier');
      if (hb && has(hb, a, b) && !has(sk.po, a, b) && !isInit(a)) edge(a, b, 'hb', 'hb');
      if (a !== b) {
        // The widest domain the chain reaches (every narrower one holds the pair too).
        const widest = (rs: readonly (readonly [string, Relation])[]) =>
          rs.find(([, r]) => has(r, a, b))?.[0];
        const da = widest(av);
        if (da) edge(a, b, `av ${da}`, 'av');
        const dv = widest(vis);
        if (dv) edge(a, b, `vis ${dv}`, 'vis');
      }
      if (lo && a !== b && has(lo, a, b) && !isInit(a)) edge(a, b, 'lo', 'lo');
    }
  const valued = (e: number) => {
    const k = sk.events[e]!.kind;
    if (!ok || (k !== 'read' && k !== 'write' && k !== 'init')) return null;
    return k === 'read' && rfSrc[e] === -1 ? Number.NaN : vals[e]!;
  };
  return drawDot(
    {
      title,
      events: sk.events.map((e) => ({
        id: e.id,
        thread: e.kind === 'init' ? -1 : e.thread,
        label: vkLabel(sk, e.id, valued(e.id)),
      })),
      threads: sk.test.threads.map((t) => ({
        name: t.name,
        boxes: [
          `queue family ${t.placement.queueFamily}`,
          `workgroup ${t.placement.workgroup}`,
          `subgroup ${t.placement.subgroup}`,
        ],
      })),
      edges,
    },
    opts,
  );
}
