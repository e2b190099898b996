/**
 * One test per mechanism of the GFX90A, GFX942 and GFX12.5 machines, each naming the hardware sentence
 * it implements (AMDGPUUsage "Memory Model GFX90A", "GFX942", "GFX125x"). The tests run the machines
 * alone (no model): which outcomes they reach, and what their traces say.
 */

import { describe, expect, it } from 'vitest';
import { type IsaInstr, wait } from '../lower/isa.ts';
import type { LowerCtx } from '../lower/types.ts';
import { ctxOf, docOf, litmus, machineRun, outcomeTexts, traceText, weaken } from './testutil.ts';

/** Message passing: P0 stores x then releases y; P1 acquires y then loads x, at `scope`. */
const MP = (scope: string, where: 'same-wg' | 'diff-wg' | 'diff-agent' = 'diff-wg') => `AMDGPU MP
@x = addrspace(1) global i32 0
@y = addrspace(1) global i32 0
P0 @ agent 0, workgroup 0, wavefront 0 {
  store i32 1, ptr addrspace(1) @x
  store atomic i32 1, ptr addrspace(1) @y${scope === 'system' ? '' : ` syncscope("${scope}")`} release
}
P1 @ agent ${where === 'diff-agent' ? 1 : 0}, workgroup ${where === 'same-wg' ? 0 : 1}, wavefront 1 {
  %r0 = load atomic i32, ptr addrspace(1) @y${scope === 'system' ? '' : ` syncscope("${scope}")`} acquire
  %r1 = load i32, ptr addrspace(1) @x
}
`;
const R = ['P1:r0', 'P1:r1'];
const STALE = 'P1:r0=1 P1:r1=0';

const isInv = (i: IsaInstr) => i.kind === 'inv';
const isWb = (i: IsaInstr) => i.kind === 'wb';

/** The documents' code is not stale; dropping the first instruction `match` finds makes it stale. */
async function needed(src: string, ctx: LowerCtx, thread: 'P0' | 'P1', match: (i: IsaInstr) => boolean) {
  const test = litmus(src);
  const doc = docOf(test, ctx);
  expect(outcomeTexts(test, await machineRun(test, doc, ctx), R)).not.toContain(STALE);
  const weak = weaken(test, doc, { thread, ir: thread === 'P0' ? 1 : 0, match });
  const r = await machineRun(test, weak, ctx);
  expect(outcomeTexts(test, r, R)).toContain(STALE);
  return { test, r, trace: traceText(test, r, R, STALE)! };
}

describe('GFX90A', () => {
  it('TgSplit: "wavefronts of the same work-group can be in different CUs and so a buffer_wbinvl1_vol is required" — without it a workgroup-scope acquire reads a stale L1 line', async () => {
    const { trace } = await needed(MP('workgroup', 'same-wg'), ctxOf('gfx90a', 'tgsplit'), 'P1', isInv);
    expect(trace.some((l) => /global_load — hit @x=0 in L1@cu1 \(stale/.test(l))).toBe(true);
    // Without TgSplit the work-group's waves share a CU: the table has no invalidate, and needs none.
    const test = litmus(MP('workgroup', 'same-wg'));
    const ctx = ctxOf('gfx90a');
    const code = docOf(test, ctx);
    expect(code[1]!.flat().some(isInv)).toBe(false);
    expect(outcomeTexts(test, await machineRun(test, code, ctx), R)).not.toContain(STALE);
  });

  it('"To ensure coherence of local and remote memory writes of work-groups in different agents a buffer_wbl2 is required. It will writeback dirty L2 cache lines"', async () => {
    const { trace } = await needed(MP('system', 'diff-agent'), ctxOf('gfx90a'), 'P0', isWb);
    expect(trace.some((l) => /global_store — wrote @x=1 in L2@a0 \(dirty\)/.test(l))).toBe(true);
  });

  it('"To ensure coherence of local and remote memory reads of work-groups in different agents a buffer_invl2 is required. It will invalidate L2 cache lines with MTYPE NC"', async () => {
    const { trace } = await needed(
      MP('system', 'diff-agent'),
      ctxOf('gfx90a'),
      'P1',
      (i) => i.kind === 'inv' && i.mnemonic === 'buffer_invl2',
    );
    expect(trace.some((l) => /hit @x=0 in L2@a1 \(stale/.test(l))).toBe(true);
  });

  it('"Since all work-groups on the same agent share the same L2, no L2 invalidation or writeback is required for coherence": the agent-scope rows have none, and are sound', async () => {
    const test = litmus(MP('agent'));
    const ctx = ctxOf('gfx90a');
    const code = docOf(test, ctx);
    expect(code.flat(2).some((i) => isWb(i) || (i.kind === 'inv' && i.mnemonic === 'buffer_invl2'))).toBe(
      false,
    );
    expect(outcomeTexts(test, await machineRun(test, code, ctx), R)).not.toContain(STALE);
  });
});

describe('GFX942', () => {
  it('several L2s per agent: "To ensure coherence of local memory writes of CUs with different L1 caches in the same agent a buffer_wbl2 is required … will writeback dirty L2 cache lines if configured to have multiple L2 caches"', async () => {
    const { r, trace } = await needed(MP('agent'), ctxOf('gfx942'), 'P0', isWb);
    expect(trace.some((l) => /global_store — wrote @x=1 in L2@a0\.l2\.0 \(dirty\)/.test(l))).toBe(true);
    expect(r.machines.some((m) => m.placement.text.includes('several L2s per agent'))).toBe(true);
  });

  it('"To ensure coherence of local memory reads of CUs with different L1 caches in the same agent a buffer_inv sc1 is required … will invalidate non-local L2 cache lines"', async () => {
    const { trace } = await needed(MP('agent'), ctxOf('gfx942'), 'P1', isInv);
    expect(trace.some((l) => /hit @x=0 in L(1|2)@\S+ \(stale/.test(l))).toBe(true);
  });

  it('one L2 per agent ("a number of smaller agents with each having a single L2"): only a system-scope release writes it back (buffer_wbl2 sc0=1 sc1=1)', async () => {
    const { r, trace } = await needed(MP('system', 'diff-agent'), ctxOf('gfx942'), 'P0', isWb);
    expect(r.machines.some((m) => m.placement.text.includes('one L2 per agent'))).toBe(true);
    expect(trace.some((l) => /wrote @x=1 in L2@a0\S* \(dirty\)/.test(l))).toBe(true);
  });

  it('scope bits: an agent-scope load (sc1=1) is performed beyond the L1 and the L2 of its group ("They do use sc1 to indicate system or agent scope coherence"); with sc1 cleared it reads a stale copy', async () => {
    const test = litmus(`AMDGPU SB
@x = addrspace(1) global i32 0
@y = addrspace(1) global i32 0
P0 @ agent 0, workgroup 0 {
  store atomic i32 1, ptr addrspace(1) @x syncscope("agent") seq_cst
  %r0 = load atomic i32, ptr addrspace(1) @y syncscope("agent") seq_cst
}
P1 @ agent 0, workgroup 1 {
  store atomic i32 1, ptr addrspace(1) @y syncscope("agent") seq_cst
  %r1 = load atomic i32, ptr addrspace(1) @x syncscope("agent") seq_cst
}
`);
    const ctx = ctxOf('gfx942');
    const doc = docOf(test, ctx);
    const labels = ['P0:r0', 'P1:r1'];
    expect(outcomeTexts(test, await machineRun(test, doc, ctx), labels)).not.toContain('P0:r0=0 P1:r1=0');
    const noSc1 = weaken(test, doc, {
      thread: 'P0',
      ir: 1,
      match: (i) => i.kind === 'vmem' && i.op === 'load' && i.sc1,
      replace: (i) => ({ ...(i as IsaInstr & { kind: 'vmem' }), sc1: false }),
    });
    expect(outcomeTexts(test, await machineRun(test, noSc1, ctx), labels)).toContain('P0:r0=0 P1:r1=0');
  });

  it('TgSplit: "a buffer_inv sc0 is required which will invalidate the L1 cache" for a work-group spread over CUs', async () => {
    const { trace } = await needed(MP('workgroup', 'same-wg'), ctxOf('gfx942', 'tgsplit'), 'P1', isInv);
    expect(trace.some((l) => /hit @x=0 in L1@cu1 \(stale/.test(l))).toBe(true);
  });
});

describe('GFX12.5', () => {
  it('"Each WGP has a single write-through WGP cache (WGP$)": a workgroup-scope release needs no write-back, and is sound without one', async () => {
    const test = litmus(MP('workgroup', 'same-wg'));
    const ctx = ctxOf('gfx1250');
    const code = docOf(test, ctx);
    expect(code.flat(2).some(isWb)).toBe(false);
    expect(outcomeTexts(test, await machineRun(test, code, ctx), R)).not.toContain(STALE);
  });

  it('cluster scope is SCOPE_SE, the L1 buffer "shared by all WGPs on the same SE": the work-groups of a cluster share it, and a cluster acquire must invalidate the WGP$ (global_inv scope:SCOPE_SE)', async () => {
    const { trace } = await needed(MP('cluster'), ctxOf('gfx1250'), 'P1', isInv);
    expect(trace.some((l) => /hit @x=0 in WGP\$@cu1 \(stale/.test(l))).toBe(true);
    // The stores of a cluster release stay in the shared L1 buffer: no write-back in the table.
    expect(
      docOf(litmus(MP('cluster')), ctxOf('gfx1250'))
        .flat(2)
        .some(isWb),
    ).toBe(false);
  });

  it('"SCOPE_DEV can always be used to implement agent coherence, even in the presence of multiple non-coherent L2 caches": an agent release without global_wb scope:SCOPE_DEV leaves the data in the L1 buffer', async () => {
    const { trace } = await needed(MP('agent'), ctxOf('gfx1250'), 'P0', isWb);
    expect(trace.some((l) => /global_store — wrote @x=1 in L1@a0\.sa0 \(dirty\)/.test(l))).toBe(true);
  });

  it('"s_wait_xcnt is a counter that is incremented when a memory operation is issued, and decremented when memory address translation for that instruction is completed": it orders no access, and a wait on it never blocks', async () => {
    const test = litmus(MP('agent'));
    const ctx = ctxOf('gfx1250');
    const doc = docOf(test, ctx);
    expect(doc[0]!.flat().some((i) => i.kind === 'wait' && i.counters.includes('xcnt'))).toBe(true);
    const noXcnt = doc.map((th) =>
      th.map((s) => s.filter((i) => !(i.kind === 'wait' && i.counters[0] === 'xcnt'))),
    );
    const a = await machineRun(test, doc, ctx);
    const b = await machineRun(test, noXcnt, ctx);
    expect(outcomeTexts(test, a, R)).toEqual(outcomeTexts(test, b, R));
  });
});

describe('waits to a count (llc-22 code)', () => {
  it('"completion is reported to a wavefront in execution order": s_waitcnt vmcnt(1) waits for every store but the last', async () => {
    const test = litmus(`AMDGPU MP3
@x = addrspace(1) global i32 0
@y = addrspace(1) global i32 0
@z = addrspace(1) global i32 0
P0 @ agent 0, workgroup 0 {
  store i32 1, ptr addrspace(1) @x
  store i32 1, ptr addrspace(1) @z
  store atomic i32 1, ptr addrspace(1) @y syncscope("agent") release
}
P1 @ agent 0, workgroup 1 {
  %r0 = load atomic i32, ptr addrspace(1) @y syncscope("agent") acquire
  %r1 = load i32, ptr addrspace(1) @x
}
`);
    const ctx = ctxOf('gfx900');
    const at = (n: number) =>
      weaken(test, docOf(test, ctx), {
        thread: 'P0',
        ir: 2,
        match: (i) => i.kind === 'wait',
        replace: () => ({ ...wait('vmcnt'), counts: [n] }),
      });
    expect(outcomeTexts(test, await machineRun(test, at(1), ctx), R)).not.toContain(STALE);
    expect(outcomeTexts(test, await machineRun(test, at(2), ctx), R)).toContain(STALE);
  });
});
