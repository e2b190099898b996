/**
 * Paths and barriers (paths.ts): await loops run their exiting iteration, other loops unroll to a
 * bound and are cut beyond it (undecided), control barriers complete when their instance's
 * threads arrive (a quorum barrier for any large enough set), and a thread waiting at a barrier
 * that never completes stops there (undefined behaviour, with the reason).
 */
import { describe, expect, it } from 'vitest';
import type { VulkanTest } from './ast.ts';
import { parseDat3m } from './dat3m.ts';
import { threadPaths, variantsOf } from './paths.ts';
import { DEFAULT_VK_RUN, runVulkan } from './run.ts';

function vk(text: string): VulkanTest {
  const r = parseDat3m(text, 't.litmus');
  expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return r.test!;
}

const one = (body: string) =>
  vk(`VULKAN t\n{ x=0; y=0; }\n P0@sg 0, wg 0, qf 0 ;\n${body}\nexists (x == 0)\n`);

describe('paths through a thread', () => {
  it('straight-line code has one path', () => {
    const t = one(' st.sc0 x, 1 ;\n ld.sc0 r0, x ;');
    expect(threadPaths(t.threads[0]!).map((p) => p.steps.map((s) => s.instr))).toEqual([[0, 1]]);
  });

  it('an await loop runs its exiting iteration only', () => {
    const t = one(
      ' LC00: ;\n ld.atom.dv.sc0 r0, x ;\n bne r0, 0, LC01 ;\n goto LC00 ;\n LC01: ;\n st.sc0 y, 1 ;',
    );
    const paths = threadPaths(t.threads[0]!);
    expect(paths).toHaveLength(1);
    expect(paths[0]!.cut).toBe(false);
    // The load, the branch taken out of the loop, the store.
    expect(paths[0]!.steps.filter((s) => t.threads[0]!.body[s.instr]!.kind !== 'label')).toEqual([
      { instr: 1, taken: null },
      { instr: 2, taken: true },
      { instr: 5, taken: null },
    ]);
  });

  it('a loop that writes unrolls up to the bound; the path that would jump back again is cut', () => {
    const t = one(' LC00: ;\n st.sc0 y, 1 ;\n ld.atom.dv.sc0 r0, x ;\n beq r0, 0, LC00 ;');
    for (const bound of [0, 1, 2]) {
      const paths = threadPaths(t.threads[0]!, bound);
      expect(paths.filter((p) => !p.cut)).toHaveLength(bound + 1);
      expect(paths.filter((p) => p.cut)).toHaveLength(1);
    }
  });

  it('a run that reaches the bound is undecided (stop: bound); one that cannot is decided', () => {
    const spin = one(' LC00: ;\n st.sc0 y, 1 ;\n ld.atom.dv.sc0 r0, x ;\n beq r0, 0, LC00 ;');
    expect(runVulkan(spin, DEFAULT_VK_RUN).stop).toBe('bound');
    const done = one(' LC00: ;\n st.sc0 y, 1 ;\n ld.atom.dv.sc0 r0, y ;\n beq r0, 0, LC00 ;');
    // The load reads the store just before it: the loop never jumps back.
    expect(runVulkan(done, DEFAULT_VK_RUN).stop).toBe('done');
  });
});

describe('control barriers', () => {
  const three = (a: string, b: string, c: string) =>
    vk(
      `VULKAN t\n{ x=0; }\n P0@sg 0, wg 0, qf 0 | P1@sg 1, wg 0, qf 0 | P2@sg 2, wg 0, qf 0 ;\n${a}\n${b}\n${c}\nexists (x == 0)\n`,
    );

  it('an unnamed barrier completes when every thread of the workgroup that has it arrives', () => {
    const t = three(' cbar.wg 1 | cbar.wg 1 | st.sc0 x, 1 ;', ' | | ;', ' | | ;');
    const { variants } = variantsOf(t);
    expect(variants).toHaveLength(1);
    expect(variants[0]!.blocked).toEqual([]);
    expect(variants[0]!.instances.map((i) => i.members.map(([th]) => th))).toEqual([[0, 1]]);
  });

  it('threads of different workgroups meet at different instances', () => {
    const t = vk(
      'VULKAN t\n{ x=0; }\n P0@sg 0, wg 0, qf 0 | P1@sg 0, wg 1, qf 0 ;\n cbar.wg 1 | cbar.wg 1 ;\nexists (x == 0)\n',
    );
    expect(variantsOf(t).variants[0]!.instances.map((i) => i.members.map(([th]) => th))).toEqual([[0], [1]]);
  });

  it('a quorum barrier completes for any set of at least quorum arriving threads; the others wait forever', () => {
    const t = three(
      ' cbar.acq_rel.dv.semsc0 1, 1, 2 | cbar.acq_rel.dv.semsc0 1, 1, 2 | cbar.acq_rel.dv.semsc0 1, 1, 2 ;',
      ' | | ;',
      ' | | ;',
    );
    const sets = variantsOf(t)
      .variants.map(
        (v) =>
          `${v.instances.map((i) => i.members.map(([th]) => th).join('')).join()} blocked ${v.blocked.map((b) => b.thread).join('')}`,
      )
      .sort();
    expect(sets).toEqual(['01 blocked 2', '012 blocked ', '02 blocked 1', '12 blocked 0']);
  });

  it('barriers met in opposite orders deadlock: undefined behaviour, with the reason', () => {
    const t = vk(
      'VULKAN t\n{ x=0; }\n P0@sg 0, wg 0, qf 0 | P1@sg 1, wg 0, qf 0 ;\n cbar.wg 1 | cbar.wg 2 ;\n cbar.wg 2 | cbar.wg 1 ;\n st.sc0 x, 1 | ;\nexists (x == 1)\n',
    );
    const r = runVulkan(t, DEFAULT_VK_RUN);
    expect(r.flags.ub).toBe(true);
    expect(r.ubReasons).toEqual([
      'P0 waits forever at `cbar.wg 1` (t.litmus:4): the barrier instance never completes',
      'P1 waits forever at `cbar.wg 2` (t.litmus:4): the barrier instance never completes',
    ]);
    // P0 never stores.
    expect(r.condition?.verdict).toBe('fails');
  });

  it("Dartagnan's quorum test whose barrier needs more threads than arrive hangs", () => {
    const t = vk(`Vulkan hang
{ x=0; }
 P0@sg 0, wg 0, qf 0            | P1@sg 1, wg 0, qf 0            | P2@sg 2, wg 0, qf 0            ;
 ld.vis.dv.sc0 r0, x            | cbar.acq_rel.dv.semsc0 1, 1, 4 | cbar.acq_rel.dv.semsc0 1, 1, 4 ;
 cbar.acq_rel.dv.semsc0 1, 1, 4 | st.av.dv.sc0 x, 1              |                                ;
exists (P0:r0 == 1)
`);
    const r = runVulkan(t, DEFAULT_VK_RUN);
    expect(r.flags.ub).toBe(true);
    expect(r.condition?.verdict).toBe('fails');
    expect(r.states.map((s) => s.values)).toEqual([{ 'P0:r0': 0 }]);
  });
});
