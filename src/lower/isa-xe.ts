/**
 * Intel Xe machine code as the Intel lowering emits it (and an Intel machine will consume it): vISA
 * LSC messages — untyped loads, stores and atomics on a shared function (`ugm` global memory, `slm`
 * shared local memory) and `lsc_fence.<sfid>.<op>.<scope>` —, the work-group barriers, and the run-time
 * dispatch on a generic pointer's address space. Typed, never bare strings; `formatXe` spells each the
 * way vISA assembly does (operands, which are not part of the memory model, left out).
 *
 * spec: intel-lsc-fence.md (vISA LSC_FENCE: the SFID, fence-op and scope tables). Intel graphics
 * compiler documentation/visa/instructions/LSC_UNTYPED.md (text forms `lsc_load.SFID`,
 * `lsc_store.SFID`, `lsc_atomic*.SFID`), BARRIER.md (`barrier`), SBARRIER.md (`sbarrier.signal`,
 * `sbarrier.wait`).
 *
 * No Node APIs here: the web page imports this file.
 */

import { assertNever } from '../core/types.ts';

/** LSC shared functions a fence can name (intel-lsc-fence.md, table LSC_SFID), in encoding order. */
export const LSC_SFIDS = ['ugm', 'ugml', 'tgm', 'slm'] as const;
export type LscSfid = (typeof LSC_SFIDS)[number];

/** LSC fence operations (intel-lsc-fence.md, table LSC_FENCE_OP), in encoding order. */
export const LSC_FENCE_OPS = ['none', 'evict', 'invalidate', 'discard', 'clean', 'flushl3'] as const;
export type LscFenceOp = (typeof LSC_FENCE_OPS)[number];

/**
 * LSC fence scopes, narrowest first (intel-lsc-fence.md, table LSC_SCOPE: group 0x0 … sysacq 0x6). The
 * table's symbol for 0x5 is `system`; its own example and the vISA assembler spell it `sysrel`.
 */
export const LSC_SCOPES = ['group', 'local', 'tile', 'gpu', 'gpus', 'sysrel', 'sysacq'] as const;
export type LscScope = (typeof LSC_SCOPES)[number];

/** Rank of an LSC scope: 0 = group (narrowest) … 6 = sysacq, the encoding order the compiler compares. */
export function lscScopeRank(s: LscScope): number {
  return LSC_SCOPES.indexOf(s);
}

/**
 * LSC atomic operations an IR access becomes (vISA LSC_OP: `lsc_atomic_iadd` … `lsc_atomic_xor`;
 * `store` returns the old value, so it is the exchange; `icas` is the compare-and-swap).
 */
export const LSC_ATOMIC_OPS = [
  'iadd',
  'isub',
  'and',
  'or',
  'xor',
  'smin',
  'smax',
  'umin',
  'umax',
  'store',
  'icas',
] as const;
export type LscAtomicOp = (typeof LSC_ATOMIC_OPS)[number];

/** A vISA LSC untyped memory message: `lsc_load.ugm`, `lsc_store.slm`, `lsc_atomic_or.ugm` … */
export interface LscInstr {
  kind: 'lsc';
  op: 'load' | 'store' | 'atomic';
  /** Only `ugm` (global, constant, private memory) and `slm` (shared local memory) carry accesses. */
  sfid: 'ugm' | 'slm';
  /**
   * The atomic operation; null for an atomicrmw cell of a table, which stands for every operation
   * (spelled `lsc_atomic_<op>`). Always null for loads and stores.
   */
  atomic: LscAtomicOp | null;
  /** The atomic writes its old value to a register (vISA: DstData is not the null register). */
  returns: boolean;
}

/** `lsc_fence.<sfid>.<op>.<scope>` (intel-lsc-fence.md). */
export interface LscFenceInstr {
  kind: 'lsc_fence';
  sfid: LscSfid;
  op: LscFenceOp;
  scope: LscScope;
}

/** vISA `barrier` (BARRIER.md) and the split-phase `sbarrier.signal` / `sbarrier.wait` (SBARRIER.md). */
export interface XeBarrierInstr {
  kind: 'xe_barrier';
  mnemonic: 'barrier' | 'sbarrier.signal' | 'sbarrier.wait';
}

/** An instruction inside one branch of a generic-pointer dispatch. */
export type XeLeaf = LscInstr | LscFenceInstr;

/** The address spaces a generic pointer's tag tells apart. */
export const XE_GENERIC_SPACES = ['local', 'private', 'global'] as const;
export type XeGenericSpace = (typeof XE_GENERIC_SPACES)[number];

/**
 * An access through a generic pointer: the compiler reads the pointer's tag (bits [63:61]: 001 private,
 * 010 local, else global) and branches to the access for that address space (Intel graphics compiler
 * GenericAddressDynamicResolution.cpp `resolveGAS` for loads and stores; BiFModule atomics.cl, the
 * `__generic` overloads, for atomics). Each branch lists the spaces it serves; a machine runs the branch
 * of the space the pointed-to location lives in.
 */
export interface XeGenericInstr {
  kind: 'xe_generic';
  branches: { spaces: XeGenericSpace[]; seq: XeLeaf[] }[];
}

/** One Intel Xe machine instruction that matters to the memory model. */
export type XeInstr = LscInstr | LscFenceInstr | XeBarrierInstr | XeGenericInstr;

/** Builds an LSC load or store. */
export function lscAccess(op: 'load' | 'store', sfid: 'ugm' | 'slm'): LscInstr {
  return { kind: 'lsc', op, sfid, atomic: null, returns: false };
}

/** Builds an LSC atomic (`atomic` null: the table's stand-in for any atomicrmw operation). */
export function lscAtomic(sfid: 'ugm' | 'slm', atomic: LscAtomicOp | null, returns: boolean): LscInstr {
  return { kind: 'lsc', op: 'atomic', sfid, atomic, returns };
}

/** Builds `lsc_fence.<sfid>.<op>.<scope>`. */
export function lscFence(sfid: LscSfid, op: LscFenceOp, scope: LscScope): LscFenceInstr {
  return { kind: 'lsc_fence', sfid, op, scope };
}

/** Builds a barrier instruction. */
export function xeBarrier(mnemonic: XeBarrierInstr['mnemonic']): XeBarrierInstr {
  return { kind: 'xe_barrier', mnemonic };
}

function formatLeaf(i: XeLeaf): string {
  if (i.kind === 'lsc_fence') return `lsc_fence.${i.sfid}.${i.op}.${i.scope}`;
  const name = i.op === 'atomic' ? `lsc_atomic_${i.atomic ?? '<op>'}` : `lsc_${i.op}`;
  return `${name}.${i.sfid}`;
}

/**
 * Spells an Intel instruction as vISA assembly does, without operands: `lsc_fence.ugm.evict.gpu`,
 * `lsc_atomic_or.ugm`, `sbarrier.signal`. A generic dispatch is one line per branch, separated by
 * `; ` as multi-line AMD waits are: `local: lsc_atomic_or.slm; private, global: …`.
 */
export function formatXe(i: XeInstr): string {
  switch (i.kind) {
    case 'lsc':
    case 'lsc_fence':
      return formatLeaf(i);
    case 'xe_barrier':
      return i.mnemonic;
    case 'xe_generic':
      return i.branches
        .map(
          (b) =>
            `${b.spaces.join(', ')}: ${b.seq.length === 0 ? '(nothing)' : b.seq.map(formatLeaf).join(', ')}`,
        )
        .join('; ');
    default:
      return assertNever(i, 'Xe instruction');
  }
}

function parseLeaf(t: string): XeLeaf | string {
  const f = /^lsc_fence\.([a-z0-9]+)\.([a-z0-9]+)\.([a-z0-9]+)$/.exec(t);
  if (f) {
    const [, sfid = '', op = '', scope = ''] = f;
    if (!(LSC_SFIDS as readonly string[]).includes(sfid)) return `unknown LSC shared function '${sfid}'`;
    if (!(LSC_FENCE_OPS as readonly string[]).includes(op)) return `unknown LSC fence operation '${op}'`;
    if (!(LSC_SCOPES as readonly string[]).includes(scope)) return `unknown LSC scope '${scope}'`;
    return lscFence(sfid as LscSfid, op as LscFenceOp, scope as LscScope);
  }
  const a = /^lsc_(load|store|atomic_([a-z]+|<op>))\.([a-z]+)$/.exec(t);
  if (!a) return `unknown instruction '${t}'`;
  const [, what = '', atomic, sfid = ''] = a;
  if (sfid !== 'ugm' && sfid !== 'slm') return `accesses go to ugm or slm, not '${sfid}'`;
  if (atomic === undefined) return lscAccess(what as 'load' | 'store', sfid);
  if (atomic === '<op>') return lscAtomic(sfid, null, false);
  if (!(LSC_ATOMIC_OPS as readonly string[]).includes(atomic))
    return `unknown LSC atomic operation '${atomic}'`;
  return lscAtomic(sfid, atomic as LscAtomicOp, false);
}

/**
 * Reads back what `formatXe` writes (`lsc_fence.ugm.evict.gpu`, `lsc_atomic_or.ugm`, `sbarrier.wait`,
 * `local: lsc_load.slm; private, global: lsc_load.ugm`), or says why the text is not such an
 * instruction. The text does not say whether an atomic returns its old value: `returns` is false, for
 * the caller to set from the instruction the code implements.
 */
export function parseXe(text: string): XeInstr | string {
  const t = text.trim();
  if (t === 'barrier' || t === 'sbarrier.signal' || t === 'sbarrier.wait') return xeBarrier(t);
  if (!t.includes(':')) return parseLeaf(t);
  const branches: XeGenericInstr['branches'] = [];
  for (const part of t.split(';')) {
    const m = /^\s*([a-z, ]+):\s*(.*?)\s*$/.exec(part);
    if (!m) return `'${part.trim()}' is not a branch 'spaces: instructions'`;
    const spaces = m[1]!.split(',').map((s) => s.trim());
    const bad = spaces.find((s) => !(XE_GENERIC_SPACES as readonly string[]).includes(s));
    if (bad !== undefined)
      return `unknown address space '${bad}' (a generic pointer is local, private or global)`;
    const seq: XeLeaf[] = [];
    if (m[2] !== '(nothing)')
      for (const leaf of m[2]!.split(',')) {
        const l = parseLeaf(leaf.trim());
        if (typeof l === 'string') return l;
        seq.push(l);
      }
    branches.push({ spaces: spaces as XeGenericSpace[], seq });
  }
  return { kind: 'xe_generic', branches };
}
