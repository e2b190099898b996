/**
 * Hand-made weakenings of the documents' code sequences: each drops or weakens one instruction of
 * one table row in a catalogue test whose documented code the machine finds sound, and the machine
 * must then reach an outcome the model forbids, with a trace that shows why.
 */

import { describe, expect, it } from 'vitest';
import { bufferInv, globalInv, globalWb, type IsaInstr } from '../lower/isa.ts';
import type { WaveMode } from '../lower/types.ts';
import { ctxOf, docOf, litmusFile, type Weakening, weaken } from '../sim/testutil.ts';
import { checkCode } from './testutil.ts';

const isWait = (c: string) => (i: IsaInstr) => i.kind === 'wait' && i.counters.includes(c as never);
const isInv = (i: IsaInstr) => i.kind === 'inv';
const isWb = (i: IsaInstr) => i.kind === 'wb';

interface Case {
  name: string;
  file: string;
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

describe('hand-made weakenings are unsound, with a trace', () => {
  for (const c of CASES) {
    it(c.name, async () => {
      const test = litmusFile(c.file);
      const ctx = ctxOf(c.target, c.mode);
      const doc = docOf(test, ctx);
      expect((await checkCode(test, doc, ctx)).verdict).toBe('sound');
      const r = await checkCode(test, weaken(test, doc, c.w), ctx);
      expect(r.verdict).toBe('UNSOUND');
      const trace = r.forbidden?.trace ?? [];
      expect(trace.length).toBeGreaterThan(0);
      const lines = trace.map((s) => `${s.thread}: ${s.text} — ${s.detail}`);
      expect(
        lines.some((l) => c.trace.test(l)),
        lines.join('\n'),
      ).toBe(true);
    }, 60_000);
  }
});
