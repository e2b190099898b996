/**
 * One test per machine mechanism, each naming the hardware sentence it implements. The tests run
 * the machines alone (no model): which outcomes the machine reaches, and what its traces say.
 */

import { describe, expect, it } from 'vitest';
import { barrierInstr, globalInv, type IsaInstr, wait } from '../lower/isa.ts';
import { ctxOf, docOf, litmus, litmusFile, machineRun, outcomeTexts, traceText, weaken } from './testutil.ts';

const MP = (rel: string, acq: string, scope: string) => `AMDGPU MP
@x = addrspace(1) global i32 0
@y = addrspace(1) global i32 0
P0 @ agent 0, workgroup 0, wavefront 0 {
  store i32 1, ptr addrspace(1) @x
  store atomic i32 1, ptr addrspace(1) @y syncscope("${scope}") ${rel}
}
P1 @ agent 0, workgroup ${scope === 'workgroup' ? 0 : 1}, wavefront 1 {
  %r0 = load atomic i32, ptr addrspace(1) @y syncscope("${scope}") ${acq}
  %r1 = load i32, ptr addrspace(1) @x
}
exists (P1:%r0 == 1 /\\ P1:%r1 == 0)
`;
const R = ['P1:r0', 'P1:r1'];
const STALE = 'P1:r0=1 P1:r1=0';

describe('GFX6–9 vector L1 (amdgpu-usage-2018.rst "Memory Model")', () => {
  it('a stale L1 line is read: "The vector memory operations access a vector L1 cache shared by all wavefronts on a CU" — without buffer_wbinvl1_vol the acquire keeps it', async () => {
    const test = litmus(MP('release', 'acquire', 'agent'));
    const ctx = ctxOf('gfx900');
    const noInv = weaken(test, docOf(test, ctx), { thread: 'P1', ir: 0, match: (i) => i.kind === 'inv' });
    const r = await machineRun(test, noInv, ctx);
    expect(outcomeTexts(test, r, R)).toContain(STALE);
    const trace = traceText(test, r, R, STALE)!;
    expect(trace.some((l) => /global_load — hit @x=0 in L1@cu\d \(stale: memory holds 1\)/.test(l))).toBe(
      true,
    );
  });

  it('an invalidate forces a miss: "A buffer_wbinvl1_vol is required for coherence between waves executing in different work-groups"', async () => {
    const test = litmus(MP('release', 'acquire', 'agent'));
    const ctx = ctxOf('gfx900');
    const r = await machineRun(test, docOf(test, ctx), ctx);
    expect(outcomeTexts(test, r, R)).not.toContain(STALE);
  });

  it('per-CU request queues reorder: "A s_waitcnt vmcnt(0) is required to ensure synchronization between vector memory operations of different CUs"', async () => {
    const test = litmus(MP('release', 'acquire', 'agent'));
    const ctx = ctxOf('gfx900');
    const code = weaken(test, docOf(test, ctx), { thread: 'P0', ir: 1, match: (i) => i.kind === 'wait' });
    const r = await machineRun(test, code, ctx);
    expect(outcomeTexts(test, r, R)).toContain(STALE);
  });
});

describe('GFX12 caches and scopes (gfx12-memory-model.rst)', () => {
  it('a write-back publishes: "global_wb additionally ensures that previous memory operation done at a lower scope level have reached the SCOPE: of the global_wb"', async () => {
    const test = litmus(MP('release', 'acquire', 'agent'));
    const ctx = ctxOf('gfx1200', 'cu');
    const doc = docOf(test, ctx);
    expect(outcomeTexts(test, await machineRun(test, doc, ctx), R)).not.toContain(STALE);
    const noWb = weaken(test, doc, { thread: 'P0', ir: 1, match: (i) => i.kind === 'wb' });
    const r = await machineRun(test, noWb, ctx);
    expect(outcomeTexts(test, r, R)).toContain(STALE);
    // "Writes can happen in this cache and the transaction is acknowledged from this level of cache."
    expect(traceText(test, r, R, STALE)!.some((l) => /wrote @x=1 in L0@cu0 \(dirty\)/.test(l))).toBe(true);
  });

  it('an invalidate forces a miss: "global_inv invalidates caches whose scope is strictly smaller than the instruction\'s"', async () => {
    const test = litmus(MP('release', 'acquire', 'agent'));
    const ctx = ctxOf('gfx1200', 'cu');
    const noInv = weaken(test, docOf(test, ctx), { thread: 'P1', ir: 0, match: (i) => i.kind === 'inv' });
    const r = await machineRun(test, noInv, ctx);
    expect(outcomeTexts(test, r, R)).toContain(STALE);
    expect(traceText(test, r, R, STALE)!.some((l) => /hit @x=0 in (L0|GL1).*stale/.test(l))).toBe(true);
  });

  it('counters complete out of order only across types: "Completion of a vector memory operation is reported to a wavefront in-order within a type, but may be out of order between types"', async () => {
    const test = litmus(MP('release', 'acquire', 'agent'));
    const ctx = ctxOf('gfx1200', 'cu');
    const isStoreWait = (i: IsaInstr) => i.kind === 'wait' && i.counters.includes('storecnt');
    // The release waits on every counter; waiting on loads only leaves the store of x outstanding.
    const loadsOnly = weaken(test, docOf(test, ctx), {
      thread: 'P0',
      ir: 1,
      match: isStoreWait,
      replace: () => wait('loadcnt'),
    });
    const r = await machineRun(test, loadsOnly, ctx);
    expect(outcomeTexts(test, r, R)).toContain(STALE);
    const trace = traceText(test, r, R, STALE)!;
    expect(trace.some((l) => /s_wait_loadcnt 0x0 — loadcnt drained/.test(l))).toBe(true);
  });

  it('WGP mode makes a workgroup-scope acquire need an invalidate that CU mode does not: "In WGP wavefront execution mode, a global_inv scope:SCOPE_SE is required"', async () => {
    const test = litmus(MP('release', 'acquire', 'workgroup'));
    const wgp = ctxOf('gfx1200', 'wgp');
    const cu = ctxOf('gfx1200', 'cu');
    const wgpDoc = docOf(test, wgp);
    expect(outcomeTexts(test, await machineRun(test, wgpDoc, wgp), R)).not.toContain(STALE);
    const noInv = weaken(test, wgpDoc, { thread: 'P1', ir: 0, match: (i) => i.kind === 'inv' });
    const r = await machineRun(test, noInv, wgp);
    expect(outcomeTexts(test, r, R)).toContain(STALE);
    // The stale copy is in the other CU's L0 of the WGP.
    expect(traceText(test, r, R, STALE)!.some((l) => /hit @x=0 in L0@cu1/.test(l))).toBe(true);
    // CU mode: the CU-mode code has no invalidate at all, and the same wave placement is impossible.
    const cuDoc = docOf(test, cu);
    expect(cuDoc[1]!.flat().some((i) => i.kind === 'inv')).toBe(false);
    expect(outcomeTexts(test, await machineRun(test, cuDoc, cu), R)).not.toContain(STALE);
  });
});

describe('barriers (seeds/001)', () => {
  it('s_barrier blocks until every wave of the work-group arrives, and orders no memory', async () => {
    const test = litmus(`AMDGPU MP+bar
@x = addrspace(1) global i32 0
P0 @ agent 0, workgroup 0, wavefront 0 {
  store i32 1, ptr addrspace(1) @x
  call void @llvm.amdgcn.s.barrier()
}
P1 @ agent 0, workgroup 0, wavefront 1 {
  call void @llvm.amdgcn.s.barrier()
  %r0 = load i32, ptr addrspace(1) @x
}
exists (P1:%r0 == 0)
`);
    const ctx = ctxOf('gfx1200', 'wgp');
    const r = await machineRun(test, docOf(test, ctx), ctx);
    expect(outcomeTexts(test, r, ['P1:r0'])).toEqual(['P1:r0=0', 'P1:r0=1']);
    // The barrier does block: P1's load never issues before P0 signals.
    const trace = traceText(test, r, ['P1:r0'], 'P1:r0=0')!;
    const signal = trace.findIndex((l) => /issue P0: s_barrier_signal -1/.test(l));
    const load = trace.findIndex((l) => /issue P1: global_load/.test(l));
    expect(signal).toBeGreaterThanOrEqual(0);
    expect(load).toBeGreaterThan(signal);
  });

  it('s_barrier_wait blocks until every live member has signalled; a wave that never signals blocks itself (deadlock reported)', async () => {
    const test = litmus(`AMDGPU hang
@x = addrspace(1) global i32 0
P0 @ agent 0, workgroup 0, wavefront 0 {
  store i32 1, ptr addrspace(1) @x
}
P1 @ agent 0, workgroup 0, wavefront 1 {
  %r0 = load i32, ptr addrspace(1) @x
}
exists (P1:%r0 == 0)
`);
    const ctx = ctxOf('gfx1200', 'wgp');
    const code = docOf(test, ctx);
    // P0 waits at the barrier without signalling it; P1 never signals either.
    const add = (t: number, ...bs: IsaInstr[]) =>
      code.map((th, u) => (u === t ? th.map((seq, k) => (k === 0 ? [...seq, ...bs] : seq)) : th));
    const signal = barrierInstr('s_barrier_signal', -1);
    const bwait = barrierInstr('s_barrier_wait', -1);
    // Both signal, then wait: everyone passes.
    const both = add(0, signal, bwait).map((th, u) => (u === 1 ? add(1, signal, bwait)[1]! : th));
    expect((await machineRun(test, both, ctx)).deadlock).toBe(false);
    // P1 never arrives but finishes: a finished wave no longer counts, P0 goes on.
    expect((await machineRun(test, add(0, signal, bwait), ctx)).deadlock).toBe(false);
    // P0 waits without having signalled: it waits for itself forever.
    expect((await machineRun(test, add(0, bwait), ctx)).deadlock).toBe(true);
  });

  it('"The _isfirst variant sets SCC=1 if this wave is the first to signal the barrier": exactly one of two waves is first, either one; the lanes of a wave share its result', async () => {
    const test = litmusFile('litmus/barriers/BAR-isfirst.litmus');
    const ctx = ctxOf('gfx1250');
    const r = await machineRun(test, docOf(test, ctx), ctx);
    expect(outcomeTexts(test, r, ['P0:f', 'P1:f'])).toEqual(['P0:f=0 P1:f=1', 'P0:f=1 P1:f=0']);
    const lanes = litmusFile('litmus/barriers/BAR-isfirst.lanes.litmus');
    const rl = await machineRun(lanes, docOf(lanes, ctx), ctx);
    expect(outcomeTexts(lanes, rl, ['P0:f', 'P1:f', 'P2:f'])).toEqual([
      'P0:f=0 P1:f=0 P2:f=1',
      'P0:f=1 P1:f=1 P2:f=0',
    ]);
  });

  it('named barriers: "Barrier init … Sets the expected count"; a wait "always waits on the last named barrier object that the thread has joined" — a wave passes only when both members have arrived', async () => {
    const test = litmusFile('litmus/barriers/MP+nbar+fence.wg.litmus');
    const ctx = ctxOf('gfx1250');
    const doc = docOf(test, ctx);
    const r = await machineRun(test, doc, ctx);
    expect(outcomeTexts(test, r, ['P1:r0'])).toEqual(['P1:r0=1']);
    expect(r.deadlock).toBe(false);
    // Without P1's wait (its instruction 3), nothing holds it back.
    const noWait = weaken(test, doc, { thread: 'P1', ir: 3, match: (i) => i.kind === 'barrier' });
    expect(outcomeTexts(test, await machineRun(test, noWait, ctx), ['P1:r0'])).toContain('P1:r0=0');
    // An init expecting three members never completes with two: a deadlock, never a pass.
    const three = doc.map((th) =>
      th.map((seq) =>
        seq.map((i) =>
          i.kind === 'setm0' && i.value >> 16 === 2 ? { ...i, value: (3 << 16) | (i.value & 0x3f) } : i,
        ),
      ),
    );
    const hang = await machineRun(test, three, ctx);
    expect(hang.deadlock).toBe(true);
    expect(hang.outcomes).toEqual([]);
  });

  it('cluster barrier -3: "only one wave per workgroup may arrive … However, any wave within the workgroup cluster can then wait on this barrier object"', async () => {
    const test = litmusFile('litmus/barriers/CB-MP+fence.cluster.litmus');
    const ctx = ctxOf('gfx1250');
    const doc = docOf(test, ctx);
    const r = await machineRun(test, doc, ctx);
    expect(outcomeTexts(test, r, ['P2:r0'])).toEqual(['P2:r0=1']);
    const noWait = weaken(test, doc, { thread: 'P2', ir: 0, match: (i) => i.kind === 'barrier' });
    expect(outcomeTexts(test, await machineRun(test, noWait, ctx), ['P2:r0'])).toContain('P2:r0=0');
  });

  it('an invalidate the family does not have is unsupported', async () => {
    const test = litmus(MP('release', 'acquire', 'agent'));
    const ctx = ctxOf('gfx900');
    const code = docOf(test, ctx).map((th) => th.map((s) => [...s, globalInv('SCOPE_DEV')]));
    await expect(machineRun(test, code, ctx)).rejects.toThrow(
      /global_inv scope:SCOPE_DEV is not implemented by the gfx6-9 machine/,
    );
  });
});
