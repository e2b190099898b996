/**
 * The GFX90A and GFX942 code sequences: one table, two sets of hooks. LLVM `llvm/docs/AMDGPUUsage.rst`
 * at commit f5c8b0a9 (llvm/llvm-project), sections "Memory Model GFX90A" and "Memory Model GFX942",
 * tables "AMDHSA Memory Model Code Sequences GFX90A" and "… GFX942", with and without TgSplit
 * execution mode. The two tables have the same rows, steps, waits and omissions; they differ in the
 * cache bits of the memory instructions and in the invalidates and write-backs, which the family's
 * hooks give (gfx90a.ts, gfx942.ts), as LLVM's SIGfx90ACacheControl and SIGfx940CacheControl do for
 * its one memory legalizer — and in the rows of "load atomic monotonic", which GFX942 words as one.
 * Each row cites the row it implements as `AMDGPUUsage (f5c8b0a9) <family> table, "<row>"`; a step
 * written "GFX90A: … / GFX942: …" is where the documents differ.
 *
 * Conventions of both tables: "lgkm/vmcnt(0)" is `lgkmcnt(0)` when not in TgSplit mode and `vmcnt(0)`
 * in TgSplit mode. Fences carry no address space, so the "If OpenCL and address space is …" omissions
 * of the fence rows never apply ("conservatively always generate", section "Fence and Address
 * Spaces"). The "*If TgSplit execution mode, local address space cannot be used.*" note of the atomic
 * local rows is the LW2012 diagnostic (lower.ts).
 */

import { encoding, type Family, row, sharedRows, waitcnt } from './amd-rows.ts';
import type { IsaInstr, VmemBits } from './isa.ts';
import { lds, vmem, wait } from './isa.ts';
import type { RowEnv, RowKey, TableRow } from './table.ts';
import { AG_SYS, ANY_SCOPE, memOp, WG } from './table.ts';

/** What GFX90A and GFX942 differ in; every other step of their tables is the same. */
export interface Gfx90a942Hooks {
  /** `GFX90A` or `GFX942`, as rows are cited. */
  name: string;
  /** The bit a returning atomic carries: GFX90A `glc=1`, GFX942 `sc0=1`. */
  returnBit: 'glc' | 'sc0';
  /** Bits of a volatile non-atomic load or store. */
  volatileBits: (op: 'load' | 'store') => VmemBits;
  /** Bits of a nontemporal non-atomic load or store. */
  nontemporalBits: VmemBits;
  /** Bits of an atomic load at the key's scope, in the load rows' first step (may depend on TgSplit). */
  loadBits: (k: RowKey, env: RowEnv) => VmemBits;
  /** Bits of an atomic store at the key's scope (monotonic and release rows). */
  storeBits: (k: RowKey) => VmemBits;
  /** Bits of a monotonic, acquire or acq_rel atomicrmw at the key's scope. */
  rmwBits: (k: RowKey) => VmemBits;
  /** Bits of a release atomicrmw at the key's scope. */
  rmwReleaseBits: (k: RowKey) => VmemBits;
  /** The workgroup acquire invalidate, only in TgSplit mode ("If not TgSplit execution mode, omit"). */
  workgroupInv: () => IsaInstr;
  /** The invalidate that ends an agent or system acquire. */
  acquireInv: (k: RowKey) => IsaInstr[];
  /** The write-back that starts an agent or system release (none where the document has none). */
  releaseWb: (k: RowKey) => IsaInstr[];
  /**
   * The text of the "load atomic monotonic … global/generic" rows (their bits: `loadBits`), and where
   * among them the document puts "load atomic monotonic … local" (`'local'`).
   */
  monotonicLoadRows: readonly string[];
}

const tg = (env: RowEnv): boolean => env.tgsplit;
const ocl = (env: RowEnv): boolean => env.lang === 'opencl';

/** "s_waitcnt lgkm/vmcnt(0)": lgkmcnt(0) unless TgSplit, vmcnt(0) in TgSplit; `oclOmitsLgkm`: "If OpenCL, omit lgkmcnt(0)". */
function lgkmOrVm(env: RowEnv, oclOmitsLgkm: boolean): IsaInstr[] {
  if (tg(env)) return [wait('vmcnt')];
  return oclOmitsLgkm && ocl(env) ? [] : [wait('lgkmcnt')];
}

/** "s_waitcnt lgkmcnt(0) & vmcnt(0)" with "If TgSplit execution mode, omit lgkmcnt(0)" (and the OpenCL omission when given). */
function lgkmAndVm(env: RowEnv, oclOmitsLgkm: boolean): IsaInstr[] {
  return waitcnt(['vmcnt', 'lgkmcnt'], tg(env) || (oclOmitsLgkm && ocl(env)) ? ['lgkmcnt'] : []);
}

/** "s_waitcnt lgkmcnt(0)" of the local acquire rows ("If OpenCL, omit"). */
function lgkmUnlessOcl(env: RowEnv): IsaInstr[] {
  return ocl(env) ? [] : [wait('lgkmcnt')];
}

/** The GFX90A or GFX942 table, in the document's order. */
export function gfx90a942Table(h: Gfx90a942Hooks): readonly TableRow[] {
  /** The row's memory instruction with its bits; a returning atomic carries the family's return bit. */
  const op = (k: RowKey, bits: VmemBits = {}): IsaInstr => {
    const o = memOp(k.instr);
    const returns = o === 'atomic' && k.returns;
    if (k.space === 'local') return lds(o, returns);
    return vmem(o, encoding(k.space), {
      ...bits,
      [h.returnBit]: (bits[h.returnBit] ?? false) || returns,
      returns,
    });
  };
  /** Step "workgroup invalidate — If not TgSplit execution mode, omit." */
  const tgInv = (env: RowEnv): IsaInstr[] => (tg(env) ? [h.workgroupInv()] : []);
  const table: TableRow[] = [];
  const f: Family = {
    name: h.name,
    anyScope: ANY_SCOPE,
    op: (k) => op(k),
    table: () => table,
    // volatile: 1. the access with the family's bits 2. s_waitcnt vmcnt(0); nontemporal: the access
    // with the family's bits.
    volatileOrNontemporal: (k) =>
      k.volatile
        ? [op(k, h.volatileBits(k.instr === 'load' ? 'load' : 'store')), wait('vmcnt')]
        : [op(k, h.nontemporalBits)],
  };
  const s = sharedRows(f);
  table.push(
    // ---- Non-Atomic --------------------------------------------------------------------------
    // "load none none global/generic/private/constant" — !volatile & !nontemporal:
    // buffer/global/flat_load; !volatile & nontemporal: … GFX90A glc=1 slc=1 / GFX942 nt=1;
    // volatile: 1. … GFX90A glc=1 / GFX942 sc0=1 sc1=1 2. s_waitcnt vmcnt(0).
    s.nonAtomic('load'),
    s.loadLocal,
    // "store none none global/generic/private/constant" — !volatile & !nontemporal:
    // buffer/global/flat_store; !volatile & nontemporal: … GFX90A glc=1 slc=1 / GFX942 nt=1;
    // volatile: 1. buffer/global/flat_store (GFX942: sc0=1 sc1=1) 2. s_waitcnt vmcnt(0).
    s.nonAtomic('store'),
    s.storeLocal,
    s.rmwPrivate,
    // ---- Monotonic Atomic --------------------------------------------------------------------
    // "load atomic monotonic … global/generic" — buffer/global/flat_load with the scope's bits:
    // GFX90A glc=1 at agent/system, and at workgroup in TgSplit mode ("If not TgSplit execution
    // mode, omit glc=1"); GFX942 sc0=1 workgroup, sc1=1 agent, sc0=1 sc1=1 system.
    ...h.monotonicLoadRows.map((text) =>
      text === 'local' ? s.monotonicLocal('load') : row(text, (k, env) => [op(k, h.loadBits(k, env))]),
    ),
    // "store atomic monotonic <any scope> global/generic" — buffer/global/flat_store (GFX942: the
    // scope's sc bits).
    row('store atomic monotonic singlethread/wavefront/workgroup/agent/system global/generic', (k) => [
      op(k, h.storeBits(k)),
    ]),
    s.monotonicLocal('store'),
    // "atomicrmw monotonic <any scope> global/generic" — buffer/global/flat_atomic (GFX942: sc1=1 at
    // system scope).
    row('atomicrmw monotonic singlethread/wavefront/workgroup/agent/system global/generic', (k) => [
      op(k, h.rmwBits(k)),
    ]),
    s.monotonicLocal('rmw'),
    // ---- Acquire Atomic ------------------------------------------------------------------------
    s.singlethread('load', 'acquire'),
    // "load atomic acquire workgroup global" — 1. buffer/global_load (GFX90A: glc=1, not TgSplit:
    // omit glc=1; GFX942: sc0=1); 2. s_waitcnt vmcnt(0) (not TgSplit: omit); 3. workgroup invalidate
    // (not TgSplit: omit).
    row('load atomic acquire workgroup global', (k, env) => [
      op(k, h.loadBits(k, env)),
      ...(tg(env) ? [wait('vmcnt'), h.workgroupInv()] : []),
    ]),
    // "load atomic acquire workgroup local" — 1. ds_load; 2. s_waitcnt lgkmcnt(0) (OpenCL: omit).
    row('load atomic acquire workgroup local', (k, env) => [op(k), ...lgkmUnlessOcl(env)]),
    // "load atomic acquire workgroup generic" — 1. flat_load (bits as the global row); 2. s_waitcnt
    // lgkm/vmcnt(0) (OpenCL: omit lgkmcnt(0)); 3. workgroup invalidate (not TgSplit: omit).
    row('load atomic acquire workgroup generic', (k, env) => [
      op(k, h.loadBits(k, env)),
      ...lgkmOrVm(env, true),
      ...tgInv(env),
    ]),
    // "load atomic acquire agent global" and "… system global" — 1. buffer/global_load with the
    // scope's bits; 2. s_waitcnt vmcnt(0); 3. the acquire invalidate.
    row('load atomic acquire agent/system global', (k, env) => [
      op(k, h.loadBits(k, env)),
      wait('vmcnt'),
      ...h.acquireInv(k),
    ]),
    // "load atomic acquire agent generic" and "… system generic" — 1. flat_load with the scope's bits;
    // 2. s_waitcnt vmcnt(0) & lgkmcnt(0) (TgSplit: omit lgkmcnt(0); OpenCL: omit lgkmcnt(0)); 3. the
    // acquire invalidate.
    row('load atomic acquire agent/system generic', (k, env) => [
      op(k, h.loadBits(k, env)),
      ...lgkmAndVm(env, true),
      ...h.acquireInv(k),
    ]),
    s.singlethread('rmw', 'acquire'),
    // "atomicrmw acquire workgroup global" — 1. buffer/global_atomic; 2. s_waitcnt vmcnt(0) (not
    // TgSplit: omit); 3. workgroup invalidate (not TgSplit: omit).
    row('atomicrmw acquire workgroup global', (k, env) => [
      op(k),
      ...(tg(env) ? [wait('vmcnt'), h.workgroupInv()] : []),
    ]),
    // "atomicrmw acquire workgroup local" — 1. ds_atomic; 2. s_waitcnt lgkmcnt(0) (OpenCL: omit).
    row('atomicrmw acquire workgroup local', (k, env) => [op(k), ...lgkmUnlessOcl(env)]),
    // "atomicrmw acquire workgroup generic" — 1. flat_atomic; 2. s_waitcnt lgkm/vmcnt(0) (OpenCL: omit
    // lgkmcnt(0)); 3. workgroup invalidate (not TgSplit: omit).
    row('atomicrmw acquire workgroup generic', (k, env) => [op(k), ...lgkmOrVm(env, true), ...tgInv(env)]),
    // "atomicrmw acquire agent global" and "… system global" — 1. buffer/global_atomic (GFX942: sc1=1
    // at system); 2. s_waitcnt vmcnt(0); 3. the acquire invalidate.
    row('atomicrmw acquire agent/system global', (k) => [
      op(k, h.rmwBits(k)),
      wait('vmcnt'),
      ...h.acquireInv(k),
    ]),
    // "atomicrmw acquire agent generic" and "… system generic" — 1. flat_atomic (GFX942: sc1=1 at
    // system); 2. s_waitcnt vmcnt(0) & lgkmcnt(0) (TgSplit: omit lgkmcnt(0); OpenCL: omit
    // lgkmcnt(0)); 3. the acquire invalidate.
    row('atomicrmw acquire agent/system generic', (k, env) => [
      op(k, h.rmwBits(k)),
      ...lgkmAndVm(env, true),
      ...h.acquireInv(k),
    ]),
    s.fenceNone('acquire'),
    // "fence acquire workgroup none" — 1. s_waitcnt lgkm/vmcnt(0) (OpenCL omissions need a fence
    // address space: always generated); 2. workgroup invalidate (not TgSplit: omit).
    row('fence acquire workgroup none', (_k, env) => [...lgkmOrVm(env, false), ...tgInv(env)]),
    // "fence acquire agent none" and "… system none" — 1. s_waitcnt lgkmcnt(0) & vmcnt(0) (TgSplit:
    // omit lgkmcnt(0)); 2. the acquire invalidate.
    row('fence acquire agent/system none', (k, env) => [...lgkmAndVm(env, false), ...h.acquireInv(k)]),
    // ---- Release Atomic ------------------------------------------------------------------------
    s.singlethread('store', 'release'),
    // "store atomic release workgroup global/generic" — 1. s_waitcnt lgkm/vmcnt(0) (OpenCL: omit
    // lgkmcnt(0)); 2. buffer/global/flat_store (GFX942: sc0=1).
    row('store atomic release workgroup global/generic', (k, env) => [
      ...lgkmOrVm(env, true),
      op(k, h.storeBits(k)),
    ]),
    s.localRelease('store'),
    // "store atomic release agent global/generic" and "… system global/generic" — 1. the release
    // write-back; 2. s_waitcnt lgkmcnt(0) & vmcnt(0) (TgSplit: omit lgkmcnt(0); "If OpenCL and
    // address space is not generic, omit lgkmcnt(0)"); 3. buffer/global/flat_store with the scope's bits.
    row('store atomic release agent/system global/generic', (k, env) => [
      ...h.releaseWb(k),
      ...lgkmAndVm(env, k.space !== 'generic'),
      op(k, h.storeBits(k)),
    ]),
    s.singlethread('rmw', 'release'),
    // "atomicrmw release workgroup global/generic" — 1. s_waitcnt lgkm/vmcnt(0) (OpenCL: omit
    // lgkmcnt(0)); 2. buffer/global/flat_atomic (GFX942: sc0=1, transcribed as written, although sc0
    // on an atomic means "return the pre-op value": see docs/targets/README.md).
    row('atomicrmw release workgroup global/generic', (k, env) => [
      ...lgkmOrVm(env, true),
      op(k, h.rmwReleaseBits(k)),
    ]),
    s.localRelease('rmw'),
    // "atomicrmw release agent global/generic" and "… system global/generic" — 1. the release
    // write-back; 2. s_waitcnt lgkmcnt(0) & vmcnt(0) (TgSplit: omit lgkmcnt(0); OpenCL: omit
    // lgkmcnt(0)); 3. buffer/global/flat_atomic (GFX942: sc1=1 agent, sc0=1 sc1=1 system, sc0 as
    // written).
    row('atomicrmw release agent/system global/generic', (k, env) => [
      ...h.releaseWb(k),
      ...lgkmAndVm(env, true),
      op(k, h.rmwReleaseBits(k)),
    ]),
    s.fenceNone('release'),
    // "fence release workgroup none" — 1. s_waitcnt lgkm/vmcnt(0) (OpenCL omissions need a fence
    // address space: always generated).
    row('fence release workgroup none', (_k, env) => lgkmOrVm(env, false)),
    // "fence release agent none" and "… system none" — 1. the release write-back ("If OpenCL and
    // address space is local, omit": needs a fence address space); 2. s_waitcnt lgkmcnt(0) & vmcnt(0)
    // (TgSplit: omit lgkmcnt(0)).
    row('fence release agent/system none', (k, env) => [...h.releaseWb(k), ...lgkmAndVm(env, false)]),
    // ---- Acquire-Release Atomic ----------------------------------------------------------------
    s.singlethread('rmw', 'acq_rel'),
    // "atomicrmw acq_rel workgroup global" — 1. s_waitcnt lgkm/vmcnt(0) (OpenCL: omit lgkmcnt(0));
    // 2. buffer/global_atomic; 3. s_waitcnt vmcnt(0) (not TgSplit: omit); 4. workgroup invalidate (not
    // TgSplit: omit).
    row('atomicrmw acq_rel workgroup global', (k, env) => [
      ...lgkmOrVm(env, true),
      op(k),
      ...(tg(env) ? [wait('vmcnt'), h.workgroupInv()] : []),
    ]),
    // "atomicrmw acq_rel workgroup local" — 1. ds_atomic; 2. s_waitcnt lgkmcnt(0) (OpenCL: omit).
    row('atomicrmw acq_rel workgroup local', (k, env) => [op(k), ...lgkmUnlessOcl(env)]),
    // "atomicrmw acq_rel workgroup generic" — 1. s_waitcnt lgkm/vmcnt(0) (OpenCL: omit lgkmcnt(0));
    // 2. flat_atomic; 3. s_waitcnt lgkmcnt(0) & vmcnt(0) (not TgSplit: omit vmcnt(0); OpenCL: omit
    // lgkmcnt(0)); 3. workgroup invalidate (not TgSplit: omit).
    row('atomicrmw acq_rel workgroup generic', (k, env) => [
      ...lgkmOrVm(env, true),
      op(k),
      ...waitcnt(
        ['vmcnt', 'lgkmcnt'],
        [...(tg(env) ? [] : ['vmcnt' as const]), ...(ocl(env) ? ['lgkmcnt' as const] : [])],
      ),
      ...tgInv(env),
    ]),
    // "atomicrmw acq_rel agent global" and "… system global" — 1. the release write-back;
    // 2. s_waitcnt lgkmcnt(0) & vmcnt(0) (TgSplit: omit lgkmcnt(0); OpenCL: omit lgkmcnt(0));
    // 3. buffer/global_atomic (GFX942: sc1=1 at system); 4. s_waitcnt vmcnt(0); 5. the acquire
    // invalidate.
    row('atomicrmw acq_rel agent/system global', (k, env) => [
      ...h.releaseWb(k),
      ...lgkmAndVm(env, true),
      op(k, h.rmwBits(k)),
      wait('vmcnt'),
      ...h.acquireInv(k),
    ]),
    // "atomicrmw acq_rel agent generic" and "… system generic" — 1. the release write-back;
    // 2. s_waitcnt lgkmcnt(0) & vmcnt(0) (TgSplit: omit lgkmcnt(0); OpenCL: omit lgkmcnt(0));
    // 3. flat_atomic (GFX942: sc1=1 at system); 4. s_waitcnt vmcnt(0) & lgkmcnt(0) (same
    // omissions); 5. the acquire invalidate.
    row('atomicrmw acq_rel agent/system generic', (k, env) => [
      ...h.releaseWb(k),
      ...lgkmAndVm(env, true),
      op(k, h.rmwBits(k)),
      ...lgkmAndVm(env, true),
      ...h.acquireInv(k),
    ]),
    s.fenceNone('acq_rel'),
    // "fence acq_rel workgroup none" — 1. s_waitcnt lgkm/vmcnt(0) (always generated: no fence address
    // space); 2. workgroup invalidate (not TgSplit: omit).
    row('fence acq_rel workgroup none', (_k, env) => [...lgkmOrVm(env, false), ...tgInv(env)]),
    // "fence acq_rel agent none" and "… system none" — 1. the release write-back; 2. s_waitcnt
    // lgkmcnt(0) & vmcnt(0) (TgSplit: omit lgkmcnt(0)); 3. the acquire invalidate.
    row('fence acq_rel agent/system none', (k, env) => [
      ...h.releaseWb(k),
      ...lgkmAndVm(env, false),
      ...h.acquireInv(k),
    ]),
    // ---- Sequential Consistent Atomic ----------------------------------------------------------
    s.seqCstLoadSinglethread,
    // "load atomic seq_cst workgroup global/generic" — 1. s_waitcnt lgkm/vmcnt(0); 2. same as load
    // atomic acquire, all instructions even for OpenCL.
    s.seqCstLoad(WG, ['global', 'generic'], (_k, env) => lgkmOrVm(env, false)),
    // "load atomic seq_cst workgroup local" — same as load atomic acquire, all instructions even for
    // OpenCL.
    s.seqCstLoad(WG, ['local'], () => []),
    // "load atomic seq_cst agent/system global/generic" — 1. s_waitcnt lgkmcnt(0) & vmcnt(0)
    // (TgSplit: omit lgkmcnt(0)); 2. same as load atomic acquire, all instructions even for OpenCL.
    s.seqCstLoad(AG_SYS, ['global', 'generic'], (_k, env) => lgkmAndVm(env, false)),
    ...s.seqCstAnyScope,
  );
  return table;
}
