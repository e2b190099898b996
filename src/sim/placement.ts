/**
 * Thread placement: a test's agent/cluster/workgroup/wavefront coordinates onto hardware — each
 * wavefront onto a CU, CUs grouped into WGPs, WGPs into shader arrays (SA; on GFX12.5 shader engines),
 * shader arrays into the groups sharing one L2 (where an agent has several), one group of L2s per
 * agent. Every placement the mode allows is enumerated once up to renaming of hardware units.
 *
 * - GFX6–9 (amdgpu-usage-2018.rst): "The wavefronts for a single work-group are executed in the same
 *   CU"; work-groups "may be executing on different CUs" — or the same one.
 * - GFX90A/GFX942 (AMDGPUUsage "Memory Model GFX90A"/"GFX942"): the same, "The exception is when in
 *   tgsplit execution mode when the wavefronts may be executed by different SIMDs in different CUs".
 *   With several L2s per agent ("groups of CUs on each agent each sharing separate L2 caches"), a
 *   TgSplit work-group's CUs are of one group: the tables' workgroup-scope rows have no L2
 *   write-back or invalidate (docs/hardware.md, "Thread placement").
 * - GFX10–12 (gfx12-memory-model.rst): "The wavefronts for a single work-group are executed in the
 *   same WGP"; "In CU wavefront execution mode the wavefronts of a work-group are executed on the
 *   SIMDs of a single CU of the WGP"; "In WGP wavefront execution mode the wavefronts of a
 *   work-group are executed on the SIMDs of both CUs of the WGP".
 * - GFX12.5 (AMDGPUUsage "Memory Model GFX125x"): "The wavefronts for a single work-group are executed
 *   in the same WGP" (one WGP cache); the work-groups of a cluster on one shader engine (cluster scope
 *   is SCOPE_SE).
 *
 * No Node APIs here.
 */

import type { Test } from '../core/types.ts';
import type { MachineMode } from './config.ts';

/** Where one thread runs. Host threads have no device coordinates (`agent` -1). */
export interface HwPlace {
  agent: number;
  /** The group of CUs sharing one L2 (0 where each agent has one L2). */
  l2: number;
  sa: number;
  wgp: number;
  /** CU index, unique within its agent. */
  cu: number;
}

/** One placement of every thread of a test. */
export interface Placement {
  threads: HwPlace[];
  /** `P0: a0/sa0/wgp0/cu0` … for traces. */
  text: string;
}

/** The hardware a family's placements are drawn from. */
export interface Shape {
  cusPerWgp: 1 | 2;
  mode: MachineMode;
  /** Some cache level belongs to a shader array (otherwise all work-groups share SA 0). */
  shaderArrays: boolean;
  /** Some cache level belongs to a group of CUs sharing an L2 (otherwise one group per agent). */
  l2Groups: boolean;
  /** The work-groups of one cluster share a shader array (GFX12.5: a shader engine). */
  clusterSa: boolean;
  /** At most this many L2 groups per agent (Intel Xe-HPC: tiles); null: no bound. */
  maxL2: number | null;
  /** How `text` names CUs and L2 groups (`FamilyConfig.labels`). */
  labels: { cu: string; l2: string; saWgp: boolean; lds: string };
}

interface Units {
  /** Per SA: its agent and L2 group. */
  saAgent: number[];
  saL2: number[];
  /** Per WGP: its SA. */
  wgpSa: number[];
  /** Per CU: its WGP. */
  cuWgp: number[];
  /** L2 groups per agent. */
  l2Count: Map<number, number>;
}

/**
 * Every placement of `test`'s threads: work-groups onto L2 groups, shader arrays and WGPs of their
 * agent, wavefronts onto CUs of their work-group's WGP (CU mode: one CU per work-group; TgSplit: any
 * CU of the work-group's L2 group). Threads of one wavefront always share a CU. Units are numbered in
 * order of first use, so no two placements differ only by renaming.
 *
 * `spread`: the units (or `true`: all of them) of which a work-group or wavefront always takes a fresh
 * instance where the mode does not force it to share one — only the maximal placements for those
 * units. Spreading every unit (R2) is withdrawn: a shared write-through cache gives runs that
 * separate ones do not (docs/hardware.md, R2; src/sim/machine.prop.test.ts). Spreading the units
 * whose caches no access of the program can be performed in is R5 (docs/hardware.md).
 */
export function placements(
  test: Test,
  shape: Shape,
  spread: boolean | ReadonlySet<'cu' | 'sa' | 'l2'> = false,
): Placement[] {
  const spreads = (u: 'cu' | 'sa' | 'l2'): boolean => spread === true || (spread !== false && spread.has(u));
  const maxCu = spreads('cu');
  const maxSa = spreads('sa');
  // Spreading L2 groups means something only where there are L2 groups: elsewhere it would keep the
  // work-groups off each other's shader arrays, and so off each other's CUs — which is R2, withdrawn.
  const maxL2 = shape.l2Groups && spreads('l2');
  const wgOf: number[] = [];
  const waveOf: number[] = [];
  const wgKeys: string[] = [];
  const waveKeys: string[] = [];
  const wgAgent: number[] = [];
  const wgCluster: number[] = [];
  const clusterKeys: string[] = [];
  for (const th of test.threads) {
    const p = th.placement;
    if (p.kind === 'host') {
      wgOf.push(-1);
      waveOf.push(-1);
      continue;
    }
    const wk = `${p.agent}.${p.cluster}.${p.workgroup}`;
    let g = wgKeys.indexOf(wk);
    if (g < 0) {
      g = wgKeys.push(wk) - 1;
      wgAgent.push(p.agent);
      const ck = `${p.agent}.${p.cluster}`;
      let c = clusterKeys.indexOf(ck);
      if (c < 0) c = clusterKeys.push(ck) - 1;
      wgCluster.push(c);
    }
    wgOf.push(g);
    const vk = `${wk}.${p.wavefront}`;
    let v = waveKeys.indexOf(vk);
    if (v < 0) v = waveKeys.push(vk) - 1;
    waveOf.push(v);
  }
  const wavesOfWg: number[][] = wgKeys.map(() => []);
  waveOf.forEach((v, t) => {
    const w = wavesOfWg[wgOf[t]!];
    if (v >= 0 && w && !w.includes(v)) w.push(v);
  });

  const out: Placement[] = [];
  const wgSa: number[] = [];
  const wgWgp: number[] = [];
  const waveCu: number[] = [];
  const u: Units = { saAgent: [], saL2: [], wgpSa: [], cuWgp: [], l2Count: new Map() };
  /** The SA of each cluster once its first work-group is placed (clusters sharing an SA). */
  const clusterSa = new Map<number, number>();

  const emit = () => {
    const threads = test.threads.map((_, t): HwPlace => {
      const v = waveOf[t]!;
      if (v < 0) return { agent: -1, l2: -1, sa: -1, wgp: -1, cu: -1 };
      const g = wgOf[t]!;
      const sa = wgSa[g]!;
      return { agent: wgAgent[g]!, l2: u.saL2[sa]!, sa, wgp: u.cuWgp[waveCu[v]!]!, cu: waveCu[v]! };
    });
    const text = test.threads
      .map((th, t) => {
        const h = threads[t]!;
        if (h.agent < 0) return `${th.name}: host`;
        const { labels } = shape;
        const l2 = shape.l2Groups ? `/${labels.l2}${h.l2}` : '';
        const saWgp = labels.saWgp ? `/sa${h.sa}/wgp${h.wgp}` : '';
        return `${th.name}: a${h.agent}${l2}${saWgp}/${labels.cu}${h.cu}`;
      })
      .join(', ');
    out.push({ threads, text });
  };

  /** CUs in use that wave `k` of work-group `g` may take. */
  const cuChoices = (g: number, k: number): { reuse: number[]; fresh: 'wgp' | 'newwgp' | null } => {
    const waves = wavesOfWg[g]!;
    const wgp = wgWgp[g]!;
    const onWgp = u.cuWgp.flatMap((w, c) => (w === wgp ? [c] : []));
    if (shape.mode === 'tgsplit' && k > 0) {
      // Any CU of the work-group's L2 group (of its agent), or a fresh one (on a fresh WGP of its SA).
      const sa = wgSa[g]!;
      const cus = u.cuWgp.flatMap((w, c) => {
        const s = u.wgpSa[w]!;
        return u.saAgent[s] === u.saAgent[sa] && u.saL2[s] === u.saL2[sa] ? [c] : [];
      });
      return { reuse: maxCu ? [] : cus, fresh: 'newwgp' };
    }
    if (k > 0 && (shape.mode === 'cu' || shape.mode === 'tgsplit' || shape.cusPerWgp === 1))
      return { reuse: [waveCu[waves[0]!]!], fresh: null };
    const fresh = onWgp.length < shape.cusPerWgp ? 'wgp' : null;
    return { reuse: maxCu && fresh ? [] : onWgp, fresh };
  };

  const placeWaves = (g: number, k: number, next: () => void) => {
    const waves = wavesOfWg[g]!;
    if (k === waves.length) return next();
    const v = waves[k]!;
    const { reuse, fresh } = cuChoices(g, k);
    for (const c of reuse) {
      waveCu[v] = c;
      placeWaves(g, k + 1, next);
    }
    if (fresh === 'wgp') {
      u.cuWgp.push(wgWgp[g]!);
      waveCu[v] = u.cuWgp.length - 1;
      placeWaves(g, k + 1, next);
      u.cuWgp.pop();
    } else if (fresh === 'newwgp') {
      u.wgpSa.push(wgSa[g]!);
      u.cuWgp.push(u.wgpSa.length - 1);
      waveCu[v] = u.cuWgp.length - 1;
      placeWaves(g, k + 1, next);
      u.cuWgp.pop();
      u.wgpSa.pop();
    }
  };

  /** Places work-group `g` on WGP choices of shader array `sa`. */
  const placeOnSa = (g: number, sa: number) => {
    wgSa[g] = sa;
    const wgps = maxCu ? [] : u.wgpSa.flatMap((s, w) => (s === sa ? [w] : []));
    for (const w of wgps) {
      wgWgp[g] = w;
      placeWaves(g, 0, () => placeWg(g + 1));
    }
    u.wgpSa.push(sa);
    wgWgp[g] = u.wgpSa.length - 1;
    placeWaves(g, 0, () => placeWg(g + 1));
    u.wgpSa.pop();
  };

  /** Places work-group `g` on shader array `sa` (and the rest of its cluster with it). */
  const onSa = (g: number, sa: number, cluster: number) => {
    if (shape.clusterSa) clusterSa.set(cluster, sa);
    placeOnSa(g, sa);
    if (shape.clusterSa) clusterSa.delete(cluster);
  };

  /** Places work-group `g` on a fresh shader array of L2 group `l2`. */
  const freshSa = (g: number, agent: number, l2: number, cluster: number) => {
    u.saAgent.push(agent);
    u.saL2.push(l2);
    onSa(g, u.saAgent.length - 1, cluster);
    u.saAgent.pop();
    u.saL2.pop();
  };

  const placeWg = (g: number) => {
    if (g === wgKeys.length) return emit();
    const agent = wgAgent[g]!;
    const cluster = wgCluster[g]!;
    const fixed = shape.clusterSa ? clusterSa.get(cluster) : undefined;
    if (fixed !== undefined) return placeOnSa(g, fixed);
    const sas = u.saAgent.flatMap((a, s) => (a === agent ? [s] : []));
    const groups = u.l2Count.get(agent) ?? 0;
    // Without SA caches each L2 group holds one SA; without L2 groups each agent has one.
    const freshGroup = (shape.l2Groups && (shape.maxL2 === null || groups < shape.maxL2)) || groups === 0;
    const freshSaInGroup = shape.shaderArrays && groups > 0;
    // An existing SA — sharing it, and so its L2 group (spread: only when nothing fresh is possible) …
    const shareSa = shape.shaderArrays ? !maxSa && !maxL2 : !maxL2;
    if (shareSa || (!freshGroup && !freshSaInGroup)) for (const sa of sas) onSa(g, sa, cluster);
    // … a fresh SA in an existing L2 group (spread: only when there are no L2 groups to spread over) …
    if (freshSaInGroup && (!maxL2 || !shape.l2Groups))
      for (let l2 = 0; l2 < groups; l2++) freshSa(g, agent, l2, cluster);
    // … or a fresh SA in a fresh L2 group.
    if (freshGroup) {
      u.l2Count.set(agent, groups + 1);
      freshSa(g, agent, groups, cluster);
      if (groups === 0) u.l2Count.delete(agent);
      else u.l2Count.set(agent, groups);
    }
  };
  placeWg(0);
  return out;
}
