/**
 * AMDGPU machine code as the lowering tables emit it and the hardware simulator will consume it:
 * typed instructions (memory operations with their cache-policy bits, waits on named counters, cache
 * invalidates and write-backs with a scope, barriers), never bare strings. `formatIsa` spells each
 * one the way the spec tables do, so printed sequences can be read against the documents.
 *
 * No Node APIs here: the web page imports this file.
 */

import { assertNever } from '../core/types.ts';
import { formatXe, type XeInstr } from './isa-xe.ts';

/**
 * Hardware counters a wait can drain to zero.
 * GFX6–9: `vmcnt`, `expcnt`, `lgkmcnt` (spec: amdgpu-usage-2018.rst, "Memory Model").
 * GFX10–11 add `vscnt` (seeds/001, `s_waitcnt_vscnt`).
 * GFX12: `loadcnt`, `storecnt`, `dscnt`, `samplecnt`, `bvhcnt`, `kmcnt` (spec: gfx12-memory-model.rst).
 * GFX12.5 adds `xcnt`: memory operations whose address translation has not completed (AMDGPUUsage
 * 07379fed, "Memory Model GFX125x").
 */
export const COUNTERS = [
  'vmcnt',
  'expcnt',
  'lgkmcnt',
  'vscnt',
  'loadcnt',
  'storecnt',
  'dscnt',
  'samplecnt',
  'bvhcnt',
  'kmcnt',
  'xcnt',
] as const;
export type Counter = (typeof COUNTERS)[number];

/** GFX12 cache scopes (spec: gfx12-memory-model.rst, "SCOPE values"), narrowest first. */
export const CACHE_SCOPES = ['SCOPE_CU', 'SCOPE_SE', 'SCOPE_DEV', 'SCOPE_SYS'] as const;
export type CacheScope = (typeof CACHE_SCOPES)[number];

/** Rank of a cache scope: 0 = SCOPE_CU (narrowest) … 3 = SCOPE_SYS. */
export function cacheScopeRank(s: CacheScope): number {
  return CACHE_SCOPES.indexOf(s);
}

/** GFX12 temporal hints (`th:` operand). */
export type TemporalHint = 'TH_LOAD_NT' | 'TH_STORE_NT' | 'TH_ATOMIC_RETURN';

/** Kind of access a memory instruction performs. */
export type MemOp = 'load' | 'store' | 'atomic';

/**
 * Encoding family of a vector memory instruction. `buffer`/`global`/`flat`/`scratch` all go through
 * the vector memory path; which one a target uses is a target feature, not a memory-model choice.
 */
export type VmemEncoding = 'buffer' | 'global' | 'flat' | 'scratch';

/**
 * The data-size suffix of a 128-bit vector memory access, as the target's assembler spells it:
 * `dwordx4` up to GFX10, `b128` from GFX11 (llc-22's assembly of a `<4 x i32>` store:
 * `global_store_dwordx4` on gfx1030, `global_store_b128` on gfx1100; src/lower/llc.test.ts checks it
 * on every processor llc-22 knows).
 */
export type WideSuffix = 'dwordx4' | 'b128';

/** A vector memory operation (`buffer_*`, `global_*`, `flat_*`, `scratch_*`). */
export interface VmemInstr {
  kind: 'vmem';
  op: MemOp;
  enc: VmemEncoding;
  /**
   * A 128-bit access (the av intrinsics, `@llvm.amdgcn.av.global.*.b128`) with its suffix; null for
   * the tables' cells, which access 32 bits and are printed without a data-size suffix, as the
   * documents print them.
   */
  wide: WideSuffix | null;
  /** For atomics: the returning form (GFX6–9 encode it as `glc=1`, GFX12 as `th:TH_ATOMIC_RETURN`). */
  returns: boolean;
  /** GFX6–9 `glc=1` on a load or store: bypass (miss in) the vector L1. */
  glc: boolean;
  /** GFX6–11 `slc=1` (streaming / nontemporal). */
  slc: boolean;
  /** GFX10–11 `dlc=1` (device-level coherent: miss in the L1). */
  dlc: boolean;
  /** GFX942 `sc0=1` (loads/stores: coherence scope bit 0; atomics: returns the pre-op value). */
  sc0: boolean;
  /** GFX942 `sc1=1` (coherence scope bit 1: agent/system). */
  sc1: boolean;
  /** GFX942 `nt=1` (nontemporal). */
  nt: boolean;
  /** GFX12 `th:` operand, null for the default policy. */
  th: TemporalHint | null;
  /** GFX12 `scope:` operand, null for the default (`SCOPE_CU`, printed as nothing). */
  scope: CacheScope | null;
}

/** A local data share operation (`ds_load`, `ds_store`, `ds_atomic`). */
export interface LdsInstr {
  kind: 'lds';
  op: MemOp;
  returns: boolean;
}

/**
 * Wait until every listed counter reaches zero. GFX6–9 `s_waitcnt` lists several counters in one
 * instruction; GFX12 has one `s_wait_<counter>` per counter, so its tables emit one `wait` each.
 */
export interface WaitInstr {
  kind: 'wait';
  counters: Counter[];
  /**
   * The count each counter is waited down to, in the order of `counters`; absent: zero for every one
   * (all the tables' waits). llc-22's code also waits for all but the last few operations
   * (`s_waitcnt vmcnt(1)`).
   */
  counts?: number[];
}

/** GFX942 scope bits of `buffer_inv` / `buffer_wbl2` (and of memory instructions). */
export type ScBits = 'sc0' | 'sc1' | 'sc0 sc1';

/**
 * Cache invalidate: GFX6–9 `buffer_wbinvl1_vol` (vector L1, volatile lines), GFX90A `buffer_invl2`
 * (L2 MTYPE NC lines), GFX942 `buffer_inv sc0|sc1|sc0 sc1`, GFX10–11 `buffer_gl0_inv` /
 * `buffer_gl1_inv` (per-CU L0, per-SA L1), GFX12 `global_inv scope:…`.
 */
export interface InvInstr {
  kind: 'inv';
  mnemonic:
    | 'buffer_wbinvl1_vol'
    | 'buffer_invl2'
    | 'buffer_inv'
    | 'buffer_gl0_inv'
    | 'buffer_gl1_inv'
    | 'global_inv';
  scope: CacheScope | null;
  /** GFX942 `buffer_inv` scope bits; null elsewhere. */
  sc: ScBits | null;
}

/** Cache write-back: GFX12 `global_wb scope:…`, GFX90A `buffer_wbl2`, GFX942 `buffer_wbl2 sc1|sc0 sc1`. */
export interface WbInstr {
  kind: 'wb';
  mnemonic: 'global_wb' | 'buffer_wbl2';
  scope: CacheScope | null;
  /** GFX942 `buffer_wbl2` scope bits; null elsewhere. */
  sc: ScBits | null;
}

/** Barrier instructions (seeds/001): `s_barrier` (GFX6–11), split and named barriers (GFX12, GFX12.5). */
export type BarrierMnemonic =
  | 's_barrier'
  | 's_barrier_signal'
  | 's_barrier_signal_isfirst'
  | 's_barrier_wait'
  | 's_barrier_init'
  | 's_barrier_join'
  | 's_barrier_leave';

export interface BarrierIsaInstr {
  kind: 'barrier';
  mnemonic: BarrierMnemonic;
  /** Barrier id operand (`-1` workgroup barrier, `1`–`16` named barriers …); null when there is none. */
  id: number | null;
  /**
   * The id is read from `m0` (bits [4:0]; the operand is spelt `m0`) rather than given as an
   * immediate: the named-barrier forms, whose `m0` also carries the member count (seeds/001 "s_barrier
   * GFX12", init and arrive [1, 16]). `id` still names the barrier, so readers of `id` need not decode
   * `m0`. Absent means false.
   */
  viaM0?: boolean;
}

/**
 * `s_mov_b32 m0, <value>`: sets up `m0` for a barrier instruction that reads it (seeds/001 "s_barrier
 * GFX12": "<N> ... stored in the lower half of m0"; "the expected count ... is stored in the upper half
 * of m0"; signal: count in bits [22:16]). Orders no memory.
 */
export interface SetM0Instr {
  kind: 'setm0';
  value: number;
}

/** One machine instruction that matters to the memory model: AMDGPU's, or Intel Xe's (isa-xe.ts). */
export type IsaInstr =
  | VmemInstr
  | LdsInstr
  | WaitInstr
  | InvInstr
  | WbInstr
  | BarrierIsaInstr
  | SetM0Instr
  | XeInstr;

/** Options for a vector memory instruction; every bit defaults to off. */
export interface VmemBits {
  returns?: boolean;
  glc?: boolean;
  slc?: boolean;
  dlc?: boolean;
  sc0?: boolean;
  sc1?: boolean;
  nt?: boolean;
  th?: TemporalHint | null;
  scope?: CacheScope | null;
  wide?: WideSuffix | null;
}

/** Builds a vector memory instruction. */
export function vmem(op: MemOp, enc: VmemEncoding, bits: VmemBits = {}): VmemInstr {
  return {
    kind: 'vmem',
    op,
    enc,
    wide: bits.wide ?? null,
    returns: bits.returns ?? false,
    glc: bits.glc ?? false,
    slc: bits.slc ?? false,
    dlc: bits.dlc ?? false,
    sc0: bits.sc0 ?? false,
    sc1: bits.sc1 ?? false,
    nt: bits.nt ?? false,
    th: bits.th ?? null,
    scope: bits.scope ?? null,
  };
}

/** Builds an LDS instruction. */
export function lds(op: MemOp, returns = false): LdsInstr {
  return { kind: 'lds', op, returns };
}

/** Builds a wait on the given counters (kept in the order given, duplicates dropped). */
export function wait(...counters: Counter[]): WaitInstr {
  return { kind: 'wait', counters: [...new Set(counters)] };
}

/** Builds `buffer_wbinvl1_vol`. */
export function wbinvl1Vol(): InvInstr {
  return { kind: 'inv', mnemonic: 'buffer_wbinvl1_vol', scope: null, sc: null };
}

/** Builds GFX90A `buffer_invl2`. */
export function invl2(): InvInstr {
  return { kind: 'inv', mnemonic: 'buffer_invl2', scope: null, sc: null };
}

/** Builds GFX942 `buffer_inv sc0|sc1|sc0 sc1`. */
export function bufferInv(sc: ScBits): InvInstr {
  return { kind: 'inv', mnemonic: 'buffer_inv', scope: null, sc };
}

/** Builds `buffer_wbl2` (GFX90A: no bits; GFX942: `sc1` or `sc0 sc1`). */
export function wbl2(sc: ScBits | null = null): WbInstr {
  return { kind: 'wb', mnemonic: 'buffer_wbl2', scope: null, sc };
}

/** Builds `buffer_gl0_inv` (level 0) or `buffer_gl1_inv` (level 1). */
export function glInv(level: 0 | 1): InvInstr {
  return { kind: 'inv', mnemonic: level === 0 ? 'buffer_gl0_inv' : 'buffer_gl1_inv', scope: null, sc: null };
}

/** Builds `global_inv scope:…`. */
export function globalInv(scope: CacheScope | null): InvInstr {
  return { kind: 'inv', mnemonic: 'global_inv', scope, sc: null };
}

/** Builds `global_wb scope:…`. */
export function globalWb(scope: CacheScope | null): WbInstr {
  return { kind: 'wb', mnemonic: 'global_wb', scope, sc: null };
}

/** Builds a barrier instruction. */
export function barrierInstr(mnemonic: BarrierMnemonic, id: number | null = null): BarrierIsaInstr {
  return { kind: 'barrier', mnemonic, id };
}

/** Builds a barrier instruction that reads barrier `id` from `m0` (`s_barrier_init m0`). */
export function barrierInstrM0(mnemonic: BarrierMnemonic, id: number): BarrierIsaInstr {
  return { kind: 'barrier', mnemonic, id, viaM0: true };
}

/** Builds `s_mov_b32 m0, <value>`. */
export function setM0(value: number): SetM0Instr {
  return { kind: 'setm0', value };
}

/** `m0` of a named-barrier instruction: the member count in bits [22:16], the barrier id in the low bits. */
export function barrierM0(id: number, count: number): number {
  return ((count & 0x7f) << 16) | (id & 0x3f);
}

/** Hexadecimal spelling of an `m0` value, as llc prints it (`0x30001`, `0`). */
export function hexM0(value: number): string {
  return value === 0 ? '0' : `0x${value.toString(16)}`;
}

const GFX6_WAIT_ORDER: Counter[] = ['vmcnt', 'expcnt', 'lgkmcnt'];

/**
 * Spells an instruction as the spec tables do: `global_load glc=1`, `s_waitcnt vmcnt(0) lgkmcnt(0)`,
 * `global_store_b128 scope:SCOPE_DEV` (a 128-bit access carries its data-size suffix),
 * `s_wait_loadcnt 0x0`, `global_inv scope:SCOPE_DEV`, `s_barrier_signal -1`.
 * Register operands are never printed: they are not part of the memory model.
 */
export function formatIsa(i: IsaInstr): string {
  switch (i.kind) {
    case 'vmem': {
      const parts = [i.wide === null ? `${i.enc}_${i.op}` : `${i.enc}_${i.op}_${i.wide}`];
      if (i.th !== null) parts.push(`th:${i.th}`);
      if (i.scope !== null) parts.push(`scope:${i.scope}`);
      if (i.glc) parts.push('glc=1');
      if (i.slc) parts.push('slc=1');
      if (i.dlc) parts.push('dlc=1');
      if (i.sc0) parts.push('sc0=1');
      if (i.sc1) parts.push('sc1=1');
      if (i.nt) parts.push('nt=1');
      return parts.join(' ');
    }
    case 'lds':
      return `ds_${i.op}`;
    case 'wait': {
      const legacy = i.counters.filter((c) => GFX6_WAIT_ORDER.includes(c));
      const n = (c: Counter): number => i.counts?.[i.counters.indexOf(c)] ?? 0;
      const lines: string[] = [];
      if (legacy.length > 0) {
        lines.push(
          `s_waitcnt ${GFX6_WAIT_ORDER.filter((c) => legacy.includes(c))
            .map((c) => `${c}(${n(c)})`)
            .join(' ')}`,
        );
      }
      for (const c of i.counters) {
        if (GFX6_WAIT_ORDER.includes(c)) continue;
        const v = `0x${n(c).toString(16)}`;
        lines.push(c === 'vscnt' ? `s_waitcnt_vscnt null, ${v}` : `s_wait_${c} ${v}`);
      }
      return lines.join('; ');
    }
    case 'inv':
    case 'wb':
      if (i.sc !== null) return `${i.mnemonic} ${i.sc.replace(/sc(\d)/g, 'sc$1=1')}`;
      return i.scope === null ? i.mnemonic : `${i.mnemonic} scope:${i.scope}`;
    case 'barrier':
      if (i.viaM0) return `${i.mnemonic} m0`;
      return i.id === null ? i.mnemonic : `${i.mnemonic} ${i.id}`;
    case 'setm0':
      return `s_mov_b32 m0, ${hexM0(i.value)}`;
    case 'lsc':
    case 'lsc_fence':
    case 'xe_barrier':
    case 'xe_generic':
      return formatXe(i);
    default:
      return assertNever(i, 'ISA instruction');
  }
}

/** Formats a whole sequence, one instruction per element. */
export function formatSeq(seq: readonly IsaInstr[]): string[] {
  return seq.map(formatIsa);
}
