/**
 * Running a lowered test on a family's machine: every placement the mode allows, each explored
 * exhaustively, final states merged (each remembers the first placement that produced it), and the
 * observables named as the model's reports name them (`P0:r0`, `@x`, `P1:@x`).
 *
 * No Node APIs here.
 */

import { diagnosticLine } from '../core/diagnostics.ts';
import type { Test } from '../core/types.ts';
import type { AssumptionId } from './assumptions.ts';
import type { FamilyConfig, FamilyMachine, MachineMode } from './config.ts';
import {
  buildMachine,
  type ExploreOptions,
  Explorer,
  type ExploreStop,
  type Machine,
  type MachineOutcome,
  type Step,
  traceTo,
} from './machine.ts';
import { placements, type Shape } from './placement.ts';
import { compileProgram, type LoweredCode, type MInstr, type MProgram } from './program.ts';

/** One final state of the machine and the first placement that reaches it. */
export interface SimOutcome {
  key: string;
  outcome: MachineOutcome;
  placement: number;
}

export interface SimResult {
  kind: 'done';
  /** The program of the first configuration (locations and registers are the same in every one). */
  program: MProgram;
  machines: Machine[];
  outcomes: SimOutcome[];
  deadlock: boolean;
  /** States visited, summed over configurations and placements. */
  states: number;
  stop: ExploreStop;
}

/** The test cannot run on the machine (an instruction it does not implement, a host thread). */
export interface SimUnsupported {
  kind: 'unsupported';
  reason: string;
}

/**
 * Does the test use its clusters: a cluster-scope operation or a cluster barrier? Only then must a
 * cluster's work-groups share a shader engine: a test that does not may also be launched without
 * clusters, its work-groups anywhere (docs/hardware.md, "Thread placement").
 */
export function usesClusters(test: Test): boolean {
  return test.threads.some((th) =>
    th.body.some((i) =>
      i.kind === 'barrier'
        ? i.id === -3 || i.id === -4
        : 'syncscope' in i
          ? i.syncscope.scope === 'cluster'
          : 'scope' in i && i.scope === 'cluster',
    ),
  );
}

/** The placement shape of a configuration in a mode, for `test`. */
export function shapeOf(cfg: FamilyConfig, mode: MachineMode, test: Test): Shape {
  return {
    cusPerWgp: cfg.cusPerWgp,
    mode,
    shaderArrays: cfg.levels.some((l) => l.unit === 'sa'),
    l2Groups: cfg.levels.some((l) => l.unit === 'l2'),
    clusterSa: cfg.clusterUnit === 'sa' && usesClusters(test),
    maxL2: cfg.maxL2PerAgent,
    labels: cfg.labels,
  };
}

/**
 * R5 (docs/hardware.md): the units whose cache levels no access of the program is performed in — every
 * level of the unit has a rank below every vector memory access's. Such a level only ever holds clean
 * copies no access reads; sharing one of its instances between work-groups changes no outcome, except
 * that the waves of one CU keep some orders among their requests, which separate CUs do not (so the
 * maximal placement has the most runs).
 */
export function inertUnits(cfg: FamilyConfig, program: MProgram): Set<'cu' | 'sa' | 'l2'> {
  let least = Number.POSITIVE_INFINITY;
  for (const th of program.threads)
    for (const i of th.instrs) if (i.k === 'mem' && i.path === 'vmem') least = Math.min(least, i.rank);
  const out = new Set<'cu' | 'sa' | 'l2'>();
  for (const u of ['cu', 'sa', 'l2'] as const) {
    const levels = cfg.levels.filter((l) => l.unit === u);
    if (levels.every((l) => l.rank < least)) out.add(u);
  }
  return out;
}

/**
 * Can assumption `id` change what the machine does on `program`? A cheap syntactic test, so that a
 * verdict is not run again without an assumption that cannot matter: in-order reads need two reads of
 * different locations in one wave; in-order types two cache requests of different counters in one wave;
 * in-order LDS two LDS requests of different locations in one wave; coherent L2s two agents; a fill at
 * read a written location with a load and another read.
 */
export function assumptionMatters(id: AssumptionId, program: MProgram): boolean {
  const waves = new Map<string, MInstr[]>();
  for (const th of program.threads) waves.set(th.wave, [...(waves.get(th.wave) ?? []), ...th.instrs]);
  const some = (f: (is: MInstr[]) => boolean) => [...waves.values()].some(f);
  const twoLocs = (is: MInstr[], p: (i: MInstr & { k: 'mem' }) => boolean) =>
    new Set(is.flatMap((i) => (i.k === 'mem' && p(i) ? [i.loc] : []))).size >= 2;
  switch (id) {
    case 'cu-in-order-reads':
      return some((is) => twoLocs(is, (i) => i.path === 'vmem' && i.acc !== 'store'));
    case 'cu-in-order-types':
      return some((is) => {
        const kinds = new Set(
          is.flatMap((i) =>
            (i.k === 'mem' && i.path === 'vmem') || i.k === 'inv' || i.k === 'wb' ? [i.counters.join()] : [],
          ),
        );
        return kinds.size >= 2;
      });
    case 'lds-in-order':
      return some((is) => twoLocs(is, (i) => i.path === 'lds'));
    case 'l2-system-coherent':
      return new Set(program.threads.map((th) => th.wg.split('.')[0])).size >= 2;
    case 'fill-at-read': {
      // A late fill puts a clean copy of the value its load read into the CU's cache; the copy changes an
      // outcome only if another read of the location takes it — and is stale only if the location is
      // written. So it matters only for a written location with a load and another read (load or RMW).
      const all = program.threads.flatMap((th) => th.instrs);
      return program.locs.some((_, l) => {
        let loads = 0;
        let reads = 0;
        let written = false;
        for (const i of all) {
          if (i.k !== 'mem' || i.path !== 'vmem' || i.loc !== l) continue;
          if (i.acc === 'load') loads++;
          if (i.acc !== 'load') written = true;
          if (i.acc !== 'store') reads++;
        }
        return written && loads >= 1 && reads >= 2;
      });
    }
    default:
      return true;
  }
}

/**
 * R6 (docs/hardware.md): a cache instance shared by work-groups that fall into two groups with no cached
 * location in common acts as two instances, one per group — every copy, queue order and eviction of the
 * machine is per location — so a placement in which some CU, shader array or L2 group is shared that way
 * reaches what the placement with that instance split reaches, and that one is enumerated too (a fresh
 * CU, shader array or L2 group is always a choice, but where L2 groups are bounded or a cluster must
 * share its shader array). Returns the test for a placement to skip.
 */
function needlessSharing(
  cfg: FamilyConfig,
  shape: Shape,
  program: MProgram,
): (p: ReturnType<typeof placements>[number]) => boolean {
  // Per thread, the cached (global) locations its vector memory accesses touch, merged per work-group.
  const wgOf = program.threads.map((th) => th.wg);
  const locsOf = new Map<string, Set<number>>();
  program.threads.forEach((th) => {
    const set = locsOf.get(th.wg) ?? new Set<number>();
    for (const i of th.instrs) if (i.k === 'mem' && i.path === 'vmem') set.add(i.loc);
    locsOf.set(th.wg, set);
  });
  const meet = (a: string, b: string) => [...locsOf.get(a)!].some((l) => locsOf.get(b)!.has(l));
  const units: ('cu' | 'sa' | 'l2')[] = ['cu'];
  if (shape.shaderArrays && !shape.clusterSa) units.push('sa');
  if (shape.l2Groups && shape.maxL2 === null) units.push('l2');
  // Only units that own a cache level matter (a WGP owns none; GFX6–9 has no shader arrays).
  const cached = units.filter((u) => cfg.levels.some((l) => l.unit === u));
  return (p) => {
    for (const u of cached) {
      const groups = new Map<string, string[]>();
      p.threads.forEach((h, t) => {
        if (h.agent < 0) return;
        const key =
          u === 'cu' ? `${h.agent}.${h.cu}` : u === 'sa' ? `${h.agent}.${h.sa}` : `${h.agent}.${h.l2}`;
        const wgs = groups.get(key) ?? [];
        if (!wgs.includes(wgOf[t]!)) wgs.push(wgOf[t]!);
        groups.set(key, wgs);
      });
      for (const wgs of groups.values()) {
        if (wgs.length < 2) continue;
        // Connected through common locations?
        const reached = new Set([wgs[0]!]);
        for (let grew = true; grew; ) {
          grew = false;
          for (const w of wgs)
            if (!reached.has(w) && [...reached].some((r) => meet(r, w))) {
              reached.add(w);
              grew = true;
            }
        }
        if (reached.size < wgs.length) return true;
      }
    }
    return false;
  };
}

/**
 * The cache instances of every thread of a placement, each unit numbered in order of first use: two
 * placements with one signature build the same machine (every state, step and outcome of the machine is
 * a function of which threads share which cache instance and wavefront).
 */
function cacheSignature(cfg: FamilyConfig, p: ReturnType<typeof placements>[number]): string {
  const units = [...new Set(cfg.levels.map((l) => l.unit))];
  return (
    units
      .map((u) => {
        const ids = new Map<string, number>();
        return p.threads
          .map((h) => {
            const k =
              u === 'cu'
                ? `${h.agent}.${h.cu}`
                : u === 'sa'
                  ? `${h.agent}.${h.sa}`
                  : u === 'l2'
                    ? `${h.agent}.${h.l2}`
                    : `${h.agent}`;
            if (!ids.has(k)) ids.set(k, ids.size);
            return ids.get(k);
          })
          .join(',');
      })
      .join('|') + `|${p.threads.map((h) => h.agent).join(',')}`
  );
}

/** Does the code discard cache lines (an Intel `lsc_fence … discard`)? */
function discards(code: LoweredCode): boolean {
  return code.some((th) => th.some((seq) => seq.some((i) => i.kind === 'lsc_fence' && i.op === 'discard')));
}

/** The machines of `code` on every hardware configuration of the family in `mode` and every placement. */
export function machinesOf(
  test: Test,
  code: LoweredCode,
  fam: FamilyMachine,
  mode: MachineMode,
  reduce = true,
): { program: MProgram; machines: Machine[] } | SimUnsupported {
  const machines: Machine[] = [];
  let program: MProgram | null = null;
  const agents = new Set(
    test.threads.map((th) => (th.placement.kind === 'device' ? th.placement.agent : -1)),
  );
  // R3 (docs/hardware.md): on one agent, one L2 per agent is several L2s all shared, and a level every
  // access of the agent passes is memory — unless a discard drops dirty lines there (lost in one, not in
  // the other).
  const r3 = reduce && agents.size < 2 && !discards(code);
  for (const cfg of fam.configs(mode)) {
    if (r3 ? cfg.multiAgentOnly : cfg.singleAgentOnly) continue;
    const c = compileProgram(test, code, cfg, mode);
    if ('unsupported' in c) return { kind: 'unsupported', reason: diagnosticLine(c.unsupported) };
    program ??= c.program;
    // Every placement, also with the reductions on: R2 (maximal placements only) is withdrawn, since
    // a cache shared by two workgroups gives runs separate caches do not (docs/hardware.md, R2). R5:
    // where no access can be performed in a unit's caches, its maximal placements stand for all.
    const spread = reduce ? inertUnits(cfg, c.program) : false;
    const shape = shapeOf(cfg, mode, test);
    // A discard drops another work-group's dirty lines with one's own: no split stands for it.
    const apart = reduce && !discards(code) ? needlessSharing(cfg, shape, c.program) : () => false;
    // Placements that put every thread on the same cache instances, up to renaming, are one machine: a
    // unit that owns no cache level (a WGP, in CU mode its two CUs' work-groups apart) changes nothing.
    const seen = new Set<string>();
    for (const p of placements(test, shape, spread)) {
      if (apart(p)) continue;
      const sig = cacheSignature(cfg, p);
      if (seen.has(sig)) continue;
      seen.add(sig);
      const text = cfg.variant === '' ? p.text : `${p.text} (${cfg.variant})`;
      machines.push(buildMachine(cfg, c.program, { ...p, text }));
    }
  }
  return { program: program!, machines };
}

/** Runs `test` lowered to `code` on the family's machines in `mode`. */
export async function simulate(
  test: Test,
  code: LoweredCode,
  fam: FamilyMachine,
  mode: MachineMode,
  opts: ExploreOptions,
  /** Awaited between slices of the exploration (lets a Ctrl-C handler run). */
  pause: () => Promise<void> = async () => {},
): Promise<SimResult | SimUnsupported> {
  const built = machinesOf(test, code, fam, mode, opts.reduce);
  if ('kind' in built) return built;
  const { program, machines } = built;
  const seen = new Map<string, SimOutcome>();
  let states = 0;
  let deadlock = false;
  let stop: ExploreStop = 'done';
  for (let k = 0; k < machines.length; k++) {
    const e = new Explorer(machines[k]!, opts);
    while (!e.step(4096)) await pause();
    const ex = e.result();
    states += ex.states;
    deadlock ||= ex.deadlock;
    for (const [key, outcome] of ex.outcomes)
      if (!seen.has(key)) seen.set(key, { key, outcome, placement: k });
    if (ex.stop !== 'done') {
      stop = ex.stop;
      break;
    }
  }
  return { kind: 'done', program, machines, outcomes: [...seen.values()], deadlock, states, stop };
}

/** A shortest machine run to `o` on the placement that produced it. */
export function traceOf(r: SimResult, o: SimOutcome, opts: ExploreOptions): Step[] | null {
  return traceTo(r.machines[o.placement]!, o.key, opts);
}

/**
 * The value of a report label in a machine outcome: `P0:r0` (a register), `@x` (a global location)
 * or `P1:@x` (the LDS or private copy thread P1 sees). Undefined when the label names nothing.
 */
export function labelValue(
  test: Test,
  program: MProgram,
  o: MachineOutcome,
  label: string,
): number | undefined {
  const at = label.indexOf('@');
  if (at < 0) {
    const colon = label.indexOf(':');
    const t = program.threads.findIndex((th) => th.name === label.slice(0, colon));
    if (t < 0) return undefined;
    const r = program.threads[t]!.regs.indexOf(label.slice(colon + 1).replace(/^%/, ''));
    return r < 0 ? undefined : o.regs[t]![r];
  }
  const name = label.slice(at + 1);
  const threadName = at > 0 ? label.slice(0, at - 1) : null;
  let owner: string | null = null;
  if (threadName !== null) {
    const th = test.threads.find((x) => x.name === threadName);
    const decl = test.locations.find((l) => l.name === name);
    if (!th || !decl) return undefined;
    const p = th.placement;
    if (decl.space === 'local' && p.kind === 'device') owner = `a${p.agent}.c${p.cluster}.w${p.workgroup}`;
    else if (decl.space === 'private') owner = th.name;
  }
  const l = program.locs.findIndex((x) => x.name === name && x.owner === owner);
  return l < 0 ? undefined : o.mem[l];
}
