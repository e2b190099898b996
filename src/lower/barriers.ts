/**
 * Barrier code sequences: seeds/001 ("AMDGPU Execution Synchronization"), tables "s_barrier GFX6-11",
 * "s_barrier GFX12" and "s_barrier IDs GFX12".
 */

import type { BarrierInstr } from '../core/types.ts';
import { lowerXeBarrier } from './intel.ts';
import { barrierInstr, barrierInstrM0, barrierM0, type IsaInstr, setM0, wait } from './isa.ts';
import type { LowerCtx, LowerResult } from './types.ts';
import { lowerDiag } from './types.ts';

const SEED = 'seeds/001';

/** Barrier ids a shader may name, per barrier family (seeds/001 "s_barrier IDs GFX12"). */
export function usableBarrierIds(family: 'gfx12' | 'gfx12.5'): number[] {
  // spec: seeds/001 "s_barrier IDs GFX12" — -4 and -2 are trap barriers "only available in privileged
  // execution mode (not accessible by the shader)"; -3, 0, [1, 16] are GFX12.5 only.
  if (family === 'gfx12') return [-1];
  return [-3, -1, 0, ...Array.from({ length: 16 }, (_, i) => i + 1)];
}

/** Lowers a barrier instruction for the context's target. */
export function lowerBarrier(b: BarrierInstr, ctx: LowerCtx): LowerResult {
  const proc = ctx.target.processor;
  const fam = proc.barriers;
  const name = ctx.target.name;
  if (fam === 'xe') return lowerXeBarrier(b, ctx);
  if (fam === 'gfx6-11') {
    if (b.op === 'barrier') {
      if (proc.features.backOffBarrier) {
        // spec: seeds/001 "s_barrier GFX6-11", "arrive then wait / Workgroup barrier" — BackOffBarrier: s_barrier.
        return {
          seq: [barrierInstr('s_barrier')],
          rows: [`${SEED} s_barrier GFX6-11, "arrive then wait" (BackOffBarrier)`],
        };
      }
      // spec: seeds/001 "s_barrier GFX6-11", "arrive then wait / Workgroup barrier" — No BackOffBarrier:
      // s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0); s_waitcnt_vscnt null, 0x0 (GFX10+ only: GFX6–9 have no
      // vscnt); s_barrier.
      const seq: IsaInstr[] = [wait('vmcnt', 'expcnt', 'lgkmcnt')];
      if (proc.features.vscnt) seq.push(wait('vscnt'));
      seq.push(barrierInstr('s_barrier'));
      return { seq, rows: [`${SEED} s_barrier GFX6-11, "arrive then wait" (no BackOffBarrier)`] };
    }
    // spec: seeds/001 "s_barrier GFX6-11" — arrive, wait: "Not available separately"; no named barriers.
    const hint =
      b.op === 'signal' || b.op === 'wait' || b.op === 'signal_isfirst'
        ? 'GFX6-11 have no split barrier: arrive and wait are "not available separately"; use @llvm.amdgcn.s.barrier'
        : 'named barriers (init, join, leave) exist from GFX12.5 on';
    return { diagnostic: lowerDiag('LW2006', [b.op, name, hint], b.span, `${SEED} s_barrier GFX6-11`) };
  }

  const ids = usableBarrierIds(fam);
  const checkId = (id: number, what: string): LowerResult | null => {
    if (ids.includes(id)) return null;
    const hint = `usable ids on ${name}: ${ids.join(', ')} (-4 and -2 are trap barriers, privileged only)`;
    return {
      diagnostic: lowerDiag(
        'LW2007',
        [String(id), what, name, hint],
        b.span,
        `${SEED} "s_barrier IDs GFX12"`,
      ),
    };
  };
  const namedOnly = (): LowerResult => ({
    diagnostic: lowerDiag(
      'LW2006',
      [b.op, name, 'named barriers (init, join, leave, signal with a count) exist from GFX12.5 on'],
      b.span,
      `${SEED} "s_barrier IDs GFX12"`,
    ),
  });
  const row = (what: string): string => `${SEED} s_barrier GFX12, "${what}"`;

  switch (b.op) {
    case 'barrier':
      // spec: seeds/001 "s_barrier GFX12", "arrive" (s_barrier_signal <N>) then "wait" (s_barrier_wait
      // <N>) on the workgroup barrier -1.
      return {
        seq: [barrierInstr('s_barrier_signal', -1), barrierInstr('s_barrier_wait', -1)],
        rows: [row('arrive'), row('wait')],
      };
    case 'signal':
    case 'signal_isfirst': {
      const id = b.id ?? -1;
      const bad = checkId(id, b.op);
      if (bad) return bad;
      // spec: seeds/001 "s_barrier GFX12", "arrive" — s_barrier_signal <N> or s_barrier_signal_isfirst <N>.
      return {
        seq: [barrierInstr(b.op === 'signal' ? 's_barrier_signal' : 's_barrier_signal_isfirst', id)],
        rows: [row('arrive')],
      };
    }
    case 'wait': {
      const id = b.id ?? -1;
      const bad = checkId(id, b.op);
      if (bad) return bad;
      // spec: seeds/001 "s_barrier GFX12", "wait" — s_barrier_wait <N>.
      return { seq: [barrierInstr('s_barrier_wait', id)], rows: [row('wait')] };
    }
    case 'init':
    case 'join':
    case 'signal_var': {
      if (fam !== 'gfx12.5') return namedOnly();
      const id = namedBarrierId(b.object ?? '', ctx);
      // spec: seeds/001 "s_barrier GFX12", arrive [1, 16] — the count is "contained in the bits [22:16]
      // of m0": seven bits. (The parser has already required it to be at least 1.)
      if (b.count !== null && b.count > 0x7f) {
        return {
          diagnostic: lowerDiag(
            'LW2013',
            [String(b.count), b.op === 'init' ? 's_barrier_init' : 's_barrier_signal'],
            b.span,
            `${SEED} s_barrier GFX12, "arrive [1, 16]"`,
          ),
        };
      }
      // The object is named, not an immediate: its id goes in m0 (bits [4:0]), as llc-22 passes it.
      // spec: seeds/001 "s_barrier GFX12" — "<N> is an immediate constant, or stored in the lower half
      // of m0" (init, join; signal: "bits [4:0] of m0"), so one `s_mov_b32 m0` carries id and count.
      if (b.op === 'init') {
        // spec: seeds/001 "s_barrier GFX12", "init [1, 16]" — s_barrier_init <N>; "The value to set as
        // the expected count of the barrier is stored in the upper half of m0."
        return {
          seq: [setM0(barrierM0(id, b.count ?? 1)), barrierInstrM0('s_barrier_init', id)],
          rows: [row('init')],
        };
      }
      if (b.op === 'join') {
        // spec: seeds/001 "s_barrier GFX12", "join 0, [1, 16]" — s_barrier_join <N>.
        return { seq: [setM0(barrierM0(id, 0)), barrierInstrM0('s_barrier_join', id)], rows: [row('join')] };
      }
      // spec: seeds/001 "s_barrier GFX12", "arrive [1, 16]" — s_barrier_signal <N>; "When using m0 as an
      // operand, if there is a non-zero value contained in the bits [22:16] of m0, the expected count of
      // the barrier object is set to that value" (a count of 0 leaves it unchanged).
      return {
        seq: [setM0(barrierM0(id, b.count ?? 0)), barrierInstrM0('s_barrier_signal', id)],
        rows: [row('arrive')],
      };
    }
    case 'leave':
      if (fam !== 'gfx12.5') return namedOnly();
      // spec: seeds/001 "s_barrier GFX12", "drop 0, [1, 16]" — s_barrier_leave (no operand).
      return { seq: [barrierInstr('s_barrier_leave')], rows: [row('drop')] };
    default: {
      const never: never = b.op;
      throw new Error(`unexpected barrier op ${String(never)}`);
    }
  }
}

/** Id of a named-barrier object: from `ctx.namedBarriers`, else 1 (objects are numbered by the caller). */
function namedBarrierId(object: string, ctx: LowerCtx): number {
  return ctx.namedBarriers?.[object] ?? 1;
}
