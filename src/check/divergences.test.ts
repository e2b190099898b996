/**
 * A machine's verdict on the documented doc/llc differences (docs/targets/divergences.md) that no
 * catalogue test exercises on a family with a machine: each case is a small test whose code differs
 * between the documents and llc-22 by the named cause, checked with both profiles. The verdicts are
 * recorded in docs/hardware.md, "Verdicts on the documented doc/llc differences"; the causes the
 * catalogue exercises are pinned by catalogue.test.ts and catalogue.llc.test.ts. Skipped, with the
 * reason printed, when llc-22 is not installed.
 */

import { describe, expect, it } from 'vitest';
import { runTestSync } from '../enumerate/verdict.ts';
import { findLlc } from '../lower/llc.ts';
import { normaliseIsa } from '../lower/llc-ir.ts';
import type { WaveMode } from '../lower/types.ts';
import { ctxOf, litmus, TEST_BUDGET } from '../sim/testutil.ts';
import { checkTest, docCode } from './check.ts';
import { llcCode } from './llc-code.ts';

const llc = findLlc();
if ('reason' in llc) console.warn(`skipping the doc/llc difference verdicts: ${llc.reason}`);

/**
 * Message passing with the given data store, data load and flag instructions; the flag at system
 * scope by default, where llc-22 keeps GFX12's global_wb (gfx12-wb-system-only is a finding of its own).
 */
const mp = (o: { st?: string; ld?: string; rel?: string; acq?: string; agents?: boolean }) => `AMDGPU MP
@x = addrspace(1) global i32 0
@y = addrspace(1) global i32 0
P0 @ agent 0, workgroup 0 {
  ${o.st ?? 'store i32 1, ptr addrspace(1) @x'}
  ${o.rel ?? 'store atomic i32 1, ptr addrspace(1) @y release'}
}
P1 @ agent ${o.agents ? 1 : 0}, workgroup 1 {
  ${o.acq ?? '%r0 = load atomic i32, ptr addrspace(1) @y acquire'}
  ${o.ld ?? '%r1 = load i32, ptr addrspace(1) @x'}
}
exists (P1:%r0 == 1 /\\ P1:%r1 == 0)
`;

interface Case {
  cause: string;
  src: string;
  runs: [string, WaveMode | 'tgsplit'][];
  /** Verdict with llc-22's code (the documents' is `sound` in every case). */
  llc: 'sound';
  /**
   * Targets where another cause decides llc-22's verdict: GFX12.5's agent-scope release and acquire
   * without the waits around global_wb and global_inv (`gfx1250-cache-waits`, UNSOUND; docs/hardware.md).
   */
  otherCause?: Record<string, 'UNSOUND'>;
  /** The typed code already agrees (the difference is in how llc-22's instruction is read). */
  readAlike?: boolean;
}

const ALL_MODES: [string, WaveMode | 'tgsplit'][] = [
  ['gfx900', 'cu'],
  ['gfx90a', 'cu'],
  ['gfx942', 'cu'],
  ['gfx1030', 'wgp'],
  ['gfx1100', 'wgp'],
  ['gfx1200', 'wgp'],
  ['gfx1250', 'cu'],
];

const CASES: Case[] = [
  {
    // llc-22: only sc1, at system scope; the table: sc0=1 sc1=1 on a release RMW at system scope.
    cause: 'gfx942-rmw-sc-bits',
    src: mp({
      rel: 'atomicrmw add ptr addrspace(1) @y, i32 1 release',
      acq: '%r0 = load atomic i32, ptr addrspace(1) @y acquire',
      agents: true,
    }),
    runs: [
      ['gfx942', 'cu'],
      ['gfx950', 'cu'],
    ],
    llc: 'sound',
  },
  {
    cause: 'volatile-nt-bits, volatile-waits, gfx12-volatile-waits (volatile)',
    src: mp({
      st: 'store volatile i32 1, ptr addrspace(1) @x',
      ld: '%r1 = load volatile i32, ptr addrspace(1) @x',
    }),
    runs: ALL_MODES,
    llc: 'sound',
  },
  {
    cause: 'volatile-nt-bits (nontemporal)',
    src: mp({
      st: 'store i32 1, ptr addrspace(1) @x, !nontemporal !{i32 1}',
      ld: '%r1 = load i32, ptr addrspace(1) @x, !nontemporal !{i32 1}',
    }),
    runs: ALL_MODES,
    llc: 'sound',
    otherCause: { gfx1250: 'UNSOUND' },
  },
  {
    cause: 'unordered-is-atomic',
    src: mp({
      st: 'store atomic volatile i32 1, ptr addrspace(1) @x unordered',
      ld: '%r1 = load atomic volatile i32, ptr addrspace(1) @x unordered',
    }),
    runs: ALL_MODES,
    llc: 'sound',
    otherCause: { gfx1250: 'UNSOUND' },
  },
  {
    // GFX10–11: after an acquire RMW with return llc-22 waits on vmcnt only.
    cause: 'gfx10-atomic-wait-kind',
    src: mp({ acq: '%r0 = atomicrmw add ptr addrspace(1) @y, i32 0 syncscope("agent") acquire' }),
    runs: [
      ['gfx1030', 'cu'],
      ['gfx1100', 'wgp'],
    ],
    llc: 'sound',
  },
  {
    // GFX12: after an acquire generic RMW at workgroup scope llc-22 also waits dscnt.
    cause: 'flat-atomic-lds-wait',
    src: `AMDGPU MP.flat
@x = addrspace(1) global i32 0
@y = addrspace(1) global i32 0
P0 @ agent 0, workgroup 0, wavefront 0 {
  store i32 1, ptr addrspace(1) @x
  store atomic i32 1, ptr @y syncscope("workgroup") release
}
P1 @ agent 0, workgroup 0, wavefront 1 {
  %r0 = atomicrmw add ptr @y, i32 0 syncscope("workgroup") acquire
  %r1 = load i32, ptr addrspace(1) @x
}
`,
    runs: [['gfx1200', 'cu']],
    llc: 'sound',
  },
  {
    // llc-22 loads constant memory with s_load; the machine runs it as a vector load.
    cause: 'scalar-constant-load',
    src: `AMDGPU Constant
@c = addrspace(4) constant i32 5
P0 @ agent 0, workgroup 0 {
  %r0 = load i32, ptr addrspace(4) @c
}
P1 @ agent 0, workgroup 1 {
  %r1 = load i32, ptr addrspace(4) @c
}
`,
    runs: ALL_MODES,
    llc: 'sound',
    readAlike: true,
  },
  {
    // GFX12.5: private accesses through flat_*, the documents' scratch_*.
    cause: 'gfx1250-private-flat',
    src: `AMDGPU Private
@p = addrspace(5) global i32 0
P0 @ agent 0, workgroup 0, wavefront 0 {
  store i32 1, ptr addrspace(5) @p
  %r0 = load i32, ptr addrspace(5) @p
}
P1 @ agent 0, workgroup 0, wavefront 1 {
  store i32 2, ptr addrspace(5) @p
  %r1 = load i32, ptr addrspace(5) @p
}
`,
    runs: [['gfx1250', 'cu']],
    llc: 'sound',
  },
  {
    // llc-22 expands a private atomicrmw into a load, the operation and a store (the documents: the
    // non-atomic private rows, a load then a store); the machine performs the pair as one access.
    cause: 'private-rmw-expansion',
    src: `AMDGPU PrivateRmw
@p = addrspace(5) global i32 0
P0 @ agent 0, workgroup 0 {
  %r0 = atomicrmw add ptr addrspace(5) @p, i32 1 monotonic
}
`,
    runs: [
      ['gfx900', 'cu'],
      ['gfx1200', 'cu'],
    ],
    llc: 'sound',
  },
];

describe.skipIf('reason' in llc)(
  'doc/llc differences the catalogue does not exercise, on the machines',
  () => {
    for (const c of CASES) {
      it(`${c.cause}: documents sound, llc-22 ${c.llc}`, async () => {
        const test = litmus(c.src);
        const report = runTestSync(test);
        const differ: string[] = [];
        for (const [target, mode] of c.runs) {
          const ctx = ctxOf(target, mode);
          const doc = docCode(test, ctx);
          const ll = await llcCode(test, ctx);
          if ('error' in doc || 'error' in ll)
            throw new Error(`${target}: ${'error' in doc ? doc.error : ''}`);
          const same = doc.every((th, t) =>
            th.every((seq, i) => normaliseIsa(seq).join('|') === normaliseIsa(ll[t]![i]!).join('|')),
          );
          if (!same) differ.push(`${target} ${mode}`);
          const opts = { ...TEST_BUDGET, trace: true };
          const d = await checkTest(test, report, doc, ctx, 'doc', opts);
          expect(d.verdict, `${target} ${mode} doc: ${d.reason}`).toBe('sound');
          const r = await checkTest(test, report, ll, ctx, 'llc', opts);
          expect(r.verdict, `${target} ${mode} llc: ${r.reason}`).toBe(c.otherCause?.[target] ?? c.llc);
        }
        // The case exercises the difference: the two codes differ on some target.
        if (!c.readAlike) expect(differ.length, 'doc and llc code agree on every target').toBeGreaterThan(0);
      }, 120_000);
    }
  },
);
