/**
 * One test per mechanism of the Intel Xe machine, each naming the sentence it implements: the vISA
 * LSC_FENCE description (intel-lsc-fence.md) and, where it is silent, what Intel's graphics compiler says
 * of the hardware or relies on (docs/hardware.md, "Intel Xe"). The tests run the machines alone (no model).
 */

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { diagnosticLine } from '../core/diagnostics.ts';
import { xeGroups } from '../lower/intel.ts';
import type { IsaInstr } from '../lower/isa.ts';
import type { LscFenceInstr } from '../lower/isa-xe.ts';
import { PROCESSORS } from '../lower/targets.ts';
import { familyMachine, xeGroupOf } from './config.ts';
import { compileProgram } from './program.ts';
import { machinesOf } from './simulate.ts';
import { ctxOf, docOf, litmus, litmusFile, machineRun, outcomeTexts, traceText, weaken } from './testutil.ts';

/** Message passing: P0 stores x then releases y; P1 acquires y then loads x, at `scope`. */
const MP = (scope: string, where: 'same-wg' | 'diff-wg' | 'diff-agent' = 'diff-wg') => {
  const ss = scope === 'system' ? '' : ` syncscope("${scope}")`;
  return `AMDGPU MP
@x = addrspace(1) global i32 0
@y = addrspace(1) global i32 0
P0 @ agent 0, workgroup 0, wavefront 0 {
  store i32 1, ptr addrspace(1) @x
  store atomic i32 1, ptr addrspace(1) @y${ss} release
}
P1 @ agent ${where === 'diff-agent' ? 1 : 0}, workgroup ${where === 'same-wg' ? 0 : 1}, wavefront 1 {
  %r0 = load atomic i32, ptr addrspace(1) @y${ss} acquire
  %r1 = load i32, ptr addrspace(1) @x
}
`;
};

/** As MP, but P1 reads the data with an atomic (performed past the L1). */
const MP_ATOMIC_DATA = (scope: string) =>
  MP(scope, 'same-wg').replace(
    '%r1 = load i32, ptr addrspace(1) @x',
    `%r1 = load atomic i32, ptr addrspace(1) @x syncscope("${scope}") monotonic`,
  );

const R = ['P1:r0', 'P1:r1'];
const STALE = 'P1:r0=1 P1:r1=0';

const fence =
  (op?: LscFenceInstr['op'], scope?: LscFenceInstr['scope']) =>
  (i: IsaInstr): boolean =>
    i.kind === 'lsc_fence' &&
    i.sfid === 'ugm' &&
    (op === undefined || i.op === op) &&
    (scope === undefined || i.scope === scope);
const as =
  (change: Partial<LscFenceInstr>) =>
  (i: IsaInstr): IsaInstr => ({ ...(i as LscFenceInstr), ...change });

/** The outcomes over R of the documents' code of `src` on `target`, weakened as asked. */
async function run(
  src: string,
  target: string,
  w?: { thread: 'P0' | 'P1'; match: (i: IsaInstr) => boolean; replace?: (i: IsaInstr) => IsaInstr },
) {
  const test = litmus(src);
  const ctx = ctxOf(target);
  let code = docOf(test, ctx);
  if (w) code = weaken(test, code, { ...w, ir: w.thread === 'P0' ? 1 : 0 });
  const r = await machineRun(test, code, ctx);
  return {
    test,
    r,
    outcomes: outcomeTexts(test, r, R),
    trace: (want = STALE) => traceText(test, r, R, want),
  };
}

describe('Intel Xe machines and the processor table', () => {
  it('one machine per fence-lowering group; each agrees with its processors` features (hasMultiTile; "On some products cache is not flushed for scope < tile")', () => {
    for (const p of PROCESSORS.filter((x) => x.vendor === 'Intel')) {
      const g = xeGroupOf(p.generation);
      expect(g.multiTile, p.name).toBe(p.features.multiTile);
      expect(g.l1BelowTile, p.name).toBe(!p.features.l1FenceToTile);
    }
    const ids = xeGroups().map(
      (g) => new Set(g.processors.map((p) => familyMachine('xe', p.generation)!.id)),
    );
    for (const s of ids) expect(s.size).toBe(1);
    expect(new Set(ids.map((s) => [...s][0])).size).toBe(ids.length);
  });
});

describe('Intel Xe caches (intel-lsc-fence.md LSC_FENCE; IGC barrier.cl, atomics.cl)', () => {
  it('an L1 per Xe-core, write-back, shared by the work-group ("Single workgroup executes on one DSS and shares the same L1 cache"): a work-group-scope message pass needs no L1 maintenance, only the fence\'s wait', async () => {
    const { outcomes, trace } = await run(MP('workgroup', 'same-wg'), 'lnl', {
      thread: 'P1',
      match: fence('invalidate'),
      replace: as({ op: 'none' }),
    });
    expect(outcomes).not.toContain(STALE);
    const t = trace('P1:r0=1 P1:r1=1')!;
    expect(t.some((l) => /lsc_store\.ugm — wrote @x=1 in L1@xc0 \(dirty\)/.test(l))).toBe(true);
  });

  it('evict: "Dirty lines will be evicted and invalidated from the L1 cache" — a device-scope release needs it', async () => {
    const doc = await run(MP('agent'), 'pvc');
    expect(doc.outcomes).not.toContain(STALE);
    expect(
      doc
        .trace('P1:r0=1 P1:r1=1')!
        .some((l) =>
          /lsc_fence\.ugm\.evict\.gpu — .*L1@xc0 evicted, wrote back @x=1 to L3@a0\.tile0/.test(l),
        ),
    ).toBe(true);
    const weak = await run(MP('agent'), 'pvc', { thread: 'P0', match: fence('evict') });
    expect(weak.outcomes).toContain(STALE);
    expect(weak.trace()!.some((l) => /lsc_store\.ugm — wrote @x=1 in L1@xc0 \(dirty\)/.test(l))).toBe(true);
  });

  it('invalidate: "Invalidate all Clean lines in the cache" — a device-scope acquire needs it, or a stale L1 line is read', async () => {
    const weak = await run(MP('agent'), 'pvc', {
      thread: 'P1',
      match: fence('invalidate'),
      replace: as({ op: 'none' }),
    });
    expect(weak.outcomes).toContain(STALE);
    expect(weak.trace()!.some((l) => /lsc_load\.ugm — hit @x=0 in L1@xc1 \(stale/.test(l))).toBe(true);
  });

  it('invalidate: "Don\'t evict the dirty lines (they stay in M state)"; discard: "Direct and clean lines are discarded (invalidated) without eviction"', async () => {
    const src = `AMDGPU own
@x = addrspace(1) global i32 0
P0 @ agent 0, workgroup 0, wavefront 0 {
  store i32 1, ptr addrspace(1) @x
  fence syncscope("agent") acquire
  %r0 = load i32, ptr addrspace(1) @x
}
`;
    const test = litmus(src);
    const ctx = ctxOf('pvc');
    const doc = docOf(test, ctx);
    const own = await machineRun(test, doc, ctx);
    // The thread's own store survives its invalidate and is read back.
    expect(outcomeTexts(test, own, ['P0:r0', '@x'])).toEqual(['P0:r0=1 @x=1']);
    const discard = weaken(test, doc, {
      thread: 'P0',
      ir: 1,
      match: fence('invalidate'),
      replace: as({ op: 'discard' }),
    });
    const lost = await machineRun(test, discard, ctx);
    // A discard drops the dirty line unwritten, unless it was written back before.
    expect(outcomeTexts(test, lost, ['P0:r0', '@x'])).toEqual(['P0:r0=0 @x=0', 'P0:r0=1 @x=1']);
    expect(
      traceText(test, lost, ['P0:r0', '@x'], 'P0:r0=0 @x=0')!.some((l) =>
        /discarded, dropped @x \(dirty\)/.test(l),
      ),
    ).toBe(true);
  });

  it('clean: "Dirty lines are written to memory, but retained in cache in the Clean state. Clean lines are not invalidated" — enough to release, not to acquire', async () => {
    const release = await run(MP('agent'), 'pvc', {
      thread: 'P0',
      match: fence('evict'),
      replace: as({ op: 'clean' }),
    });
    expect(release.outcomes).not.toContain(STALE);
    expect(release.trace('P1:r0=1 P1:r1=1')!.some((l) => /L1@xc0 cleaned, wrote back @x=1/.test(l))).toBe(
      true,
    );
    const acquire = await run(MP('agent'), 'pvc', {
      thread: 'P1',
      match: fence('invalidate'),
      replace: as({ op: 'clean' }),
    });
    expect(acquire.outcomes).toContain(STALE);
  });

  it('a fence waits for "all previous accesses by this thread to this dataport": a ugm fence does not wait for an SLM store', async () => {
    const test = litmusFile('litmus/MP+rel+acq.wg.lds-data.litmus');
    const ctx = ctxOf('lnl');
    const r = await machineRun(test, docOf(test, ctx), ctx);
    expect(outcomeTexts(test, r, R)).toContain(STALE);
    const t = traceText(test, r, R, STALE)!;
    const fenceAt = t.findIndex((l) => /issue P0: lsc_fence\.ugm\.evict/.test(l));
    const slmAt = t.findIndex((l) => /perform P0: lsc_store\.slm/.test(l));
    expect(fenceAt).toBeGreaterThanOrEqual(0);
    expect(slmAt).toBeGreaterThan(fenceAt);
  });

  it('scope: a tile-scope fence reaches the tile\'s L3 only — on PVC device scope needs gpu (IGC\'s vector compiler: "hasMultiTile() ? LSC_SCOPE_GPU : LSC_SCOPE_TILE"); on one tile, tile is the GPU', async () => {
    const pvc = await run(MP('agent'), 'pvc', {
      thread: 'P0',
      match: fence('evict'),
      replace: as({ scope: 'tile' }),
    });
    expect(pvc.outcomes).toContain(STALE);
    const t = pvc.trace()!;
    expect(t.some((l) => /wrote back @x=1 to L3@a0\.tile0/.test(l))).toBe(true);
    expect(
      t.some(
        (l) => /lsc_load\.ugm — .*hit @x=0 in (L3@a0\.tile1|GPU)/.test(l) || /read @x=0 from GPU/.test(l),
      ),
    ).toBe(true);
    // DG2: IGC narrows gpu scope to tile ("to avoid L3 flush"); the L3 serves the whole GPU.
    const dg2 = await run(MP('agent'), 'dg2');
    expect(docOf(dg2.test, ctxOf('dg2'))[0]![1]!.some(fence('evict', 'tile'))).toBe(true);
    expect(dg2.outcomes).not.toContain(STALE);
  });

  it('"On some products cache is not flushed for scope < tile" (DG2, PVC, MTL, ARL): a work-group-scope evict does nothing there, and Xe2 flushes', async () => {
    // IGC raises the work-group release atomic's evict to tile on DG2; left at group, P1's atomic read of x
    // overtakes the write-back of P0's dirty line.
    const dg2 = await run(MP_ATOMIC_DATA('workgroup'), 'dg2', {
      thread: 'P0',
      match: fence('evict', 'tile'),
      replace: as({ scope: 'group' }),
    });
    expect(dg2.outcomes).toContain(STALE);
    expect(
      dg2
        .trace()!
        .some((l) =>
          /lsc_fence\.ugm\.evict\.group — earlier ugm requests performed; no cache to act on/.test(l),
        ),
    ).toBe(true);
    const lnl = await run(MP_ATOMIC_DATA('workgroup'), 'lnl');
    expect(docOf(lnl.test, ctxOf('lnl'))[0]![1]!.some(fence('evict', 'group'))).toBe(true);
    expect(lnl.outcomes).not.toContain(STALE);
  });

  it('the L3\'s two pipelines: "The 2 L3$ pipes do not guarentee order of operations between themselves" — an atomic overtakes the write-back of its location\'s dirty L1 line, even in one thread', async () => {
    const src = `AMDGPU own-rmw
@x = addrspace(1) global i32 0
P0 @ agent 0, workgroup 0, wavefront 0 {
  store i32 1, ptr addrspace(1) @x
  %r0 = atomicrmw add ptr addrspace(1) @x, i32 1 syncscope("agent") monotonic
}
`;
    const test = litmus(src);
    const ctx = ctxOf('pvc');
    const r = await machineRun(test, docOf(test, ctx), ctx);
    const labels = ['P0:r0', '@x'];
    expect(outcomeTexts(test, r, labels)).toEqual(['P0:r0=0 @x=1', 'P0:r0=1 @x=2']);
    expect(
      traceText(test, r, labels, 'P0:r0=0 @x=1')!.some((l) => /left the dirty @x=1 in L1@xc0/.test(l)),
    ).toBe(true);
  });

  it("atomics are performed at the GPU's coherence point, in issue order (the coherent pipeline): relaxed atomics on two tiles stay atomic, and LB cannot happen", async () => {
    const test = litmusFile('litmus/RMW.add.wg.diff-wg.litmus');
    const ctx = ctxOf('pvc');
    const r = await machineRun(test, docOf(test, ctx), ctx);
    expect(outcomeTexts(test, r, ['@x'])).toEqual(['@x=2']);
    expect(r.machines.some((m) => m.placement.text.includes('tile1'))).toBe(true);
    const lb = litmusFile('litmus/LB+rlx.agent.litmus');
    const out = outcomeTexts(lb, await machineRun(lb, docOf(lb, ctx), ctx), ['P0:r0', 'P1:r1']);
    expect(out).not.toContain('P0:r0=1 P1:r1=1');
  });

  it('a barrier orders no memory (vISA emits no fence with it: "For now produce no fence")', async () => {
    const test = litmusFile('litmus/MP+bar.litmus');
    const ctx = ctxOf('dg2');
    const r = await machineRun(test, docOf(test, ctx), ctx);
    expect(outcomeTexts(test, r, ['P1:r0'])).toContain('P1:r0=0');
    const t = traceText(test, r, ['P1:r0'], 'P1:r0=0')!;
    expect(t.findIndex((l) => /perform P0: lsc_store/.test(l))).toBeGreaterThan(
      t.findIndex((l) => /barrier \(wait\)/.test(l)),
    );
  });

  it("a generic-pointer dispatch runs the branch of the location's address space", () => {
    const test = litmusFile('litmus/MP+rel+acq.agent.generic.litmus');
    const ctx = ctxOf('pvc');
    const fam = familyMachine('xe', 'Xe-HPC')!;
    const c = compileProgram(test, docOf(test, ctx), fam.configs('cu')[0]!);
    if (!('program' in c)) throw new Error(diagnosticLine(c.unsupported));
    expect(c.program.threads[0]!.instrs.map((i) => i.text)).toEqual([
      'lsc_store.ugm',
      'lsc_fence.ugm.evict.gpu',
      'lsc_atomic_store.ugm',
    ]);
    const lds = litmus(
      readFileSync('litmus/MP+rel+acq.agent.generic.litmus', 'utf8').replace(
        '@x = addrspace(1) global',
        '@x = addrspace(3) global',
      ),
    );
    const d = compileProgram(lds, docOf(lds, ctx), fam.configs('cu')[0]!);
    if (!('program' in d)) throw new Error(diagnosticLine(d.unsupported));
    expect(d.program.threads[0]!.instrs[0]!.text).toBe('lsc_store.slm');
  });

  it('R3: on one agent the GPU-wide level is memory; on several agents, and with a discard, the full machine', () => {
    const fam = familyMachine('xe', 'Xe-HPC')!;
    const one = litmus(MP('agent'));
    const built = machinesOf(one, docOf(one, ctxOf('pvc')), fam, 'cu');
    if ('kind' in built) throw new Error(built.reason);
    expect(new Set(built.machines.map((m) => m.cfg.memoryName))).toEqual(new Set(['GPU']));
    const two = litmus(MP('system', 'diff-agent'));
    const full = machinesOf(two, docOf(two, ctxOf('pvc')), fam, 'cu');
    if ('kind' in full) throw new Error(full.reason);
    expect(new Set(full.machines.map((m) => m.cfg.levels.map((l) => l.name).join(',')))).toEqual(
      new Set(['L1,L3,GPU']),
    );
    // A discard drops dirty lines: in the GPU-wide level they would be lost, in memory not.
    const discard = weaken(one, docOf(one, ctxOf('pvc')), {
      thread: 'P0',
      ir: 1,
      match: fence('evict'),
      replace: as({ op: 'discard', scope: 'sysrel' }),
    });
    const d = machinesOf(one, discard, fam, 'cu');
    if ('kind' in d) throw new Error(d.reason);
    expect(new Set(d.machines.map((m) => m.cfg.memoryName))).toEqual(new Set(['memory']));
  });

  it('fences the lowering never emits on ports or with ops the machine does not model are unsupported, with the reason', async () => {
    const test = litmus(MP('agent'));
    const ctx = ctxOf('pvc');
    const cfg = familyMachine('xe', 'Xe-HPC')!.configs('cu')[0]!;
    for (const change of [{ op: 'flushl3' }, { sfid: 'tgm' }] as const) {
      const code = weaken(test, docOf(test, ctx), {
        thread: 'P0',
        ir: 1,
        match: fence('evict'),
        replace: as(change),
      });
      const c = compileProgram(test, code, cfg);
      expect('unsupported' in c ? diagnosticLine(c.unsupported) : '').toMatch(
        /^MC1012 .*(never emit|no lowering emits)/,
      );
    }
  });
});
