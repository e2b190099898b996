/**
 * Thread placement: a test's agent/cluster/workgroup/wavefront coordinates onto hardware — each
 * wavefront onto a CU, CUs grouped into WGPs and shader arrays (SA), one L2 per agent. Every
 * placement the mode allows is enumerated once up to renaming of hardware units.
 *
 * - GFX6–9 (amdgpu-usage-2018.rst): "The wavefronts for a single work-group are executed in the same
 *   CU"; work-groups "may be executing on different CUs" — or the same one.
 * - GFX12 (gfx12-memory-model.rst): "The wavefronts for a single work-group are executed in the same
 *   WGP"; "In CU wavefront execution mode the wavefronts of a work-group are executed on the SIMDs of
 *   a single CU of the WGP"; "In WGP wavefront execution mode the wavefronts of a work-group are
 *   executed on the SIMDs of both CUs of the WGP".
 *
 * No Node APIs here.
 */

import type { Test } from '../core/types.ts';
import type { WaveMode } from '../lower/types.ts';

/** Where one thread runs. Host threads have no device coordinates (`agent` -1). */
export interface HwPlace {
  agent: number;
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
  mode: WaveMode;
  /** Some cache level belongs to a shader array (otherwise all work-groups share SA 0). */
  shaderArrays: boolean;
}

/**
 * Every placement of `test`'s threads: work-groups onto shader arrays and WGPs of their agent,
 * wavefronts onto CUs of their work-group's WGP (CU mode: one CU per work-group). Threads of one
 * wavefront always share a CU. Units are numbered in order of first use, so no two placements
 * differ only by renaming.
 *
 * `maximal`: only the placements that share no unit the mode does not force to be shared — every
 * work-group on a WGP and shader array of its own, a WGP-mode work-group's wavefronts spread over
 * both CUs of its WGP. Exploring only these (R2) is withdrawn: a shared write-through cache gives
 * runs that separate ones do not (docs/hardware.md, R2; src/sim/machine.prop.test.ts).
 */
export function placements(test: Test, shape: Shape, maximal = false): Placement[] {
  const wgOf: number[] = [];
  const waveOf: number[] = [];
  const wgKeys: string[] = [];
  const waveKeys: string[] = [];
  const wgAgent: number[] = [];
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
  // Per work-group: SA and WGP; per wavefront: CU. Units are allocated per agent in order of use.
  const wgSa: number[] = [];
  const wgWgp: number[] = [];
  const waveCu: number[] = [];
  const saCount = new Map<number, number>();
  const wgpSa: number[] = []; // WGP id → SA id (ids global across agents; agents kept apart)
  const wgpAgent: number[] = [];
  const cuWgp: number[] = [];

  const emit = () => {
    const threads = test.threads.map((_, t): HwPlace => {
      const v = waveOf[t]!;
      if (v < 0) return { agent: -1, sa: -1, wgp: -1, cu: -1 };
      const g = wgOf[t]!;
      return { agent: wgAgent[g]!, sa: wgSa[g]!, wgp: wgWgp[g]!, cu: waveCu[v]! };
    });
    const text = test.threads
      .map((th, t) => {
        const h = threads[t]!;
        return h.agent < 0 ? `${th.name}: host` : `${th.name}: a${h.agent}/sa${h.sa}/wgp${h.wgp}/cu${h.cu}`;
      })
      .join(', ');
    out.push({ threads, text });
  };

  const placeWaves = (g: number, k: number, next: () => void) => {
    const waves = wavesOfWg[g]!;
    if (k === waves.length) return next();
    const v = waves[k]!;
    const wgp = wgWgp[g]!;
    const cus = cuWgp.map((w, c) => (w === wgp ? c : -1)).filter((c) => c >= 0);
    // CU mode (or one CU per WGP): every wavefront of the work-group on its first wavefront's CU.
    const fixed = k > 0 && (shape.mode === 'cu' || shape.cusPerWgp === 1) ? waveCu[waves[0]!]! : -1;
    const fresh = fixed < 0 && cus.length < shape.cusPerWgp;
    // Maximal: a wavefront takes a fresh CU while its WGP has one left; later ones share.
    const choices = fixed >= 0 ? [fixed] : maximal && fresh ? [] : cus;
    for (const c of choices) {
      waveCu[v] = c;
      placeWaves(g, k + 1, next);
    }
    if (fresh) {
      cuWgp.push(wgp);
      waveCu[v] = cuWgp.length - 1;
      placeWaves(g, k + 1, next);
      cuWgp.pop();
    }
  };

  const placeWg = (g: number) => {
    if (g === wgKeys.length) return emit();
    const agent = wgAgent[g]!;
    const sas = saCount.get(agent) ?? 0;
    const top = shape.shaderArrays ? sas : 0;
    for (let sa = maximal ? top : 0; sa <= top; sa++) {
      const fresh = sa === sas && shape.shaderArrays;
      if (fresh) saCount.set(agent, sas + 1);
      wgSa[g] = sa;
      const wgps = maximal
        ? []
        : wgpSa.map((s, w) => (s === sa && wgpAgent[w] === agent ? w : -1)).filter((w) => w >= 0);
      for (const w of wgps) {
        wgWgp[g] = w;
        placeWaves(g, 0, () => placeWg(g + 1));
      }
      wgpSa.push(sa);
      wgpAgent.push(agent);
      wgWgp[g] = wgpSa.length - 1;
      placeWaves(g, 0, () => placeWg(g + 1));
      wgpSa.pop();
      wgpAgent.pop();
      if (fresh) saCount.set(agent, sas);
    }
  };
  placeWg(0);
  return out;
}
