/**
 * The `--lowering llc` profile: llc-22's code read back into the typed ISA and run on the machines.
 * Pins the verdicts docs/hardware.md records for the documented doc/llc differences. Skipped, with
 * the reason printed, when llc-22 is not installed.
 */

import { describe, expect, it } from 'vitest';
import { diagnosticLine } from '../core/diagnostics.ts';
import { runTestSync } from '../enumerate/verdict.ts';
import { formatIsa } from '../lower/isa.ts';
import { findLlc } from '../lower/llc.ts';
import type { WaveMode } from '../lower/types.ts';
import type { HwText } from '../sim/config.ts';
import { ctxOf, litmusFile, TEST_BUDGET } from '../sim/testutil.ts';
import { checkTest } from './check.ts';
import { isaOfNormal, llcCode } from './llc-code.ts';

const llc = findLlc();
if ('reason' in llc) console.warn(`skipping llc-22 profile tests: ${llc.reason}`);

describe('reading llc-22 normal forms into the typed ISA', () => {
  it('keeps memory operations, waits, invalidates and write-backs, and refuses what it cannot type', () => {
    expect(isaOfNormal('global_load glc', false)).toMatchObject({
      kind: 'vmem',
      op: 'load',
      enc: 'global',
      glc: true,
    });
    expect(isaOfNormal('global_store scope:SCOPE_DEV', true)).toMatchObject({
      enc: 'flat',
      scope: 'SCOPE_DEV',
    });
    expect(isaOfNormal('global_atomic th:TH_ATOMIC_RETURN scope:SCOPE_SYS', false)).toMatchObject({
      op: 'atomic',
      returns: true,
    });
    expect(isaOfNormal('s_waitcnt vmcnt(0) lgkmcnt(0)', false)).toEqual({
      kind: 'wait',
      counters: ['vmcnt', 'lgkmcnt'],
    });
    expect(isaOfNormal('s_wait_storecnt 0x0', false)).toEqual({ kind: 'wait', counters: ['storecnt'] });
    expect(isaOfNormal('s_waitcnt_vscnt null, 0x0', false)).toEqual({ kind: 'wait', counters: ['vscnt'] });
    expect(isaOfNormal('global_inv scope:SCOPE_DEV', false)).toMatchObject({
      kind: 'inv',
      mnemonic: 'global_inv',
      scope: 'SCOPE_DEV',
    });
    expect(isaOfNormal('global_wb scope:SCOPE_SYS', false)).toMatchObject({
      kind: 'wb',
      mnemonic: 'global_wb',
      scope: 'SCOPE_SYS',
    });
    expect(isaOfNormal('buffer_wbinvl1_vol', false)).toMatchObject({ mnemonic: 'buffer_wbinvl1_vol' });
    expect(isaOfNormal('s_barrier_signal -1', false)).toEqual({
      kind: 'barrier',
      mnemonic: 's_barrier_signal',
      id: -1,
    });
    expect(isaOfNormal('s_load', false)).toBeNull();
    // Waits for all but the last few operations, and m0 for barrier operands.
    expect(isaOfNormal('s_waitcnt vmcnt(1) lgkmcnt(0)', false)).toEqual({
      kind: 'wait',
      counters: ['vmcnt', 'lgkmcnt'],
      counts: [1, 0],
    });
    expect(isaOfNormal('s_wait_loadcnt 0x2', false)).toEqual({
      kind: 'wait',
      counters: ['loadcnt'],
      counts: [2],
    });
    expect(isaOfNormal('s_mov_b32 m0, 0x20001', false)).toEqual({ kind: 'setm0', value: 0x20001 });
    expect(isaOfNormal('s_barrier_signal m0', false)).toMatchObject({
      mnemonic: 's_barrier_signal',
      viaM0: true,
    });
    expect(isaOfNormal('s_mov_b32 m0, ?', false)).toMatch(/not known before the run/);
  });
});

async function verdict(file: string, target: string, mode: WaveMode, hwText?: HwText) {
  const test = litmusFile(file);
  const ctx = ctxOf(target, mode);
  const code = await llcCode(test, ctx);
  if ('error' in code) throw new Error(diagnosticLine(code.error));
  return checkTest(test, runTestSync(test), code, ctx, 'llc', {
    ...TEST_BUDGET,
    trace: true,
    settings: hwText ? { hwText } : {},
  });
}

describe.skipIf('reason' in llc)('llc-22 code on the machines', () => {
  // docs/hardware.md, "GFX12 L0: two readings": llc-22's gfx1200 code (no global_wb below system scope)
  // is sound under the text it follows, AMDGPUUsage's ("global_wb can be omitted for scopes other than
  // SCOPE_SYS in gfx120x"), its default here, and unsound under the seed's write-back L0.
  it('GFX12, AMDGPUUsage reading (the default for llc-22): without global_wb below system scope, sound', async () => {
    for (const mode of ['cu', 'wgp'] as const) {
      const r = await verdict('litmus/MP+rel+acq.agent.litmus', 'gfx1200', mode);
      expect(r.hwText).toBe('amdgpuusage');
      expect(r.verdict).toBe('sound');
    }
    expect((await verdict('litmus/MP+rel+acq.wg.litmus', 'gfx1200', 'wgp')).verdict).toBe('sound');
  }, 60_000);

  it('GFX12, seed reading: without global_wb before an agent-scope release (llc-22) a plain store stays in the L0: UNSOUND', async () => {
    for (const mode of ['cu', 'wgp'] as const) {
      const r = await verdict('litmus/MP+rel+acq.agent.litmus', 'gfx1200', mode, 'seed');
      expect(r.verdict).toBe('UNSOUND');
      expect(r.forbidden?.values).toEqual({ 'P1:r0': 1, 'P1:r1': 0 });
      const lines = r.forbidden!.trace!.map((s) => `${s.thread}: ${s.text} — ${s.detail}`);
      expect(lines.some((l) => /P0: global_store — wrote @x=1 in L0@cu0 \(dirty\)/.test(l))).toBe(true);
      expect(lines.some((l) => /global_wb/.test(l))).toBe(false);
    }
  }, 60_000);

  it('GFX12 WGP mode, seed reading: without global_wb scope:SCOPE_SE before a workgroup-scope release: UNSOUND', async () => {
    const r = await verdict('litmus/MP+rel+acq.wg.litmus', 'gfx1200', 'wgp', 'seed');
    expect(r.verdict).toBe('UNSOUND');
  }, 60_000);

  it('GFX12.5: llc-22 omits the wait after global_inv that LLVM now inserts ("it may get reorded with following load instructions"): UNSOUND', async () => {
    const r = await verdict('litmus/MP+rel+acq.agent.litmus', 'gfx1250', 'cu');
    expect(r.verdict).toBe('UNSOUND');
    const lines = r.forbidden!.trace!.map((s) => `${s.thread}: ${s.text} — ${s.detail}`);
    const inv = lines.findIndex((l) => /P1: global_inv scope:SCOPE_DEV — WGP\$/.test(l));
    const load = lines.findIndex((l) => /P1: global_load — hit @x=0/.test(l));
    expect(load).toBeGreaterThanOrEqual(0);
    expect(inv).toBeGreaterThan(load);
  }, 60_000);

  it('GFX12 system scope: llc-22 keeps global_wb scope:SCOPE_SYS, and the machine finds it sound', async () => {
    const r = await verdict('litmus/MP+rel+acq.sys.diff-agent.litmus', 'gfx1200', 'cu');
    expect(r.verdict).toBe('sound');
  }, 60_000);

  it('GFX9: llc-22 code for agent-scope message passing is sound', async () => {
    expect((await verdict('litmus/MP+rel+acq.agent.litmus', 'gfx900', 'cu')).verdict).toBe('sound');
  }, 60_000);

  it('each thread is one kernel: on GFX6–9 (no BackOffBarrier) llc-22 waits before s_barrier for the store issued earlier in the thread, and the code is sound', async () => {
    const test = litmusFile('litmus/MP+bar+fence.wg.litmus');
    const code = await llcCode(test, ctxOf('gfx900'));
    if ('error' in code) throw new Error(diagnosticLine(code.error));
    // P0: store; fence release workgroup; barrier — the barrier's code drains vmcnt for the store.
    expect(code[0]![2]!.map(formatIsa)).toEqual(['s_waitcnt vmcnt(0)', 's_barrier']);
    // P1 has issued nothing before its barrier: no wait.
    expect(code[1]![0]!.map(formatIsa)).toEqual(['s_barrier']);
    expect((await verdict('litmus/MP+bar+fence.wg.litmus', 'gfx900', 'cu')).verdict).toBe('sound');
  }, 60_000);

  it('the machine code of each instruction maps back to its IR instruction (the markers between them), named barriers with it', async () => {
    const test = litmusFile('litmus/barriers/NB-quorum.pass.litmus');
    const code = await llcCode(test, ctxOf('gfx1250'));
    if ('error' in code) throw new Error(diagnosticLine(code.error));
    expect(code[0]!.map((seq) => seq.map(formatIsa).join('; '))).toEqual([
      's_mov_b32 m0, 0x20001; s_barrier_init m0',
      's_barrier_signal -1; s_barrier_wait -1',
      's_mov_b32 m0, 0x1; s_barrier_join m0',
      'global_store',
      's_mov_b32 m0, 0x20001; s_barrier_signal m0',
      's_barrier_wait 1',
    ]);
  }, 60_000);
});
