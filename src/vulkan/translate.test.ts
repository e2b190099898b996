/**
 * Vulkan tests as AMDGPU tests and back (translate.ts, from-amdgpu.ts; docs/model-vulkan.md,
 * "Vulkan and AMDGPU"): each mapping of the table, the assumptions of await loops, what has no
 * spelling (VK4008), and the verdicts the translations give on tests whose mapping is exact.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Test } from '../core/types.ts';
import { runTestSync } from '../enumerate/verdict.ts';
import { DEFAULT_OPTIONS } from '../models/amdgpu.ts';
import { parse } from '../syntax/parser.ts';
import { print } from '../syntax/printer.ts';
import type { VulkanTest } from './ast.ts';
import { parseDat3m } from './dat3m.ts';
import { amdgpuToVulkan } from './from-amdgpu.ts';
import { printDat3m } from './print.ts';
import { DEFAULT_VK_RUN, runVulkan } from './run.ts';
import { vulkanToAmdgpu } from './translate.ts';

const root = join(import.meta.dirname, '..', '..');

function vk(text: string): VulkanTest {
  const r = parseDat3m(text, 't.litmus');
  expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return r.test!;
}

function toAmdgpu(t: VulkanTest, deviceScope: 'system' | 'agent' = 'system'): string {
  const r = vulkanToAmdgpu(t, deviceScope);
  expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return print(r.test!);
}

const HEAD = 'VULKAN t\n{ x=0; y=0; }\n P0@sg 0, wg 0, qf 0 | P1@sg 1, wg 0, qf 0 ;\n';

describe('Vulkan → AMDGPU', () => {
  it('maps scopes: subgroup → wavefront, workgroup → workgroup, queue family → agent, device → system (or agent)', () => {
    const t = vk(
      `${HEAD} st.atom.sg.sc0 x, 1 | ld.atom.qf.sc0 r0, x ;\n st.atom.wg.sc0 y, 1 | ld.atom.dv.sc0 r1, y ;\nexists (P1:r0 == 1)\n`,
    );
    const a = toAmdgpu(t);
    expect(a).toContain('store atomic i32 1, ptr addrspace(1) @x syncscope("wavefront") monotonic');
    expect(a).toContain('store atomic i32 1, ptr addrspace(1) @y syncscope("workgroup") monotonic');
    expect(a).toContain('%r0 = load atomic i32, ptr addrspace(1) @x syncscope("agent") monotonic');
    expect(a).toContain('%r1 = load atomic i32, ptr addrspace(1) @y monotonic');
    expect(toAmdgpu(t, 'agent')).toContain(
      '%r1 = load atomic i32, ptr addrspace(1) @y syncscope("agent") monotonic',
    );
  });

  it('maps accesses: private and non-private plain → plain, .av/.vis → the av intrinsics, atomics → amdgcn-av none unless .semav/.semvis', () => {
    const t = vk(
      `${HEAD} st.sc0 x, 1 | ld.nonpriv.sc0 r0, x ;\n st.av.wg.sc0 y, 1 | ld.vis.dv.sc0 r1, y ;\n st.atom.rel.dv.sc0.semsc0 x, 2 | ld.atom.acq.dv.sc0.semsc0.semvis r2, x ;\nexists (P1:r0 == 1)\n`,
    );
    const a = toAmdgpu(t);
    expect(a).toContain('store i32 1, ptr addrspace(1) @x\n');
    expect(a).toContain('%r0 = load i32, ptr addrspace(1) @x\n');
    expect(a).toContain(
      'call void @llvm.amdgcn.av.global.store.b128(ptr addrspace(1) @y, i32 1, metadata !"workgroup")',
    );
    expect(a).toContain('%r1 = call i32 @llvm.amdgcn.av.global.load.b128(ptr addrspace(1) @y, metadata !"")');
    expect(a).toContain('store atomic i32 2, ptr addrspace(1) @x release, !mmra !{!"amdgcn-av", !"none"}');
    expect(a).toContain('%r2 = load atomic i32, ptr addrspace(1) @x acquire\n');
  });

  it('maps barriers: membar → fence, a control barrier with semantics → release fence, s.barrier, acquire fence', () => {
    const t = vk(
      `${HEAD} membar.rel.wg.semsc0.semav | cbar.acq_rel.wg.semsc0 1 ;\n cbar.acq_rel.wg.semsc0 1 | ;\nexists (x == 0)\n`,
    );
    const a = toAmdgpu(t);
    expect(a).toContain('fence syncscope("workgroup") release\n');
    expect(a).toMatch(
      /fence syncscope\("workgroup"\) release, !mmra !\{!"amdgcn-av", !"none"\}\n {2}call void @llvm\.amdgcn\.s\.barrier\(\)\n {2}fence syncscope\("workgroup"\) acquire, !mmra !\{!"amdgcn-av", !"none"\}/,
    );
  });

  it('an await loop becomes its exiting iteration, its exit condition an assumption of the condition', () => {
    const t = vk(readFileSync(join(root, 'corpus/vulkan-dat3m/Manual/MP-mesa.litmus'), 'utf8'));
    const r = vulkanToAmdgpu(t);
    const a = print(r.test!);
    expect(a).toContain('%cond.2 = icmp ne i32 %r1, 0');
    expect(a).toContain('exists ((P0:%r3 == 1 /\\ P0:%r2 != 1) /\\ P0:%cond.2 == 1)');
    expect(r.assumption).not.toBeNull();
    // forall: the assumption guards the condition.
    const c = vk(readFileSync(join(root, 'corpus/vulkan-dat3m/Manual/cbar-1.litmus'), 'utf8'));
    expect(print(vulkanToAmdgpu(c).test!)).toContain('forall (~(P0:%cond.2 == 1 /\\ P1:%cond.2 == 1) \\/ (');
  });

  it('what the AMDGPU syntax cannot say is an error with its position (VK4008)', () => {
    const codes = (text: string) =>
      vulkanToAmdgpu(vk(text)).diagnostics.map((d) => `${d.severity} ${d.code}@${d.span.line}:${d.span.col}`);
    expect(
      codes(`${HEAD} cbar.acq_rel.wg.semsc0 1, 1, 2 | cbar.acq_rel.wg.semsc0 1, 1, 2 ;\nexists (x == 0)\n`),
    ).toEqual(['error VK4008@4:2', 'error VK4008@4:35']);
    expect(codes(`${HEAD} avdevice | visdevice ;\nexists (x == 0)\n`)).toEqual([
      'error VK4008@4:2',
      'error VK4008@4:13',
    ]);
    expect(
      codes(
        `${HEAD} ld.sc0 r0, x | ld.sc0 r0, x ;\n beq r0, 0, LC00 | ;\n st.sc0 y, 1 | ;\n LC00: | ;\nexists (x == 0)\n`,
      ),
    ).toEqual(['error VK4008@3:2']);
    expect(
      codes(`VULKAN t\n{ x=0; y=x; }\n P0@sg 0, wg 0, qf 0 ;\n ld.sc0 r0, y ;\nexists (x == 0)\n`),
    ).toEqual(['error VK4008@2:8']);
    // An acquire-release RMW with MakeAvailable but not MakeVisible gets both: a warning.
    expect(codes(`${HEAD} rmw.atom.acq_rel.dv.sc0.semsc0.semav.add r0, x, 1 | ;\nexists (x == 0)\n`)).toEqual(
      ['warning VK4009@4:2'],
    );
  });
});

describe('AMDGPU → Vulkan', () => {
  const amdgpu = (file: string): Test => parse(readFileSync(join(root, 'litmus', file), 'utf8'), file).test!;

  it('maps the message-passing test back: non-private plain accesses, acquire/release at queue family scope with MakeAvailable/MakeVisible', () => {
    const r = amdgpuToVulkan(amdgpu('MP+rel+acq.agent.litmus'));
    expect(r.diagnostics.map((d) => `${d.severity} ${d.code}`)).toEqual(['warning VK4010']);
    const text = printDat3m(r.test!).text!;
    expect(text).toContain('st.atom.rel.qf.sc0.semsc0.semav y, 1');
    expect(text).toContain('ld.atom.acq.qf.sc0.semsc0.semvis r0, y');
    expect(text).toContain('st.nonpriv.sc0 x, 1');
    // The expectations are the AMDGPU model's: dropped.
    expect(r.test!.expects).toEqual([]);
    // Under the Vulkan model the stale read is forbidden too.
    expect(runVulkan(r.test!, DEFAULT_VK_RUN).condition?.verdict).toBe('fails');
  });

  it('keeps register names of the form rN, and names the others after them', () => {
    const r = amdgpuToVulkan(amdgpu('LB+plain.litmus'));
    expect(r.test!.threads.map((th) => th.body.flatMap((i) => (i.kind === 'ld' ? [i.dst] : [])))).toEqual([
      ['r0'],
      ['r1'],
    ]);
  });

  it('what Vulkan cannot say is an error (VK4008): seq_cst, LDS, host threads', () => {
    for (const f of ['IRIW+sc.agent.litmus', 'LDS.per-wg.final.litmus', 'CoRR.host.litmus']) {
      const r = amdgpuToVulkan(amdgpu(f));
      expect(r.test, f).toBeNull();
      expect(
        r.diagnostics.some((d) => d.code === 'VK4008'),
        f,
      ).toBe(true);
    }
  });
});

describe('verdicts across the translation', () => {
  it("Dartagnan's MP tests: the AMDGPU model agrees with the Vulkan model where the mapping is exact", () => {
    for (const f of ['MP-avvis', 'IRIW', 'MP-mesa-load-acq']) {
      const t = vk(readFileSync(join(root, `corpus/vulkan-dat3m/Manual/${f}.litmus`), 'utf8'));
      const v = runVulkan(t, DEFAULT_VK_RUN).condition?.verdict;
      const a = runTestSync(vulkanToAmdgpu(t).test!, {
        model: DEFAULT_OPTIONS,
        maxExecutions: 1e7,
        timeoutMs: 60_000,
        explain: false,
      });
      expect([f, a.condition?.verdict]).toEqual([f, v]);
    }
  });
});
