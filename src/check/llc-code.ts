/**
 * The `--lowering llc` profile: the machine code llc-22 really emits for a test, read back from its
 * normal form into the typed ISA the machines run. Each thread is compiled as one kernel, its IR
 * instructions in order (src/lower/llc-ir.ts `threadKernel`), so the waits llc-22 adds or drops
 * because of the thread's earlier instructions are there; markers between the instructions map every
 * machine instruction back to the IR instruction it belongs to. A form the machines cannot take (an
 * instruction with no typed counterpart) makes the test unsupported, never silently dropped.
 */

import { type Diagnostic, diag } from '../core/diagnostics.ts';
import type { Test } from '../core/types.ts';
import {
  barrierM0,
  type CacheScope,
  COUNTERS,
  type Counter,
  type IsaInstr,
  type MemOp,
  type ScBits,
  setM0,
  type TemporalHint,
  type VmemEncoding,
  vmem,
} from '../lower/isa.ts';
import { findLlc, llcBarrierFails, llcRejects, pool, runLlc } from '../lower/llc.ts';
import {
  LLC_AV_FAILS,
  locationDecls,
  MODULE_TAIL,
  normaliseAsm,
  splitRegions,
  threadKernel,
} from '../lower/llc-ir.ts';
import { cellOf } from '../lower/lower.ts';
import type { LowerCtx } from '../lower/types.ts';
import type { CodeOrWhy } from '../sim/program.ts';

/**
 * One llc instruction in the compared form of `normaliseAsm` (`global_load scope:SCOPE_DEV`,
 * `s_waitcnt vmcnt(0) lgkmcnt(0)`, `s_wait_loadcnt 0x0`, `global_inv scope:SCOPE_DEV`,
 * `buffer_wbinvl1_vol` …) as a typed instruction; `flat`: the access uses a generic pointer. Null for
 * scalar loads (kernel arguments, no test memory); a string says why the form is not understood.
 */
export function isaOfNormal(n: string, flat: boolean): IsaInstr | null | string {
  const [head = '', ...words] = n.split(' ');
  const vm = /^(buffer|global|flat|scratch)_(load|store|atomic)$/.exec(head);
  if (vm) {
    const bits = new Set(words);
    const op = vm[2] as MemOp;
    const th = words.find((w) => w.startsWith('th:'))?.slice(3) as TemporalHint | undefined;
    const scope = words.find((w) => w.startsWith('scope:'))?.slice(6) as CacheScope | undefined;
    // An atomic that returns its old value: glc before GFX940 and GFX12, sc0 on GFX940,
    // TH_ATOMIC_RETURN on GFX12 (the ISA manuals' atomic-return bits).
    const returns = op === 'atomic' && (bits.has('glc') || bits.has('sc0') || (th ?? '').includes('RETURN'));
    return vmem(op, flat ? 'flat' : (vm[1] as VmemEncoding), {
      returns,
      glc: bits.has('glc'),
      slc: bits.has('slc'),
      dlc: bits.has('dlc'),
      sc0: bits.has('sc0'),
      sc1: bits.has('sc1'),
      nt: bits.has('nt'),
      th: th ?? null,
      scope: scope ?? null,
    });
  }
  const ld = /^ds_(load|store|atomic)$/.exec(head);
  if (ld) return { kind: 'lds', op: ld[1] as MemOp, returns: words.includes('rtn') };
  if (head === 's_waitcnt') {
    const cs: Counter[] = [];
    const counts: number[] = [];
    for (const w of words) {
      const m = /^(\w+)\((\d+)\)$/.exec(w);
      if (!m || !(COUNTERS as readonly string[]).includes(m[1]!)) return `wait ${w} not understood`;
      cs.push(m[1] as Counter);
      counts.push(Number(m[2]));
    }
    return counts.some((c) => c > 0)
      ? { kind: 'wait', counters: cs, counts }
      : { kind: 'wait', counters: cs };
  }
  const sw = /^s_wait(?:_(\w+)|cnt_(vscnt))$/.exec(head);
  if (sw) {
    const c = (sw[1] ?? sw[2]) as Counter;
    const v = Number(words[words.length - 1] ?? '');
    if (!(COUNTERS as readonly string[]).includes(c)) return `wait on ${c} not understood`;
    if (!Number.isInteger(v) || v < 0) return `wait on ${c} ${words.join(' ')} not understood`;
    return v > 0 ? { kind: 'wait', counters: [c], counts: [v] } : { kind: 'wait', counters: [c] };
  }
  if (head === 's_mov_b32' && words[0] === 'm0,') {
    // m0 carries a barrier's id and member count; `?`: a value llc computes at run time.
    const v = Number(words[1]);
    if (!Number.isFinite(v)) return `${n} (m0 set to a value not known before the run)`;
    return { kind: 'setm0', value: v >>> 0 };
  }
  if (head === 's_load') return null;
  if (head === 'buffer_wbinvl1_vol' || head === 'buffer_wbinvl1')
    return { kind: 'inv', mnemonic: 'buffer_wbinvl1_vol', scope: null, sc: null };
  if (head === 'buffer_invl2') return { kind: 'inv', mnemonic: 'buffer_invl2', scope: null, sc: null };
  if (head === 'buffer_gl0_inv' || head === 'buffer_gl1_inv')
    return { kind: 'inv', mnemonic: head, scope: null, sc: null };
  if (head === 'buffer_inv' || head === 'buffer_wbl2') {
    const sc = words.filter((w) => w === 'sc0' || w === 'sc1');
    const bits = sc.length === 0 ? null : (sc.join(' ') as ScBits);
    return head === 'buffer_inv'
      ? { kind: 'inv', mnemonic: 'buffer_inv', scope: null, sc: bits }
      : { kind: 'wb', mnemonic: 'buffer_wbl2', scope: null, sc: bits };
  }
  if (head === 'global_inv' || head === 'global_wb') {
    const scope = (words.find((w) => w.startsWith('scope:'))?.slice(6) ?? null) as CacheScope | null;
    return head === 'global_inv'
      ? { kind: 'inv', mnemonic: 'global_inv', scope, sc: null }
      : { kind: 'wb', mnemonic: 'global_wb', scope, sc: null };
  }
  if (head.startsWith('s_barrier')) {
    // The operand in m0: the id is read from the value the thread's `s_mov_b32 m0` set.
    if (words.length === 1 && words[0] === 'm0')
      return { kind: 'barrier', mnemonic: head as never, id: null, viaM0: true };
    const id = words.length === 1 && /^-?\d+$/.test(words[0]!) ? Number(words[0]) : null;
    if (words.length > 0 && id === null) return `${n} (barrier operand not understood)`;
    return { kind: 'barrier', mnemonic: head as never, id };
  }
  return `unknown instruction ${n}`;
}

/** Per thread, per IR instruction, the code llc-22 emits; or why it cannot be had. */
export async function llcCode(test: Test, ctx: LowerCtx, llcPath?: string): Promise<CodeOrWhy> {
  return (await llcCodes([test], ctx, llcPath))[0]!;
}

/**
 * `llcCode` for many tests at once: every thread of every test as one kernel (its globals renamed
 * `t<N>.<name>`), all compiled in one llc-22 run per target and mode (one run per test and target
 * would dominate a catalogue check).
 */
export async function llcCodes(
  tests: readonly Test[],
  ctx: LowerCtx,
  llcPath?: string,
  /** Stop llc-22 after this long (0: never); every test of a run that ran past it gets the reason. */
  timeoutMs = 0,
): Promise<CodeOrWhy[]> {
  const found = findLlc(llcPath);
  if ('reason' in found) return tests.map(() => llcWhy(found.reason));
  const proc = ctx.target.processor;
  if (!proc.llc) {
    const why =
      proc.vendor === 'Intel'
        ? `llc-22 has no Intel Xe backend (${proc.name})`
        : `llc-22 does not accept -mcpu=${proc.name}`;
    return tests.map(() => llcWhy(why));
  }
  const mode = proc.features.wgpMode ? ctx.mode : null;
  const tgsplit = proc.features.tgsplit && ctx.tgsplit === true;
  const parts: string[] = [];
  const perTest = tests.map((test, n): { fns: string[] } | { error: Diagnostic } => {
    const fns: string[] = [];
    const kernels: string[] = [];
    for (const th of test.threads)
      for (const i of th.body) {
        // One kernel llc-22 fails on fails the whole module: report it without running it.
        const cell = cellOf(i);
        const fails =
          i.kind === 'barrier'
            ? llcBarrierFails(i.op, proc)
            : i.kind === 'avload' || i.kind === 'avstore'
              ? LLC_AV_FAILS
              : cell !== null && llcRejects(cell) !== null
                ? `fails: ${llcRejects(cell)}`
                : 'ptr' in i && i.ptr.space === 'generic' && !proc.features.flat
                  ? 'cannot select a generic access: no flat instructions on this target'
                  : null;
        if (fails !== null)
          return {
            error: diag('MC2001', i.span, {
              thread: th.name,
              line: String(i.span.line),
              why: `llc-22 ${fails}`,
            }),
          };
      }
    for (let t = 0; t < test.threads.length; t++) {
      const fn = `t${n}.${t}`;
      const k = threadKernel(test, t, fn, `t${n}.`);
      if (typeof k !== 'string') return llcWhy(k.error);
      kernels.push(k);
      fns.push(fn);
    }
    parts.push(locationDecls(test, `t${n}.`), ...kernels);
    return { fns };
  });
  let got = new Map<string, string[][]>();
  if (parts.length > 0) {
    try {
      got = splitRegions(
        await runLlc(found.path, `${parts.join('\n')}\n${MODULE_TAIL}`, proc.name, mode, tgsplit, timeoutMs),
      );
    } catch (e) {
      const why = (e as Error).message.split('\n')[0]!;
      // A run past its budget says nothing of any one test: compiling each alone would only wait again.
      if (tests.length === 1 || why.includes(' took over ')) return tests.map(() => llcWhy(why));
      // One test llc-22 refuses would fail the whole module: compile each test on its own instead.
      return pool(
        tests.map((t) => async () => (await llcCodes([t], ctx, llcPath, timeoutMs))[0]!),
        2,
      );
    }
  }
  return perTest.map((p, n) => {
    if ('error' in p) return p;
    const test = tests[n]!;
    const objectIds = new Map(test.locations.filter((l) => l.barrier).map((l, k) => [l.name, k + 1]));
    const constant = new Set(test.locations.filter((l) => l.space === 'constant').map((l) => l.name));
    const out: IsaInstr[][][] = [];
    for (let t = 0; t < test.threads.length; t++) {
      const regions = got.get(p.fns[t]!);
      if (regions === undefined) return llcWhy(`llc-22 output has no kernel for ${test.threads[t]!.name}`);
      const seqs: IsaInstr[][] = [];
      for (const [k, instr] of test.threads[t]!.body.entries()) {
        const flat = 'ptr' in instr && instr.ptr.space === 'generic';
        const seq: IsaInstr[] = [];
        for (const line of normaliseAsm(regions[k] ?? [])) {
          const i =
            line === 's_mov_b32 m0, ?' && instr.kind === 'barrier' && instr.object !== null
              ? // llc-22 builds m0 from the named-barrier object's address; the kernel uses the objects in
                // declaration order first, so llc-22's id is gpumm's (threadKernel).
                setM0(barrierM0(objectIds.get(instr.object) ?? 1, instr.count ?? 0))
              : isaOfNormal(line, flat);
          if (typeof i === 'string')
            return {
              error: diag('MC2001', instr.span, {
                thread: test.threads[t]!.name,
                line: String(instr.span.line),
                why: i,
              }),
            };
          if (i !== null) seq.push(i);
          else if (instr.kind === 'load' && constant.has(instr.ptr.loc))
            // A scalar load of constant memory (scalar-constant-load): run as a vector load. Constant
            // memory holds its initial value for the whole dispatch ("it is not legal to perform
            // stores"), so every cache a load may hit holds that value too.
            seq.push(vmem('load', 'global'));
        }
        seqs.push(seq);
      }
      out.push(seqs);
    }
    return out;
  });
}

/** Why llc-22 gives a test no code (MC2007): not found, no backend for the target, a failed run. */
function llcWhy(what: string): { error: Diagnostic } {
  return { error: diag('MC2007', null, { what }) };
}
