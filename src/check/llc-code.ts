/**
 * The `--lowering llc` profile: the machine code llc-22 really emits for each instruction of a test
 * (one kernel per instruction, compiled by src/lower/llc.ts), read back from its normal form into
 * the typed ISA the machines run. A form the machines cannot take (a wait to a non-zero count, an
 * instruction with no typed counterpart) makes the test unsupported, never silently dropped.
 */

import type { Test } from '../core/types.ts';
import {
  type CacheScope,
  COUNTERS,
  type Counter,
  type IsaInstr,
  type MemOp,
  type ScBits,
  type TemporalHint,
  vmem,
} from '../lower/isa.ts';
import { comparisonModule, findLlc, runLlc } from '../lower/llc.ts';
import { MODULE_TAIL, normaliseAsm, splitFunctions } from '../lower/llc-ir.ts';
import type { LowerCtx } from '../lower/types.ts';
import type { LoweredCode } from '../sim/program.ts';

/**
 * One llc instruction in the compared form of `normaliseAsm` (`global_load scope:SCOPE_DEV`,
 * `s_waitcnt vmcnt(0) lgkmcnt(0)`, `s_wait_loadcnt 0x0`, `global_inv scope:SCOPE_DEV`,
 * `buffer_wbinvl1_vol` …) as a typed instruction; `flat`: the access uses a generic pointer. Null for
 * scalar loads (kernel arguments, no test memory); a string says why the form is not understood.
 */
export function isaOfNormal(n: string, flat: boolean): IsaInstr | null | string {
  const [head = '', ...words] = n.split(' ');
  const vm = /^(?:buffer|global|flat|scratch)_(load|store|atomic)$/.exec(head);
  if (vm) {
    const bits = new Set(words);
    const op = vm[1] as MemOp;
    const th = words.find((w) => w.startsWith('th:'))?.slice(3) as TemporalHint | undefined;
    const scope = words.find((w) => w.startsWith('scope:'))?.slice(6) as CacheScope | undefined;
    // An atomic that returns its old value: glc before GFX940 and GFX12, sc0 on GFX940,
    // TH_ATOMIC_RETURN on GFX12 (the ISA manuals' atomic-return bits).
    const returns = op === 'atomic' && (bits.has('glc') || bits.has('sc0') || (th ?? '').includes('RETURN'));
    return vmem(op, flat ? 'flat' : 'global', {
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
    for (const w of words) {
      const m = /^(\w+)\((\d+)\)$/.exec(w);
      if (!m || !(COUNTERS as readonly string[]).includes(m[1]!)) return `wait ${w} not understood`;
      if (m[2] !== '0') return `wait ${w} (only waits to zero are modelled)`;
      cs.push(m[1] as Counter);
    }
    return { kind: 'wait', counters: cs };
  }
  const sw = /^s_wait(?:_(\w+)|cnt_(vscnt))$/.exec(head);
  if (sw) {
    const c = (sw[1] ?? sw[2]) as Counter;
    const v = words[words.length - 1] ?? '';
    if (!(COUNTERS as readonly string[]).includes(c)) return `wait on ${c} not understood`;
    if (Number(v) !== 0) return `wait on ${c} ${v} (only waits to zero are modelled)`;
    return { kind: 'wait', counters: [c] };
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
    const id = words.length === 1 && /^-?\d+$/.test(words[0]!) ? Number(words[0]) : null;
    if (words.length > 0 && id === null) return `${n} (barrier operand in m0)`;
    return { kind: 'barrier', mnemonic: head as never, id };
  }
  return `unknown instruction ${n}`;
}

/** Per thread, per IR instruction, the code llc-22 emits; or why it cannot be had. */
export async function llcCode(
  test: Test,
  ctx: LowerCtx,
  llcPath?: string,
): Promise<LoweredCode | { error: string }> {
  return (await llcCodes([test], ctx, llcPath))[0]!;
}

const KERNEL = /define amdgpu_kernel void @(i\d+)\(([\s\S]*?)\n}\n/g;

/**
 * `llcCode` for many tests at once: the distinct kernels of all of them compiled in one llc-22 run
 * per target and mode (one run per test and target would dominate a catalogue check).
 */
export async function llcCodes(
  tests: readonly Test[],
  ctx: LowerCtx,
  llcPath?: string,
): Promise<(LoweredCode | { error: string })[]> {
  const found = findLlc(llcPath);
  if ('reason' in found) return tests.map(() => ({ error: found.reason }));
  const proc = ctx.target.processor;
  if (!proc.llc) {
    const why =
      proc.vendor === 'Intel'
        ? `llc-22 has no Intel Xe backend (${proc.name})`
        : `llc-22 does not accept -mcpu=${proc.name}`;
    return tests.map(() => ({ error: why }));
  }
  const mode = proc.features.wgpMode ? ctx.mode : null;
  const tgsplit = proc.features.tgsplit && ctx.tgsplit === true;
  // Distinct kernels (by text, name aside) across the tests, renamed k0, k1, …
  const byText = new Map<string, string>();
  const kernels: string[] = [];
  const perTest = tests.map((test) => {
    const { module, items } = comparisonModule(test, ctx);
    const rename = new Map<string, string>();
    for (const m of module.matchAll(KERNEL)) {
      const key = m[2]!;
      let name = byText.get(key);
      if (name === undefined) {
        name = `k${kernels.length}`;
        byText.set(key, name);
        kernels.push(`define amdgpu_kernel void @${name}(${key}\n}\n`);
      }
      rename.set(m[1]!, name);
    }
    return { test, items, rename };
  });
  let got = new Map<string, string[]>();
  if (kernels.length > 0) {
    try {
      got = splitFunctions(
        await runLlc(found.path, `${kernels.join('\n')}\n${MODULE_TAIL}`, proc.name, mode, tgsplit),
      );
    } catch (e) {
      const error = (e as Error).message.split('\n')[0]!;
      return tests.map(() => ({ error }));
    }
  }
  return perTest.map(({ test, items, rename }) => {
    const out: IsaInstr[][][] = test.threads.map(() => []);
    let k = 0;
    for (let t = 0; t < test.threads.length; t++) {
      for (const instr of test.threads[t]!.body) {
        const it = items[k++]!;
        if (it.fn === null) {
          if (it.note !== null) return { error: `${it.thread}: line ${instr.span.line}: ${it.note}` };
          out[t]!.push([]);
          continue;
        }
        // Each instruction is compiled in a kernel of its own, so llc sees no earlier memory operation
        // before a barrier and leaves out the waits it would put there (targets without
        // BackOffBarrier): such code says nothing about the test's.
        if (instr.kind === 'barrier' && !proc.features.backOffBarrier)
          return {
            error: `${it.thread}: line ${instr.span.line}: llc-22's waits before a barrier depend on the whole kernel`,
          };
        const lines = got.get(rename.get(it.fn) ?? '');
        if (lines === undefined) return { error: `llc-22 output has no kernel for ${it.fn}` };
        const flat = 'ptr' in instr && instr.ptr.space === 'generic';
        const seq: IsaInstr[] = [];
        for (const n of normaliseAsm(lines)) {
          const i = isaOfNormal(n, flat);
          if (typeof i === 'string') return { error: `${it.thread}: line ${instr.span.line}: ${i}` };
          if (i !== null) seq.push(i);
        }
        out[t]!.push(seq);
      }
    }
    return out;
  });
}
