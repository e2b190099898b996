/**
 * The syntax tree of a cat model (herd7's language for memory models): instructions (`let`,
 * `let rec`, checks, `flag`, `show`, `include`) over expressions of sets and relations of events.
 * No Node APIs here: the web page imports this file.
 */
import type { Span } from '../core/types.ts';

export type BinOp = 'union' | 'inter' | 'diff' | 'seq' | 'cartesian';
export type UnOp = 'star' | 'plus' | 'opt' | 'inv' | 'comp' | 'toid';

export type Expr =
  | { kind: 'var'; name: string; span: Span }
  | { kind: 'empty'; span: Span }
  | { kind: 'universe'; span: Span }
  | { kind: 'bin'; op: BinOp; left: Expr; right: Expr; span: Span }
  | { kind: 'un'; op: UnOp; arg: Expr; span: Span }
  | { kind: 'app'; fn: string; args: Expr[]; span: Span }
  /** `let [rec] x = e and … in body`. */
  | { kind: 'let'; rec: boolean; bindings: Binding[]; body: Expr; span: Span }
  /** `if "variant" then a else b`: chosen once per run from the model's variants (herd7's `-variant`). */
  | { kind: 'if'; variant: string; yes: Expr; no: Expr; span: Span }
  /** `try e with alt`: `e`, or `alt` when `e` does not compile (an unknown name, say), as in herd7. */
  | { kind: 'try'; body: Expr; alt: Expr; span: Span };

export interface Binding {
  name: string;
  /** Formal parameters: a function definition `let f(x, y) = …` (expanded where it is applied). */
  params: string[] | null;
  body: Expr;
  span: Span;
}

export type CheckKind = 'acyclic' | 'irreflexive' | 'empty';

export type Instr =
  | { kind: 'let'; bindings: Binding[]; span: Span }
  | { kind: 'rec'; bindings: Binding[]; span: Span }
  | {
      kind: 'check';
      test: CheckKind;
      /** `~acyclic …`: the check passes when the test fails. */
      negated: boolean;
      /** `flag`: never rejects; raises a named flag on the execution when the test holds. */
      flag: boolean;
      expr: Expr;
      name: string | null;
      span: Span;
    }
  /** `show a, b` or `show e as NAME` (herd7 shows them in pictures; gpumm only checks them). */
  | { kind: 'show'; names: string[]; expr: Expr | null; span: Span }
  | { kind: 'include'; file: string; span: Span };

export interface Model {
  /** The title line (`"AMDGPU"`), or the file name. */
  title: string;
  instrs: Instr[];
}
