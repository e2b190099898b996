/**
 * Hand-made weakenings of the documents' code sequences: each drops or weakens one instruction of
 * one table row in a catalogue test whose documented code the machine finds sound, and the machine
 * must then reach an outcome the model forbids, with a trace that shows why.
 */

import { describe, expect, it } from 'vitest';
import { bufferInv, globalInv, globalWb, type IsaInstr } from '../lower/isa.ts';
import type { LscFenceInstr } from '../lower/isa-xe.ts';
import type { WaveMode } from '../lower/types.ts';
import { ctxOf, docOf, litmus, litmusFile, type Weakening, weaken } from '../sim/testutil.ts';
import { editsOf, formatCheck } from './check.ts';
import { checkCode } from './testutil.ts';

const isWait = (c: string) => (i: IsaInstr) => i.kind === 'wait' && i.counters.includes(c as never);
const isInv = (i: IsaInstr) => i.kind === 'inv';
const isWb = (i: IsaInstr) => i.kind === 'wb';

interface Case {
  name: string;
  /** A catalogue file, or the text of a test of its own (`src`). */
  file: string;
  src?: string;
  target: string;
  mode: WaveMode | 'tgsplit';
  w: Weakening;
  /** A step of the trace that shows the cause. */
  trace: RegExp;
}

const MP_AGENT = 'litmus/MP+rel+acq.agent.litmus';
const MP_WG = 'litmus/MP+rel+acq.wg.litmus';
const SB_SC = 'litmus/SB+sc.agent.litmus';
const MP_SYS = 'litmus/MP+rel+acq.sys.diff-agent.litmus';
const MP_CLUSTER = 'litmus/MP+rel+acq.cluster.litmus';

const CASES: Case[] = [
  {
    name: 'GFX9: drop buffer_wbinvl1_vol after an agent-scope acquire',
    file: MP_AGENT,
    target: 'gfx900',
    mode: 'cu',
    w: { thread: 'P1', ir: 0, match: isInv },
    trace: /hit @x=0 in L1@cu\d \(stale/,
  },
  {
    name: 'GFX9: drop s_waitcnt vmcnt(0) before an agent-scope release store',
    file: MP_AGENT,
    target: 'gfx900',
    mode: 'cu',
    w: { thread: 'P0', ir: 1, match: isWait('vmcnt') },
    trace: /wrote @y=1 to memory/,
  },
  {
    name: 'GFX6: drop s_waitcnt vmcnt(0) before a release store',
    file: MP_AGENT,
    target: 'gfx600',
    mode: 'cu',
    w: { thread: 'P0', ir: 1, match: isWait('vmcnt') },
    trace: /buffer_store — wrote @y=1 to memory/,
  },
  {
    name: 'GFX7: drop s_waitcnt vmcnt(0) lgkmcnt(0) after a flat store, before a release',
    file: 'litmus/MP+rel+acq.agent.generic.litmus',
    target: 'gfx700',
    mode: 'cu',
    w: { thread: 'P0', ir: 1, match: isWait('vmcnt') },
    trace: /buffer_store — wrote @y=1 to memory/,
  },
  {
    name: 'GFX9: drop s_waitcnt vmcnt(0) between a seq_cst store and a seq_cst load',
    file: SB_SC,
    target: 'gfx900',
    mode: 'cu',
    w: { thread: 'P0', ir: 1, match: isWait('vmcnt') },
    trace: /global_load glc=1 — .*read @y=0/,
  },
  {
    // Loads of a wave may be read out of order (docs/hardware.md, "Loads out of order"): the acquire's
    // wait is what keeps the data load behind the flag load.
    name: 'GFX9: an acquire fence without vmcnt(0) (the data load reads before the flag load)',
    file: 'litmus/MP+rel+fence.acq.agent.litmus',
    target: 'gfx900',
    mode: 'cu',
    w: {
      thread: 'P1',
      ir: 1,
      match: isWait('vmcnt'),
      replace: (i) => (i.kind === 'wait' ? { ...i, counters: i.counters.filter((c) => c !== 'vmcnt') } : i),
    },
    trace: /global_load — .*read @x=0 from memory/,
  },
  {
    name: 'GFX9: drop s_waitcnt vmcnt(0) after an acquire RMW (the data load reads before the RMW)',
    file: '',
    src: `AMDGPU MP+rel+acq-rmw.agent
@x = addrspace(1) global i32 0
@y = addrspace(1) global i32 0
P0 @ agent 0, workgroup 0 {
  store i32 1, ptr addrspace(1) @x
  store atomic i32 1, ptr addrspace(1) @y syncscope("agent") release
}
P1 @ agent 0, workgroup 1 {
  %r0 = atomicrmw add ptr addrspace(1) @y, i32 0 syncscope("agent") acquire
  %r1 = load i32, ptr addrspace(1) @x
}
exists (P1:%r0 == 1 /\\ P1:%r1 == 0)`,
    target: 'gfx900',
    mode: 'cu',
    w: { thread: 'P1', ir: 0, match: isWait('vmcnt') },
    trace: /global_load — .*read @x=0 from memory/,
  },
  {
    // GFX12.5: "s_wait_loadcnt 0x0 must happen after global_inv and before subsequent memory operations";
    // LLVM's legalizer: the invalidate "may get reorded with following load instructions".
    name: 'GFX12.5: drop the s_wait_loadcnt after global_inv of an agent-scope acquire',
    file: MP_AGENT,
    target: 'gfx1250',
    mode: 'cu',
    w: { thread: 'P1', ir: 0, match: isWait('loadcnt'), nth: -1 },
    trace: /global_load — hit @x=0 in WGP\$@\S+ \(stale/,
  },
  {
    // GFX12.5: the waits before global_wb make "all global memory store/rmw operations … completed
    // before their data is written back".
    name: 'GFX12.5: drop the s_wait_storecnt before global_wb of an agent-scope release',
    file: MP_AGENT,
    target: 'gfx1250',
    mode: 'cu',
    w: { thread: 'P0', ir: 1, match: isWait('storecnt'), nth: 0 },
    trace: /global_wb scope:SCOPE_DEV — nothing dirty below its scope|global_store — wrote @x=1 in L1/,
  },
  {
    name: 'GFX9: a returning atomic without glc returns nothing to its register',
    file: 'litmus/RMW.add.agent.litmus',
    target: 'gfx900',
    mode: 'cu',
    w: {
      thread: 'P0',
      ir: 0,
      match: (i) => i.kind === 'vmem',
      replace: (i) => ({ ...i, glc: false }) as IsaInstr,
    },
    trace: /returns nothing/,
  },
  {
    name: 'GFX942: a returning atomic without sc0 returns nothing to its register',
    file: 'litmus/RMW.add.agent.litmus',
    target: 'gfx942',
    mode: 'cu',
    w: {
      thread: 'P0',
      ir: 0,
      match: (i) => i.kind === 'vmem',
      replace: (i) => ({ ...i, sc0: false }) as IsaInstr,
    },
    trace: /returns nothing/,
  },
  {
    name: 'GFX12: a returning atomic without th:TH_ATOMIC_RETURN returns nothing to its register',
    file: 'litmus/RMW.add.agent.litmus',
    target: 'gfx1200',
    mode: 'cu',
    w: {
      thread: 'P0',
      ir: 0,
      match: (i) => i.kind === 'vmem',
      replace: (i) => ({ ...i, th: null }) as IsaInstr,
    },
    trace: /returns nothing/,
  },
  {
    name: 'GFX12: drop global_inv scope:SCOPE_DEV after an agent-scope acquire',
    file: MP_AGENT,
    target: 'gfx1200',
    mode: 'cu',
    w: { thread: 'P1', ir: 0, match: isInv },
    trace: /hit @x=0 in (L0|GL1)@\S+ \(stale/,
  },
  {
    name: 'GFX12: global_inv scope:SCOPE_DEV weakened to scope:SCOPE_SE (the GL1 keeps a stale copy)',
    file: MP_AGENT,
    target: 'gfx1200',
    mode: 'cu',
    w: { thread: 'P1', ir: 0, match: isInv, replace: () => globalInv('SCOPE_SE') },
    trace: /hit @x=0 in GL1@\S+ \(stale/,
  },
  {
    name: 'GFX12: drop global_wb scope:SCOPE_DEV before an agent-scope release',
    file: MP_AGENT,
    target: 'gfx1200',
    mode: 'cu',
    w: { thread: 'P0', ir: 1, match: isWb },
    trace: /wrote @x=1 in L0@cu0 \(dirty\)/,
  },
  {
    name: "GFX12: global_wb scope:SCOPE_DEV weakened to scope:SCOPE_SE (data stops in the writer's GL1)",
    file: MP_AGENT,
    target: 'gfx1200',
    mode: 'cu',
    w: { thread: 'P0', ir: 1, match: isWb, replace: () => globalWb('SCOPE_SE') },
    trace: /written back from L0@cu0 to GL1/,
  },
  {
    name: 'GFX12: drop s_wait_storecnt before an agent-scope release store',
    file: MP_AGENT,
    target: 'gfx1200',
    mode: 'cu',
    w: { thread: 'P0', ir: 1, match: isWait('storecnt') },
    trace: /global_store scope:SCOPE_DEV — wrote @y=1 in L2/,
  },
  {
    name: 'GFX12 WGP mode: drop global_inv scope:SCOPE_SE after a workgroup-scope acquire',
    file: MP_WG,
    target: 'gfx1200',
    mode: 'wgp',
    w: { thread: 'P1', ir: 0, match: isInv },
    trace: /hit @x=0 in L0@cu1/,
  },
  {
    name: 'GFX12 WGP mode: drop global_wb scope:SCOPE_SE before a workgroup-scope release',
    file: MP_WG,
    target: 'gfx1200',
    mode: 'wgp',
    w: { thread: 'P0', ir: 1, match: isWb },
    trace: /wrote @x=1 in L0@cu0 \(dirty\)/,
  },
  {
    name: 'GFX12: drop s_wait_storecnt between a seq_cst store and a seq_cst load',
    file: SB_SC,
    target: 'gfx1200',
    mode: 'cu',
    w: { thread: 'P0', ir: 1, match: isWait('storecnt') },
    trace: /global_load scope:SCOPE_DEV — .*@y=0/,
  },
  {
    name: 'GFX10: drop buffer_gl0_inv after an agent-scope acquire',
    file: MP_AGENT,
    target: 'gfx1030',
    mode: 'cu',
    w: { thread: 'P1', ir: 0, match: (i) => i.kind === 'inv' && i.mnemonic === 'buffer_gl0_inv' },
    trace: /hit @x=0 in L0@cu\d \(stale/,
  },
  {
    name: 'GFX10: drop buffer_gl1_inv after an agent-scope acquire (the GL1 keeps a stale copy)',
    file: MP_AGENT,
    target: 'gfx1030',
    mode: 'cu',
    w: { thread: 'P1', ir: 0, match: (i) => i.kind === 'inv' && i.mnemonic === 'buffer_gl1_inv' },
    trace: /hit @x=0 in GL1@\S+ \(stale/,
  },
  {
    name: 'GFX10: drop s_waitcnt_vscnt before an agent-scope release store',
    file: MP_AGENT,
    target: 'gfx1030',
    mode: 'cu',
    w: { thread: 'P0', ir: 1, match: isWait('vscnt') },
    trace: /global_store — wrote @y=1 to memory/,
  },
  {
    name: 'GFX10: dlc=1 cleared on a seq_cst agent-scope load (it may hit a stale GL1 copy; GFX11 needs no dlc)',
    file: SB_SC,
    target: 'gfx1030',
    mode: 'cu',
    w: {
      thread: 'P0',
      ir: 1,
      match: (i) => i.kind === 'vmem' && i.dlc,
      replace: (i) => ({ ...(i as IsaInstr & { kind: 'vmem' }), dlc: false }),
    },
    trace: /global_load glc=1 — .*hit @y=0 in GL1@\S+ \(stale/,
  },
  {
    name: 'GFX10 WGP mode: drop buffer_gl0_inv after a workgroup-scope acquire',
    file: MP_WG,
    target: 'gfx1030',
    mode: 'wgp',
    w: { thread: 'P1', ir: 0, match: isInv },
    trace: /hit @x=0 in L0@cu1 \(stale/,
  },
  {
    name: 'GFX90A TgSplit: drop buffer_wbinvl1_vol after a workgroup-scope acquire (the waves are on two CUs)',
    file: MP_WG,
    target: 'gfx90a',
    mode: 'tgsplit',
    w: { thread: 'P1', ir: 0, match: isInv },
    trace: /hit @x=0 in L1@cu1 \(stale/,
  },
  {
    name: 'GFX90A: drop buffer_wbl2 before a system-scope release (the data stays in the L2 of its agent)',
    file: MP_SYS,
    target: 'gfx90a',
    mode: 'cu',
    w: { thread: 'P0', ir: 1, match: isWb },
    trace: /wrote @x=1 in L2@a0 \(dirty\)/,
  },
  {
    name: "GFX90A: drop buffer_invl2 after a system-scope acquire (the reader's L2 keeps a stale line)",
    file: MP_SYS,
    target: 'gfx90a',
    mode: 'cu',
    w: { thread: 'P1', ir: 0, match: (i) => i.kind === 'inv' && i.mnemonic === 'buffer_invl2' },
    trace: /hit @x=0 in L2@a1 \(stale/,
  },
  {
    name: 'GFX942: drop buffer_wbl2 sc1=1 before an agent-scope release (several L2s per agent)',
    file: MP_AGENT,
    target: 'gfx942',
    mode: 'cu',
    w: { thread: 'P0', ir: 1, match: isWb },
    trace: /wrote @x=1 in L2@a0\.l2\.0 \(dirty\)/,
  },
  {
    name: 'GFX942: buffer_inv sc1=1 weakened to sc0=1 after an agent-scope acquire (the L2 of the group keeps a stale line)',
    file: MP_AGENT,
    target: 'gfx942',
    mode: 'cu',
    w: { thread: 'P1', ir: 0, match: isInv, replace: () => bufferInv('sc0') },
    trace: /hit @x=0 in L2@a0\.l2\.\d \(stale/,
  },
  {
    name: 'GFX942 TgSplit: drop s_waitcnt vmcnt(0) before a workgroup-scope release store',
    file: MP_WG,
    target: 'gfx942',
    mode: 'tgsplit',
    w: { thread: 'P0', ir: 1, match: isWait('vmcnt') },
    trace: /global_store sc0=1 — .*wrote @y=1/,
  },
  {
    name: 'GFX12.5: drop global_wb scope:SCOPE_DEV before an agent-scope release (the data stays in the L1 buffer)',
    file: MP_AGENT,
    target: 'gfx1250',
    mode: 'cu',
    w: { thread: 'P0', ir: 1, match: isWb },
    trace: /wrote @x=1 in L1@a0\.sa0 \(dirty\)/,
  },
  {
    name: 'GFX12.5: drop global_inv scope:SCOPE_SE after a cluster-scope acquire (the WGP cache keeps a stale line)',
    file: MP_CLUSTER,
    target: 'gfx1250',
    mode: 'cu',
    w: { thread: 'P1', ir: 0, match: isInv },
    trace: /hit @x=0 in WGP\$@cu1 \(stale/,
  },
  {
    name: 'GFX12.5: drop s_wait_storecnt before a cluster-scope release store',
    file: MP_CLUSTER,
    target: 'gfx1250',
    mode: 'cu',
    w: { thread: 'P0', ir: 1, match: isWait('storecnt') },
    trace: /global_store scope:SCOPE_SE — .*wrote @y=1/,
  },
];

/** An Intel `ugm` fence with this op. */
const isFence = (op: LscFenceInstr['op']) => (i: IsaInstr) =>
  i.kind === 'lsc_fence' && i.sfid === 'ugm' && i.op === op;
const asFence = (change: Partial<LscFenceInstr>) => (i: IsaInstr) => ({ ...(i as LscFenceInstr), ...change });

/** Message passing from P0 to P1 (the same work-group or another) with the given code. */
const mp = (name: string, sameWg: boolean, p0: string[], p1: string[]) => `AMDGPU ${name}
@x = addrspace(1) global i32 0
@y = addrspace(1) global i32 0
P0 @ agent 0, workgroup 0, wavefront 0 {
${p0.map((l) => `  ${l}`).join('\n')}
}
P1 @ agent 0, workgroup ${sameWg ? 0 : 1}, wavefront 1 {
${p1.map((l) => `  ${l}`).join('\n')}
}
exists (P1:%r0 == 1 /\\ P1:%r1 == 0)
`;

/** Within one work-group at workgroup scope, the data read by an atomic. */
const MP_WG_ATOMIC_DATA = mp(
  'MP+rel+acq.wg.atomic-data',
  true,
  [
    'store i32 1, ptr addrspace(1) @x',
    'store atomic i32 1, ptr addrspace(1) @y syncscope("workgroup") release',
  ],
  [
    '%r0 = load atomic i32, ptr addrspace(1) @y syncscope("workgroup") acquire',
    '%r1 = load atomic i32, ptr addrspace(1) @x syncscope("workgroup") monotonic',
  ],
);

/** Through relaxed atomics, a release fence in the writer and an acq_rel fence in the reader. */
const MP_FENCE_ACQ_REL = mp(
  'MP+fence.rel+fence.acq_rel.agent',
  false,
  [
    'store i32 1, ptr addrspace(1) @x',
    'fence syncscope("agent") release',
    'store atomic i32 1, ptr addrspace(1) @y syncscope("agent") monotonic',
  ],
  [
    '%r0 = load atomic i32, ptr addrspace(1) @y syncscope("agent") monotonic',
    'fence syncscope("agent") acq_rel',
    '%r1 = load i32, ptr addrspace(1) @x',
  ],
);

/** Intel Xe (docs/hardware.md, "Intel Xe"): the machine code is Intel's graphics compiler's. */
CASES.push(
  {
    name: "Intel PVC: a device-scope release without its evict (the data stays dirty in the writer's L1)",
    file: MP_AGENT,
    target: 'pvc',
    mode: 'cu',
    w: { thread: 'P0', ir: 1, match: isFence('evict') },
    trace: /lsc_store\.ugm — wrote @x=1 in L1@xc0 \(dirty\)/,
  },
  {
    name: "Intel PVC: a device-scope acquire without its invalidate (the reader's L1 keeps a stale line)",
    file: MP_AGENT,
    target: 'pvc',
    mode: 'cu',
    w: { thread: 'P1', ir: 0, match: isFence('invalidate'), replace: asFence({ op: 'none' }) },
    trace: /lsc_load\.ugm — hit @x=0 in L1@xc1 \(stale/,
  },
  {
    name: 'Intel PVC: a device-scope release fence narrowed to group (no L1 maintenance below tile scope on PVC)',
    file: 'litmus/MP+fence.rel+fence.acq.agent.litmus',
    target: 'pvc',
    mode: 'cu',
    w: { thread: 'P0', ir: 1, match: isFence('evict'), replace: asFence({ scope: 'group' }) },
    trace: /lsc_fence\.ugm\.evict\.group — earlier ugm requests performed; no cache to act on/,
  },
  {
    name: "Intel PVC: a device-scope release narrowed to tile (the data stops in the writer's tile's L3)",
    file: MP_AGENT,
    target: 'pvc',
    mode: 'cu',
    w: { thread: 'P0', ir: 1, match: isFence('evict'), replace: asFence({ scope: 'tile' }) },
    trace: /lsc_load\.ugm — read @x=0 from GPU/,
  },
  {
    name: "Intel LNL: an acq_rel fence's evict weakened to clean (its acquire half, the invalidation, is lost)",
    file: '',
    src: MP_FENCE_ACQ_REL,
    target: 'lnl',
    mode: 'cu',
    w: { thread: 'P1', ir: 1, match: isFence('evict'), replace: asFence({ op: 'clean' }) },
    trace: /lsc_load\.ugm — hit @x=0 in L1@xc1 \(stale/,
  },
  {
    name: "Intel DG2: a workgroup-scope release atomic left at group scope (DG2 does not flush the L1 below tile: the reader's atomic overtakes the write-back)",
    file: '',
    src: MP_WG_ATOMIC_DATA,
    target: 'dg2',
    mode: 'cu',
    w: { thread: 'P0', ir: 1, match: isFence('evict'), replace: asFence({ scope: 'group' }) },
    trace: /lsc_atomic_or\.ugm — left the dirty @x=1 in L1@xc0/,
  },
  {
    name: 'Intel PVC: drop the slm fence of a workgroup-scope release fence (the SLM data store is overtaken)',
    file: 'litmus/MP+bar+fence.wg-one-as.mixed-data.litmus',
    target: 'pvc',
    mode: 'cu',
    w: { thread: 'P0', ir: 2, match: (i) => i.kind === 'lsc_fence' && i.sfid === 'slm' },
    trace: /lsc_store\.slm — wrote @\w+\[a0\.c0\.w0\]=1 to SLM/,
  },
);

describe('hand-made weakenings are unsound, with a trace', () => {
  for (const c of CASES) {
    it(c.name, async () => {
      const test = c.src !== undefined ? litmus(c.src) : litmusFile(c.file);
      const ctx = ctxOf(c.target, c.mode);
      const doc = docOf(test, ctx);
      expect((await checkCode(test, doc, ctx)).verdict).toBe('sound');
      const weak = weaken(test, doc, c.w);
      const r = await checkCode(test, weak, ctx, editsOf(test, doc, weak));
      expect(r.verdict).toBe('UNSOUND');
      const trace = r.forbidden?.trace ?? [];
      expect(trace.length).toBeGreaterThan(0);
      // The trace marks the steps of the weakened instruction's code (when it still has some).
      const line = test.threads.find((th) => th.name === c.w.thread)!.body[c.w.ir]!.span.line;
      for (const st of trace)
        expect(st.edited !== undefined, `${st.text}`).toBe(st.line === line && st.thread === c.w.thread);
      // No step is a wait on a counter nothing is counted on; those are named once.
      for (const w of r.forbidden!.idleWaits) expect(trace.some((st) => st.text === w)).toBe(false);
      const lines = trace.map((s) => `${s.thread}: ${s.text} — ${s.detail}`);
      expect(
        lines.some((l) => c.trace.test(l)),
        lines.join('\n'),
      ).toBe(true);
    }, 60_000);
  }
});

describe('traces one can read', () => {
  it('GFX12: the waits on counters no instruction uses (bvhcnt, samplecnt) are named once, not shown as steps; the weakened instruction is marked', async () => {
    const test = litmusFile(MP_AGENT);
    const ctx = ctxOf('gfx1200', 'cu');
    const doc = docOf(test, ctx);
    const weak = weaken(test, doc, { thread: 'P1', ir: 0, match: isInv });
    const r = await checkCode(test, weak, ctx, editsOf(test, doc, weak));
    expect(r.forbidden?.idleWaits).toEqual(
      expect.arrayContaining(['s_wait_bvhcnt 0x0', 's_wait_samplecnt 0x0']),
    );
    const text = formatCheck(r);
    expect(text).toMatch(/\(not shown: .*s_wait_bvhcnt 0x0.* they never block\)/);
    expect(text).not.toMatch(/issue +P\d: s_wait_bvhcnt/);
    expect(text).toMatch(
      /\[edited: global_load scope:SCOPE_DEV; s_wait_loadcnt 0x0 \(was: .*global_inv scope:SCOPE_DEV\)\]/,
    );
  }, 60_000);

  it('LDS is never listed as a cache line: an invalidate drops only global memory', async () => {
    const test = litmus(`AMDGPU MP+rel+acq.agent.with-lds
@x = addrspace(1) global i32 0
@y = addrspace(1) global i32 0
@l = addrspace(3) global i32 0
P0 @ agent 0, workgroup 0 {
  store i32 1, ptr addrspace(1) @x
  store i32 1, ptr addrspace(3) @l
  store atomic i32 1, ptr addrspace(1) @y syncscope("agent") release
}
P1 @ agent 0, workgroup 1 {
  %r0 = load atomic i32, ptr addrspace(1) @y syncscope("agent") acquire
  %r1 = load i32, ptr addrspace(1) @x
  %r2 = load i32, ptr addrspace(3) @l
}
exists (P1:%r0 == 1 /\\ P1:%r1 == 0)`);
    const ctx = ctxOf('gfx900', 'cu');
    const weak = weaken(test, docOf(test, ctx), { thread: 'P0', ir: 2, match: isWait('vmcnt') });
    const r = await checkCode(test, weak, ctx);
    const inv = (r.forbidden?.trace ?? []).filter(
      (st) => /buffer_wbinvl1_vol/.test(st.text) && st.kind === 'perform',
    );
    expect(inv.length).toBeGreaterThan(0);
    for (const st of inv) {
      expect(st.detail).toMatch(/dropped @/);
      expect(st.detail).not.toMatch(/@l\b/);
    }
  }, 60_000);
});
