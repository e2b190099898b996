/**
 * The reductions of docs/hardware.md (R0 local steps first, R1 lazy evictions, R3 one configuration
 * standing for another on one agent (Intel Xe: the GPU-wide level folded into memory), R4 a lone wave's CU-cache steps first, R5 spread placements of
 * caches no access is performed in; R2 is withdrawn) lose no final state:
 * on random small programs — random litmus tests lowered for a target, with one random instruction
 * of their machine code dropped so that weak code is covered too — the reduced exploration and the
 * brute-force one (every interleaving, explicit evictions) reach the same final states.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LowerCtx } from '../lower/types.ts';
import { familyMachine, machineMode } from './config.ts';
import { outcomeKey } from './machine.ts';
import type { LoweredCode } from './program.ts';
import { simulate } from './simulate.ts';
import { ctxOf, docOf, litmus } from './testutil.ts';

const ORD = ['monotonic', 'acquire', 'release', 'seq_cst'] as const;
const SCOPE = ['workgroup', 'agent'] as const;

interface Op {
  kind: 'load' | 'store' | 'fence' | 'rmw';
  loc: 'x' | 'y';
  atomic: boolean;
  ord: (typeof ORD)[number];
  scope: (typeof SCOPE)[number];
}

const arbOp: fc.Arbitrary<Op> = fc.record({
  kind: fc.constantFrom('load', 'store', 'fence', 'rmw'),
  loc: fc.constantFrom('x', 'y'),
  atomic: fc.boolean(),
  ord: fc.constantFrom(...ORD),
  scope: fc.constantFrom(...SCOPE),
});

function text(ops: Op[], k: number, regs: { n: number }): string {
  return ops
    .map((o) => {
      const ptr = `ptr addrspace(1) @${o.loc}`;
      const ss = `syncscope("${o.scope}")`;
      switch (o.kind) {
        case 'fence':
          return `  fence ${ss} ${o.ord === 'monotonic' ? 'acquire' : o.ord}`;
        case 'load': {
          const ord = o.ord === 'release' ? 'acquire' : o.ord;
          return o.atomic
            ? `  %r${regs.n++} = load atomic i32, ${ptr} ${ss} ${ord}`
            : `  %r${regs.n++} = load i32, ${ptr}`;
        }
        case 'store': {
          const ord = o.ord === 'acquire' ? 'release' : o.ord;
          return o.atomic
            ? `  store atomic i32 ${k + 1}, ${ptr} ${ss} ${ord}`
            : `  store i32 ${k + 1}, ${ptr}`;
        }
        default:
          return `  %r${regs.n++} = atomicrmw add ${ptr}, i32 1 ${ss} ${o.ord}`;
      }
    })
    .join('\n');
}

/** Where the second thread runs: the first one's work-group, another work-group, another agent. */
type Where = boolean | 'agent';

function program(a: Op[], b: Op[], sameWg: Where): string {
  const regs = { n: 0 };
  return `AMDGPU random
@x = addrspace(1) global i32 0
@y = addrspace(1) global i32 0
P0 @ agent 0, workgroup 0, wavefront 0 {
${text(a, 0, regs)}
}
P1 @ agent ${sameWg === 'agent' ? 1 : 0}, workgroup ${sameWg === true ? 0 : 1}, wavefront 1 {
${text(b, 1, regs)}
}
`;
}

/** Drops the `drop`-th machine instruction (modulo their number) of the code, if any. */
function dropOne(code: LoweredCode, drop: number): LoweredCode {
  const flat: [number, number, number][] = [];
  code.forEach((th, t) => {
    th.forEach((seq, i) => {
      seq.forEach((ins, k) => {
        if (ins.kind !== 'vmem' && ins.kind !== 'lds' && ins.kind !== 'lsc') flat.push([t, i, k]);
      });
    });
  });
  if (flat.length === 0) return code;
  const [t, i, k] = flat[drop % flat.length]!;
  return code.map((th, u) => th.map((seq, j) => (u === t && j === i ? seq.filter((_, n) => n !== k) : seq)));
}

async function agree(
  ctx: LowerCtx,
  src: string,
  drop: number,
  maxStates: number,
  weakest = false,
): Promise<void> {
  const test = litmus(src);
  const code = drop < 0 ? docOf(test, ctx) : dropOne(docOf(test, ctx), drop);
  // `weakest`: the machine without any assumption (reads out of order, requests of one type in order
  // only, late fills, an L2 per agent on GFX6–11).
  const fam = familyMachine(
    ctx.target.processor.table!,
    ctx.target.processor.generation,
    weakest ? { assume: [] } : {},
  )!;
  // Brute force beyond this many states is skipped (fc.pre): it costs memory and minutes.
  const budget = { maxStates, deadline: Number.POSITIVE_INFINITY };
  const brute = await simulate(test, code, fam, machineMode(ctx), { ...budget, reduce: false });
  const reduced = await simulate(test, code, fam, machineMode(ctx), { ...budget, reduce: true });
  if (brute.kind !== 'done' || reduced.kind !== 'done') throw new Error('unsupported');
  fc.pre(brute.stop === 'done');
  const keys = (r: typeof brute) => [...new Set(r.outcomes.map((o) => outcomeKey(o.outcome)))].sort();
  expect(keys(reduced)).toEqual(keys(brute));
}

/** Every access atomic at agent scope: no access can be performed in a CU's cache (R5 applies). */
const strongOp: fc.Arbitrary<Op> = arbOp.map((o) => ({ ...o, atomic: true, scope: 'agent' }));

/**
 * Two threads; `most` bounds the instructions of the second (brute force on GFX12 is costly);
 * `strong`: agent-scope atomics only.
 */
const arbCase = (most: number, strong = false) =>
  fc.record({
    a: fc.array(strong ? strongOp : arbOp, { minLength: 1, maxLength: 2 }),
    b: fc.array(strong ? strongOp : arbOp, { minLength: 1, maxLength: most }),
    sameWg: fc.constantFrom<Where>(true, false, false, 'agent'),
    drop: fc.nat(20),
  });

/**
 * Found by this test: two work-groups sharing a CU's write-through L1 give a run two CUs do not
 * (docs/hardware.md, R2 withdrawn). Kept as an example that every run tries first.
 */
const SHARED_L1: unknown = JSON.parse(
  '{"a":[{"kind":"store","loc":"y","atomic":false,"ord":"monotonic","scope":"workgroup"},' +
    '{"kind":"load","loc":"x","atomic":false,"ord":"monotonic","scope":"workgroup"}],' +
    '"b":[{"kind":"rmw","loc":"y","atomic":false,"ord":"monotonic","scope":"workgroup"},' +
    '{"kind":"load","loc":"y","atomic":false,"ord":"monotonic","scope":"workgroup"}],' +
    '"sameWg":false,"drop":0}',
);

describe('reduced exploration = brute force (random small programs)', () => {
  for (const row of [
    ['gfx900', 'cu', 2, 20, 150_000],
    ['gfx1200', 'cu', 1, 4, 150_000],
    ['gfx1200', 'wgp', 1, 3, 150_000],
    // Several hardware configurations (R3) and TgSplit placements.
    ['gfx90a', 'tgsplit', 2, 8, 150_000],
    ['gfx942', 'cu', 2, 6, 150_000],
    ['gfx942', 'tgsplit', 1, 4, 150_000],
    ['gfx1250', 'cu', 1, 3, 40_000],
    // Intel Xe: one tile (DG2; Xe2 with L1 maintenance below tile), two tiles (PVC), and on several agents
    // the GPU-wide level R3 folds into memory on one.
    ['dg2', 'cu', 2, 8, 150_000],
    ['lnl', 'cu', 2, 8, 150_000],
    ['pvc', 'cu', 2, 8, 150_000],
    // Agent-scope atomics only: the spread placements of R5.
    ['gfx900', 'cu', 2, 10, 150_000, true],
    ['gfx942', 'cu', 2, 6, 150_000, true],
    ['gfx1200', 'wgp', 1, 3, 150_000, true],
    ['pvc', 'cu', 2, 6, 150_000, true],
    // The machines without their assumptions (src/sim/assumptions.ts): late fills, requests in order
    // within a counter type only, an L2 per agent on GFX6–11.
    ['gfx900', 'cu', 2, 12, 150_000, false, true],
    ['gfx1030', 'cu', 2, 8, 150_000, false, true],
    ['gfx1200', 'cu', 1, 4, 150_000, false, true],
    ['gfx1250', 'cu', 1, 3, 40_000, false, true],
    ['dg2', 'cu', 2, 6, 150_000, false, true],
  ] as const) {
    const [target, mode, most, runs, maxStates] = row;
    const strong = row.length > 5 && row[5] === true;
    const weakest = row.length > 6 && row[6] === true;
    it(`${target} ${mode}${strong ? ' (agent-scope atomics)' : ''}${weakest ? ' (no assumptions)' : ''}`, async () => {
      await fc.assert(
        fc.asyncProperty(arbCase(most, strong), (c) =>
          agree(ctxOf(target, mode), program(c.a, c.b, c.sameWg), c.drop, maxStates, weakest),
        ),
        { numRuns: runs, examples: target === 'gfx900' && !strong ? [[SHARED_L1 as never]] : [] },
      );
    }, 300_000);
  }
});

describe('reduced exploration = brute force (Intel Xe programs chosen for R3)', () => {
  // A work-group-scope release reaches only the writer's tile's L3 (evict.tile on PVC); an agent-scope
  // acquire in another work-group then reads past its own tile: folding the GPU-wide level into memory
  // on one agent must keep the tiles' L3s, or the stale read is lost.
  const wgToAgent: [Op[], Op[]] = [
    [
      { kind: 'store', loc: 'x', atomic: false, ord: 'monotonic', scope: 'agent' },
      { kind: 'store', loc: 'y', atomic: true, ord: 'release', scope: 'workgroup' },
    ],
    [
      { kind: 'load', loc: 'y', atomic: true, ord: 'acquire', scope: 'agent' },
      { kind: 'load', loc: 'x', atomic: false, ord: 'monotonic', scope: 'agent' },
    ],
  ];
  for (const target of ['pvc', 'dg2', 'lnl'])
    it(`${target}: a workgroup-scope release read by an agent-scope acquire in another work-group, on one agent and on two`, async () => {
      for (const where of [false, 'agent'] as const)
        await agree(ctxOf(target), program(wgToAgent[0], wgToAgent[1], where), -1, 1_000_000);
    }, 300_000);
});
