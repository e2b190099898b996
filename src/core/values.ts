/**
 * Integer values as the model and the hardware machines compute them: unsigned integers of a register's
 * width (up to 32 bits exactly; i64 is plain double arithmetic, exact for litmus-sized values), with
 * `undef` (NaN) propagating through every computation (DESIGN: "Values computed from `undef` are
 * `undef`"). One module below both: src/events evaluates candidates with it, src/sim runs machine code.
 *
 * No Node APIs here: the web page imports this file.
 */

import { assertNever, type BinOp, type IcmpPred, type RmwOp } from './types.ts';

/** The undefined value. Test with `isUndef`. */
export const UNDEF = Number.NaN;

export function isUndef(v: number): boolean {
  return Number.isNaN(v);
}

/** The width in bits of an IR integer type (`i32` → 32; vectors and unknown types → 32). */
export function widthOf(type: string): number {
  const m = /^i(\d+)$/.exec(type.trim());
  return m ? Number(m[1]) : 32;
}

const MODULUS = Float64Array.from({ length: 54 }, (_, w) => 2 ** w);

export function wrap(v: number, width: number): number {
  if (width >= 53) return v;
  const m = MODULUS[width]!;
  if (v >= 0 && v < m) return v;
  if (Number.isNaN(v)) return v;
  return ((v % m) + m) % m;
}

function signed(v: number, width: number): number {
  if (width >= 53) return v;
  const half = 2 ** (width - 1);
  return v >= half ? v - 2 * half : v;
}

/** Integer arithmetic of `bin`. */
export function binop(op: BinOp, a: number, b: number, width: number): number {
  if (isUndef(a) || isUndef(b)) return UNDEF;
  switch (op) {
    case 'add':
      return wrap(a + b, width);
    case 'sub':
      return wrap(a - b, width);
    case 'mul':
      return wrap(a * b, width);
    case 'and':
      return wrap(Number(BigInt(a) & BigInt(b)), width);
    case 'or':
      return wrap(Number(BigInt(a) | BigInt(b)), width);
    case 'xor':
      return wrap(Number(BigInt(a) ^ BigInt(b)), width);
    case 'shl':
      return b >= width ? UNDEF : wrap(a * 2 ** b, width);
    case 'lshr':
      return b >= width ? UNDEF : Math.floor(a / 2 ** b);
    case 'ashr':
      return b >= width ? UNDEF : wrap(Math.floor(signed(a, width) / 2 ** b), width);
    case 'udiv':
      return b === 0 ? UNDEF : Math.floor(a / b);
    case 'urem':
      return b === 0 ? UNDEF : a % b;
    default:
      return assertNever(op, 'binop');
  }
}

/** The value an atomicrmw writes, from the old value and its operand. */
export function rmwop(op: RmwOp, old: number, v: number, width: number): number {
  // An exchange stores its operand whatever it read (LangRef, atomicrmw: "xchg: *ptr = val"), so an
  // undef read leaves the stored value defined (docs/model.md choice 26); wrap keeps an undef operand.
  if (op === 'xchg') return wrap(v, width);
  if (isUndef(old) || isUndef(v)) return UNDEF;
  switch (op) {
    case 'add':
    case 'sub':
    case 'and':
    case 'or':
    case 'xor':
      return binop(op, old, v, width);
    case 'max':
      return signed(old, width) >= signed(v, width) ? old : wrap(v, width);
    case 'min':
      return signed(old, width) <= signed(v, width) ? old : wrap(v, width);
    case 'umax':
      return Math.max(old, wrap(v, width));
    case 'umin':
      return Math.min(old, wrap(v, width));
    default:
      return assertNever(op, 'rmw op');
  }
}

/** `icmp` on two values of `width` bits: 1 or 0, undef when either is. */
export function icmp(pred: IcmpPred, a: number, b: number, width: number): number {
  if (isUndef(a) || isUndef(b)) return UNDEF;
  const x = wrap(a, width);
  const y = wrap(b, width);
  // Equality, the common case (branch conditions, spin loops), needs no signed conversion.
  if (pred === 'eq') return x === y ? 1 : 0;
  if (pred === 'ne') return x !== y ? 1 : 0;
  const sx = signed(x, width);
  const sy = signed(y, width);
  let r: boolean;
  switch (pred) {
    case 'ugt':
      r = x > y;
      break;
    case 'uge':
      r = x >= y;
      break;
    case 'ult':
      r = x < y;
      break;
    case 'ule':
      r = x <= y;
      break;
    case 'sgt':
      r = sx > sy;
      break;
    case 'sge':
      r = sx >= sy;
      break;
    case 'slt':
      r = sx < sy;
      break;
    case 'sle':
      r = sx <= sy;
      break;
    default:
      return assertNever(pred, 'predicate');
  }
  return r ? 1 : 0;
}
