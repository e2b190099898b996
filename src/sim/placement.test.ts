import { describe, expect, it } from 'vitest';
import { familyMachine } from './config.ts';
import { placements } from './placement.ts';
import { shapeOf } from './simulate.ts';
import { litmus } from './testutil.ts';

function test(coords: [number, number, number][]): ReturnType<typeof litmus> {
  const threads = coords
    .map(
      ([a, w, f], k) => `P${k} @ agent ${a}, workgroup ${w}, wavefront ${f} {
  %r${k} = load i32, ptr addrspace(1) @x
}`,
    )
    .join('\n');
  return litmus(`AMDGPU t\n@x = addrspace(1) global i32 0\n${threads}\n`);
}

const AMD_SHAPE = { maxL2: null, labels: { cu: 'cu', l2: 'l2.', saWgp: true, lds: 'LDS' } } as const;
const NO = { l2Groups: false, clusterSa: false, ...AMD_SHAPE } as const;
const G69 = { cusPerWgp: 1, mode: 'cu', shaderArrays: false, ...NO } as const;
const G12CU = { cusPerWgp: 2, mode: 'cu', shaderArrays: true, ...NO } as const;
const G12WGP = { cusPerWgp: 2, mode: 'wgp', shaderArrays: true, ...NO } as const;

describe('placements', () => {
  it('GFX6–9: "The wavefronts for a single work-group are executed in the same CU"; work-groups may share a CU or not', () => {
    const one = placements(
      test([
        [0, 0, 0],
        [0, 0, 1],
      ]),
      G69,
    );
    expect(one.map((p) => p.text)).toEqual(['P0: a0/sa0/wgp0/cu0, P1: a0/sa0/wgp0/cu0']);
    const two = placements(
      test([
        [0, 0, 0],
        [0, 1, 0],
      ]),
      G69,
    );
    expect(two.map((p) => p.threads.map((h) => h.cu))).toEqual([
      [0, 0],
      [0, 1],
    ]);
    expect(
      placements(
        test([
          [0, 0, 0],
          [0, 1, 0],
        ]),
        G69,
        true,
      ).map((p) => p.threads.map((h) => h.cu)),
    ).toEqual([[0, 1]]);
  });

  it('GFX12 WGP mode: the two wavefronts of one work-group on either CU of the WGP; CU mode: one CU', () => {
    const t = test([
      [0, 0, 0],
      [0, 0, 1],
    ]);
    expect(placements(t, G12WGP).map((p) => p.threads.map((h) => h.cu))).toEqual([
      [0, 0],
      [0, 1],
    ]);
    expect(placements(t, G12CU).map((p) => p.threads.map((h) => h.cu))).toEqual([[0, 0]]);
    expect(placements(t, G12WGP, true).map((p) => p.threads.map((h) => h.cu))).toEqual([[0, 1]]);
    const three = test([
      [0, 0, 0],
      [0, 0, 1],
      [0, 0, 2],
    ]);
    expect(placements(three, G12WGP)).toHaveLength(4);
    expect(placements(three, G12WGP, true).map((p) => p.threads.map((h) => h.cu))).toEqual([
      [0, 1, 0],
      [0, 1, 1],
    ]);
  });

  it('GFX12: work-groups onto WGPs and shader arrays, shared or not; lanes of one wavefront share a CU; agents apart', () => {
    const t = test([
      [0, 0, 0],
      [0, 1, 0],
    ]);
    // Same SA same WGP (same CU / other CU), same SA other WGP, other SA.
    expect(placements(t, G12CU).map((p) => p.threads.map((h) => `${h.sa}.${h.wgp}.${h.cu}`))).toEqual([
      ['0.0.0', '0.0.0'],
      ['0.0.0', '0.0.1'],
      ['0.0.0', '0.1.1'],
      ['0.0.0', '1.1.1'],
    ]);
    const lanes = test([
      [0, 0, 0],
      [0, 0, 0],
    ]);
    expect(placements(lanes, G12WGP).map((p) => p.threads.map((h) => h.cu))).toEqual([[0, 0]]);
    const agents = placements(
      test([
        [0, 0, 0],
        [1, 0, 0],
      ]),
      G12CU,
    );
    expect(agents.map((p) => p.threads.map((h) => h.agent))).toEqual([[0, 1]]);
  });

  it('TgSplit (GFX90A, GFX942): "the wavefronts may be executed by different SIMDs in different CUs" — a work-group\'s waves on one CU or several', () => {
    const t = test([
      [0, 0, 0],
      [0, 0, 1],
    ]);
    const tg = { cusPerWgp: 1, mode: 'tgsplit', shaderArrays: false, ...NO } as const;
    expect(placements(t, tg).map((p) => p.threads.map((h) => h.cu))).toEqual([
      [0, 0],
      [0, 1],
    ]);
    expect(placements(t, { ...tg, mode: 'cu' }).map((p) => p.threads.map((h) => h.cu))).toEqual([[0, 0]]);
  });

  it('several L2s per agent (GFX942: "groups of CUs on each agent each sharing separate L2 caches"): work-groups in one group (one CU or two) or in two; a TgSplit work-group stays in its group', () => {
    const G = {
      cusPerWgp: 1,
      mode: 'cu',
      shaderArrays: false,
      l2Groups: true,
      clusterSa: false,
      ...AMD_SHAPE,
    } as const;
    const two = test([
      [0, 0, 0],
      [0, 1, 0],
    ]);
    expect(placements(two, G).map((p) => p.threads.map((h) => `${h.l2}.${h.cu}`))).toEqual([
      ['0.0', '0.0'],
      ['0.0', '0.1'],
      ['0.0', '1.1'],
    ]);
    const wg = test([
      [0, 0, 0],
      [0, 0, 1],
      [0, 1, 0],
    ]);
    for (const p of placements(wg, { ...G, mode: 'tgsplit' }))
      expect(p.threads[1]!.l2).toBe(p.threads[0]!.l2);
  });

  it('GFX12.5 clusters: the work-groups of a cluster on one shader engine (cluster scope is SCOPE_SE); other clusters anywhere', () => {
    const C = {
      cusPerWgp: 1,
      mode: 'cu',
      shaderArrays: true,
      l2Groups: false,
      clusterSa: true,
      ...AMD_SHAPE,
    } as const;
    const t = litmus(`AMDGPU c
@x = addrspace(1) global i32 0
P0 @ agent 0, cluster 0, workgroup 0 {
  %r0 = load i32, ptr addrspace(1) @x
}
P1 @ agent 0, cluster 0, workgroup 1 {
  %r1 = load i32, ptr addrspace(1) @x
}
P2 @ agent 0, cluster 1, workgroup 0 {
  %r2 = load i32, ptr addrspace(1) @x
}
`);
    const ps = placements(t, C);
    for (const p of ps) expect(p.threads[1]!.sa).toBe(p.threads[0]!.sa);
    expect(new Set(ps.map((p) => p.threads[2]!.sa === p.threads[0]!.sa))).toEqual(new Set([true, false]));
  });

  it('Intel Xe: a work-group on one Xe-core (barrier.cl: "Single workgroup executes on one DSS"); PVC\'s work-groups on at most two tiles', () => {
    const t = test([
      [0, 0, 0],
      [0, 0, 1],
      [0, 1, 0],
      [0, 2, 0],
    ]);
    const pvc = familyMachine('xe', 'Xe-HPC')!.configs('cu')[0]!;
    const ps = placements(t, shapeOf(pvc, 'cu', t));
    for (const p of ps) {
      expect(p.threads[1]!.cu).toBe(p.threads[0]!.cu);
      expect(Math.max(...p.threads.map((h) => h.l2))).toBeLessThanOrEqual(1);
    }
    expect(ps.map((p) => p.text)).toContain(
      'P0: a0/tile0/xc0, P1: a0/tile0/xc0, P2: a0/tile1/xc1, P3: a0/tile1/xc2',
    );
    // One tile: Xe-cores only.
    const dg2 = familyMachine('xe', 'Xe-HPG')!.configs('cu')[0]!;
    expect(placements(t, shapeOf(dg2, 'cu', t)).map((p) => p.text)).toContain(
      'P0: a0/xc0, P1: a0/xc0, P2: a0/xc1, P3: a0/xc2',
    );
  });
});
