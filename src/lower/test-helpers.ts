/**
 * Test helpers: build IR instructions from a short description (`load acquire agent global ret`),
 * so tests state rows as the spec does, independent of the tables' own data.
 */

import {
  type AddressSpace,
  type BarrierOp,
  type Instr,
  type Ordering,
  type Scope,
  type Span,
  SYNC_AS,
} from '../core/types.ts';
import { formatSeq } from './isa.ts';
import { lowerInstr } from './lower.ts';
import { findTarget } from './targets.ts';
import type { Lang, LowerCtx, LowerResult, WaveMode } from './types.ts';

const SPAN: Span = { file: 'test', offset: 0, line: 1, col: 1, len: 0 };

/**
 * `<instr> <ordering> <scope>[-one-as] <space> [ret|noret] [volatile] [nontemporal]`, where instr is
 * load/store/atomicrmw/cmpxchg/fence (`cmpxchg` takes `success/failure`), ordering `none` for plain
 * accesses, scope `none` for the default (system); a fence takes `as:global` / `as:local`
 * (`amdgpu-synchronize-as` tags) where the others take flags. The av intrinsics are
 * `avload <scope>` and `avstore <scope>` (on global memory, as the intrinsics take).
 */
export function instrOf(desc: string): Instr {
  const w = desc.trim().split(/\s+/);
  if (w[0] === 'avload' || w[0] === 'avstore') {
    const scope = (w[1] ?? 'system') as Scope;
    const ptr = { loc: 'x', space: 'global' as const };
    return w[0] === 'avload'
      ? { kind: 'avload', span: SPAN, dst: 'r', type: 'i32', ptr, scope }
      : { kind: 'avstore', span: SPAN, type: 'i32', value: { kind: 'const', value: 1 }, ptr, scope };
  }
  const [kind, ord, sc, sp] = w;
  const flags = new Set(w.slice(4));
  const scopeText = sc === undefined || sc === 'none' ? 'system' : sc;
  const oneAs = scopeText.endsWith('-one-as');
  const syncscope = { scope: scopeText.replace('-one-as', '') as Scope, oneAs };
  const ordering = (ord === 'none' ? 'notatomic' : ord) as Ordering;
  const ptr = { loc: 'x', space: (sp ?? 'global') as AddressSpace };
  const af = { volatile: flags.has('volatile'), nontemporal: flags.has('nontemporal'), avNone: false };
  const ret = !flags.has('noret');
  switch (kind) {
    case 'load':
      return { kind: 'load', span: SPAN, dst: 'r', type: 'i32', ptr, ordering, syncscope, ...af };
    case 'store':
      return {
        kind: 'store',
        span: SPAN,
        type: 'i32',
        value: { kind: 'const', value: 1 },
        ptr,
        ordering,
        syncscope,
        ...af,
      };
    case 'atomicrmw':
      return {
        kind: 'rmw',
        span: SPAN,
        dst: ret ? 'r' : null,
        op: 'add',
        type: 'i32',
        ptr,
        value: { kind: 'const', value: 1 },
        ordering,
        syncscope,
        ...af,
      };
    case 'cmpxchg': {
      const [success, failure] = (ord ?? 'monotonic/monotonic').split('/') as [Ordering, Ordering];
      return {
        kind: 'cmpxchg',
        span: SPAN,
        dst: ret ? 'r' : null,
        weak: false,
        type: 'i32',
        ptr,
        expected: { kind: 'const', value: 0 },
        desired: { kind: 'const', value: 1 },
        success,
        failure: failure ?? 'monotonic',
        syncscope,
        ...af,
      };
    }
    case 'fence': {
      // `as:global`, `as:local`: amdgpu-synchronize-as tags.
      const syncAs = SYNC_AS.filter((a) => flags.has(`as:${a}`));
      return { kind: 'fence', span: SPAN, ordering, syncscope, avNone: false, syncAs };
    }
    default:
      throw new Error(`bad test instruction: ${desc}`);
  }
}

/** A barrier instruction for tests. */
export function barrierOf(op: BarrierOp, id: number | null = null, object: string | null = null): Instr {
  return { kind: 'barrier', span: SPAN, op, id, object, count: null, dst: null };
}

/** Lowering context for a target name (throws on an unknown name: tests only). */
export function ctxOf(target: string, mode: WaveMode = 'wgp', lang: Lang = 'hsa', tgsplit = false): LowerCtx {
  const t = findTarget(target);
  if (!t) throw new Error(`unknown target ${target}`);
  return { target: t, mode, lang, tgsplit };
}

/** The spec-spelled lines of a result, or `error LWxxxx`. */
export function linesOf(r: LowerResult): string[] {
  if ('diagnostic' in r) return [`error ${r.diagnostic.code}`];
  return formatSeq(r.seq).flatMap((l) => l.split('; '));
}

/** Lowers a described instruction and returns its spelled lines. */
export function lowerText(
  target: string,
  desc: string | Instr,
  mode: WaveMode = 'wgp',
  lang: Lang = 'hsa',
  tgsplit = false,
): string[] {
  const instr = typeof desc === 'string' ? instrOf(desc) : desc;
  return linesOf(lowerInstr(instr, ctxOf(target, mode, lang, tgsplit)));
}
