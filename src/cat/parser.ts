/**
 * Parser for cat models, as herd7 documents the language: instructions `let`, `let rec … and …`,
 * `include`, checks (`acyclic` / `irreflexive` / `empty`, optionally negated with `~`, named with
 * `as`), `flag`, `show`; expressions with herd7's precedence, loosest first: `|`, `;`, `\`, `&`,
 * cartesian `*`, prefix `~`, postfix `*` `+` `?`, then `^-1`. Returns `{ model, diagnostics }`
 * and recovers at the next instruction. No Node APIs here: the web page imports this file.
 */

import { diag, type SourceDiagnostic } from '../core/diagnostics.ts';
import type { Span } from '../core/types.ts';
import type { Binding, CheckKind, Expr, Instr, Model } from './ast.ts';
import { lex, type Token } from './lexer.ts';

class ParseError extends Error {}

const STARTS_INSTR = new Set([
  'let',
  'acyclic',
  'irreflexive',
  'empty',
  'flag',
  'show',
  'unshow',
  'include',
  // herd7 instructions gpumm names in a diagnostic (CAT2002): recovery stops before them too.
  'undefined_unless',
  'procedure',
  'call',
  'enum',
  'forall',
  'debug',
  'instructions',
  'default',
]);

/**
 * herd7 constructs gpumm does not support (CAT2002): what each is, and what to write instead.
 * herd7's grammar (lib/modelParser.mly) and its library files were read to list them.
 */
const HERD_ONLY: Record<string, { what: string; hint: string }> = {
  undefined_unless: {
    what: 'undefined_unless check',
    hint: 'gpumm reports what a model finds undefined through a flag: flag ~empty dr as race (docs/cat.md)',
  },
  procedure: {
    what: 'procedure … end',
    hint: 'write the checks where they are used, or a function: let f(r) = … then acyclic f(po) as name',
  },
  call: {
    what: 'procedure call',
    hint: 'write the checks where they are used, or a function: let f(r) = … then acyclic f(po) as name',
  },
  fun: { what: 'anonymous function (fun x -> e)', hint: 'give it a name: let f(x) = e' },
  match: {
    what: 'match … with … end',
    hint: 'gpumm models have no tags or sets of sets to match: select with sets ([S], S * S) or if "variant"',
  },
  enum: {
    what: 'enum declaration',
    hint: "gpumm's events carry their kinds as predefined sets (Acquire, ACQ, Workgroup, …: docs/cat.md)",
  },
  tag: {
    what: "tag ('name)",
    hint: "gpumm's events carry their kinds as predefined sets (Acquire, ACQ, Workgroup, …: docs/cat.md)",
  },
  forall: { what: 'forall … do … end', hint: 'write one check per relation' },
  with: {
    what: 'with … from (a relation chosen by the model)',
    hint: 'gpumm chooses rf, co and undef reads itself, every way; a model cannot choose other relations',
  },
  debug: { what: 'debug instruction', hint: 'remove it' },
  instructions: { what: 'bell file declaration', hint: 'bell files are not supported: write a cat model' },
  default: { what: 'bell file declaration', hint: 'bell files are not supported: write a cat model' },
  when: { what: 'let rec … when …', hint: 'gpumm computes let rec as a least fixpoint, without a condition' },
  set: {
    what: 'explicit set {e, …}',
    hint: '{} (or 0) is the empty set; for other sets of events use the predefined sets (docs/cat.md)',
  },
  '++': { what: "set addition '++'", hint: 'gpumm has no sets of sets or lists: combine relations with |' },
  tuple: {
    what: 'tuple (a, b)',
    hint: 'functions take several arguments as f(a, b); there are no tuple values',
  },
};

/**
 * How deep expressions nest (brackets, prefix and postfix operators, `let … in`, `if`, function
 * arguments), as the litmus parser's conditions (MAX_NESTING): past it a model gets CAT2003 rather
 * than a stack overflow. Chains of one operator (`a | b | …`) do not nest: they become balanced trees.
 */
export const MAX_CAT_NESTING = 256;

/** Keywords opening a herd7 block that an `end` closes. */
const OPENS_END = new Set(['procedure', 'forall', 'match', 'begin']);
const TESTS = new Set(['acyclic', 'irreflexive', 'empty']);

/** Parses the text of one cat file (includes are resolved later, by `loadModel`). */
export function parseCat(text: string, file: string): { model: Model; diagnostics: SourceDiagnostic[] } {
  const { tokens, diagnostics } = lex(text, file);
  let pos = 0;
  const peek = (k = 0): Token => tokens[Math.min(pos + k, tokens.length - 1)]!;
  const next = (): Token => tokens[Math.min(pos++, tokens.length - 1)]!;
  const is = (text: string, k = 0) => {
    const t = peek(k);
    return (t.kind === 'punct' || t.kind === 'keyword') && t.text === text;
  };
  const describe = (t: Token) => (t.kind === 'eof' ? 'end of file' : `'${t.text}'`);
  const fail = (expected: string, hint?: string): never => {
    const t = peek();
    diagnostics.push(diag('CAT2001', t.span, { expected, found: describe(t), hint }));
    throw new ParseError();
  };
  const expect = (text: string, what = `'${text}'`): Token => {
    if (!is(text)) fail(what);
    return next();
  };
  const ident = (what: string): Token => {
    if (peek().kind !== 'ident') fail(what);
    return next();
  };
  const join = (a: Span, b: Span): Span => ({ ...a, len: Math.max(a.len, b.offset + b.len - a.offset) });
  /** Reports a herd7 construct gpumm does not support (the parse goes on). */
  const unsupported = (key: string, at: Token) => {
    const u = HERD_ONLY[key]!;
    diagnostics.push(diag('CAT2002', at.span, { construct: u.what, hint: u.hint }));
  };
  /** Skips past the `end` that closes the block opened by the keyword just read. */
  const skipToEnd = () => {
    let depth = 1;
    while (peek().kind !== 'eof' && depth > 0) {
      const t = next();
      if (t.kind !== 'keyword') continue;
      if (OPENS_END.has(t.text)) depth++;
      else if (t.text === 'end') depth--;
    }
  };
  /** Skips past the bracket that closes the one just read (`(` or `{`). */
  const skipToClose = (open: string, close: string) => {
    let depth = 1;
    while (peek().kind !== 'eof' && depth > 0) {
      const t = next();
      if (t.kind !== 'punct') continue;
      if (t.text === open) depth++;
      else if (t.text === close) depth--;
    }
  };
  let depth = 0;
  /** Parses one nesting level (`at` opens it); past MAX_CAT_NESTING, CAT2003 and the instruction is skipped. */
  const nested = <T>(at: Token, f: () => T): T => {
    if (depth >= MAX_CAT_NESTING) {
      diagnostics.push(diag('CAT2003', at.span, { limit: String(MAX_CAT_NESTING) }));
      throw new ParseError();
    }
    depth++;
    try {
      return f();
    } finally {
      depth--;
    }
  };
  /**
   * A chain of one associative operator as a balanced tree, so that evaluating a chain of any
   * length recurses only logarithmically deep (the operators are associative: the value is the same).
   */
  const balanced = (op: 'union' | 'seq' | 'inter', xs: Expr[]): Expr => {
    if (xs.length === 1) return xs[0]!;
    const mid = xs.length >> 1;
    const left = balanced(op, xs.slice(0, mid));
    const right = balanced(op, xs.slice(mid));
    return { kind: 'bin', op, left, right, span: join(left.span, right.span) };
  };
  /** What an unsupported expression stands for once reported: the empty relation. */
  const placeholder = (from: Token): Expr => ({ kind: 'empty', span: from.span });

  const startsOperand = (t: Token) =>
    t.kind === 'ident' ||
    t.kind === 'zero' ||
    t.kind === 'underscore' ||
    t.kind === 'tag' ||
    (t.kind === 'punct' && (t.text === '(' || t.text === '[' || t.text === '{')) ||
    (t.kind === 'punct' && t.text === '~' && !(peek(2).kind === 'keyword' && TESTS.has(peek(2).text))) ||
    (t.kind === 'keyword' && (t.text === 'if' || t.text === 'begin' || t.text === 'try'));

  /** After `let`: `[rec] x = e and y = e …`. */
  const letBindings = (): { rec: boolean; bindings: Binding[] } => {
    const rec = is('rec');
    if (rec) next();
    const bindings = [binding()];
    while (is('and')) {
      next();
      bindings.push(binding());
    }
    return { rec, bindings };
  };

  const expr = (): Expr => {
    if (!is('let')) return union();
    const start = next();
    return nested(start, () => {
      const { rec, bindings } = letBindings();
      expect('in');
      const body = expr();
      return { kind: 'let', rec, bindings, body, span: join(start.span, body.span) } as Expr;
    });
  };
  /** `x op x op …` for an associative operator, as a balanced tree. */
  const chain = (op: 'union' | 'seq' | 'inter', text: string, operand: () => Expr): Expr => {
    const xs = [operand()];
    while (is(text)) {
      next();
      xs.push(operand());
    }
    return balanced(op, xs);
  };
  const union = (): Expr =>
    chain('union', '|', () => {
      const l = seq();
      // herd7's set addition binds between | and ; (lib/modelParser.mly).
      while (is('++')) {
        unsupported('++', next());
        seq();
      }
      return l;
    });
  const seq = (): Expr => chain('seq', ';', diff);
  const diff = (): Expr => {
    const l = inter();
    if (!is('\\')) return l;
    // a \ b \ c is (a \ b) \ c, which is a \ (b | c): one difference, however long the chain.
    const rs: Expr[] = [];
    while (is('\\')) {
      next();
      rs.push(inter());
    }
    const r = balanced('union', rs);
    return { kind: 'bin', op: 'diff', left: l, right: r, span: join(l.span, r.span) };
  };
  const inter = (): Expr => chain('inter', '&', cart);
  const cart = (): Expr => {
    const l = unary();
    if (!(is('*') && startsOperand(peek(1)))) return l;
    next();
    const r = unary();
    return { kind: 'bin', op: 'cartesian', left: l, right: r, span: join(l.span, r.span) };
  };
  const unary = (): Expr => {
    if (is('~')) {
      const t = next();
      return nested(t, () => {
        const a = unary();
        return { kind: 'un', op: 'comp', arg: a, span: join(t.span, a.span) } as Expr;
      });
    }
    return postfix();
  };
  const postfix = (): Expr => {
    let e = atom();
    for (let k = depth; ; k++) {
      const t = peek();
      if (t.kind !== 'punct') return e;
      // Each postfix operator nests the expression one level deeper.
      if (k >= MAX_CAT_NESTING && ['*', '+', '?', '^-1'].includes(t.text)) {
        diagnostics.push(diag('CAT2003', t.span, { limit: String(MAX_CAT_NESTING) }));
        throw new ParseError();
      }
      if (t.text === '*' && !startsOperand(peek(1)))
        e = { kind: 'un', op: 'star', arg: e, span: join(e.span, t.span) };
      else if (t.text === '+') e = { kind: 'un', op: 'plus', arg: e, span: join(e.span, t.span) };
      else if (t.text === '?') e = { kind: 'un', op: 'opt', arg: e, span: join(e.span, t.span) };
      else if (t.text === '^-1') e = { kind: 'un', op: 'inv', arg: e, span: join(e.span, t.span) };
      else return e;
      next();
    }
  };
  const atom = (): Expr => {
    const t = peek();
    if (t.kind === 'zero') {
      next();
      return { kind: 'empty', span: t.span };
    }
    if (t.kind === 'underscore') {
      next();
      return { kind: 'universe', span: t.span };
    }
    if (t.kind === 'ident') {
      next();
      if (is('(')) {
        const open = next();
        return nested(open, () => {
          const args: Expr[] = [];
          if (!is(')')) {
            args.push(expr());
            while (is(',')) {
              next();
              args.push(expr());
            }
          }
          const close = expect(')');
          return { kind: 'app', fn: t.text, args, span: join(t.span, close.span) } as Expr;
        });
      }
      // herd7 applies a function to the operand written after it (`domain rf`, `fencerel MFENCE`;
      // lib/modelParser.mly, `exp0 arg`): two operands side by side mean nothing else.
      const a = peek();
      if (a.kind === 'ident' || a.kind === 'zero' || a.kind === 'underscore' || is('[') || is('{')) {
        return nested(a, () => {
          const arg = atom();
          return { kind: 'app', fn: t.text, args: [arg], span: join(t.span, arg.span) } as Expr;
        });
      }
      return { kind: 'var', name: t.text, span: t.span };
    }
    if (is('(')) {
      const open = next();
      return nested(open, () => {
        const e = expr();
        if (is(',')) {
          unsupported('tuple', peek());
          skipToClose('(', ')');
          return e;
        }
        expect(')');
        return e;
      });
    }
    // herd7: `begin e end` is `(e)`.
    if (is('begin')) {
      const open = next();
      return nested(open, () => {
        const e = expr();
        expect('end');
        return e;
      });
    }
    if (is('{')) {
      const open = next();
      if (is('}')) return { kind: 'empty', span: join(open.span, next().span) };
      unsupported('set', open);
      skipToClose('{', '}');
      return placeholder(open);
    }
    if (t.kind === 'tag') {
      unsupported('tag', next());
      return placeholder(t);
    }
    if (is('try')) {
      const start = next();
      return nested(start, () => {
        const body = expr();
        expect('with');
        const alt = expr();
        return { kind: 'try', body, alt, span: join(start.span, alt.span) } as Expr;
      });
    }
    if (is('fun')) {
      unsupported('fun', next());
      if (is('(')) {
        next();
        skipToClose('(', ')');
      } else if (peek().kind === 'ident' || peek().kind === 'underscore') next();
      expect('->');
      expr();
      return placeholder(t);
    }
    if (is('match')) {
      unsupported('match', next());
      skipToEnd();
      return placeholder(t);
    }
    if (is('[')) {
      const open = next();
      return nested(open, () => {
        const e = expr();
        const close = expect(']');
        return { kind: 'un', op: 'toid', arg: e, span: join(open.span, close.span) } as Expr;
      });
    }
    if (is('if')) {
      const start = next();
      return nested(start, () => {
        if (peek().kind !== 'string') fail('a variant name in quotes', 'write if "variant" then e1 else e2');
        const variant = next().text;
        expect('then');
        const yes = expr();
        expect('else');
        const no = expr();
        return { kind: 'if', variant, yes, no, span: join(start.span, no.span) } as Expr;
      });
    }
    if (t.kind === 'keyword' && t.text in HERD_ONLY) {
      unsupported(t.text, next());
      throw new ParseError();
    }
    return fail(
      'an expression',
      'an expression is a name, 0, _, (e), [e], f(e) or e combined with | ; \\ & *',
    );
  };

  const binding = (): Binding => {
    const name = ident('a name to bind');
    let params: string[] | null = null;
    if (is('(')) {
      next();
      params = [];
      if (!is(')')) {
        params.push(ident('a parameter name').text);
        while (is(',')) {
          next();
          params.push(ident('a parameter name').text);
        }
      }
      expect(')');
    }
    expect('=');
    const body = expr();
    return { name: name.text, params, body, span: name.span };
  };

  const check = (flag: boolean, start: Token): Instr => {
    let negated = false;
    if (is('~')) {
      next();
      negated = true;
    }
    const t = peek();
    if (!(t.kind === 'keyword' && TESTS.has(t.text))) fail('acyclic, irreflexive or empty');
    next();
    const e = expr();
    let name: string | null = null;
    if (is('as')) {
      next();
      name = ident('a name after as').text;
    } else if (flag) fail("'as NAME'", 'a flag needs a name: flag ~empty race as race');
    return {
      kind: 'check',
      test: t.text as CheckKind,
      negated,
      flag,
      expr: e,
      name,
      span: join(start.span, e.span),
    };
  };

  const instr = (): Instr | null => {
    const t = peek();
    if (is('undefined_unless')) {
      // Read the check that follows (so recovery does not take it for one of the model's), then drop it.
      unsupported('undefined_unless', t);
      check(false, next());
      return null;
    }
    if (is('procedure') || is('forall') || is('match')) {
      unsupported(t.text, next());
      skipToEnd();
      return null;
    }
    if (t.kind === 'keyword' && (t.text in HERD_ONLY || t.text === 'with')) {
      unsupported(t.text, t);
      throw new ParseError();
    }
    if (is('let')) {
      next();
      const { rec, bindings } = letBindings();
      return { kind: rec ? 'rec' : 'let', bindings, span: t.span };
    }
    if (is('flag')) return check(true, next());
    if (is('~') || (t.kind === 'keyword' && TESTS.has(t.text))) return check(false, t);
    if (is('show') || is('unshow')) {
      next();
      // herd7: `show a, b` or `show e as NAME`.
      if (peek().kind !== 'ident' || (peek(1).kind === 'punct' && peek(1).text !== ',')) {
        const e = expr();
        expect('as', "'as NAME' after a shown expression");
        ident('a name after as');
        return { kind: 'show', names: [], expr: e, span: t.span };
      }
      const names = [ident('a name to show').text];
      while (is(',')) {
        next();
        names.push(ident('a name to show').text);
      }
      return { kind: 'show', names, expr: null, span: t.span };
    }
    if (is('include')) {
      next();
      if (peek().kind !== 'string') fail('a file name in quotes', 'write include "file.cat"');
      const f = next();
      return { kind: 'include', file: f.text, span: f.span };
    }
    return fail('an instruction (let, acyclic, irreflexive, empty, flag, show, include)');
  };

  // herd7's title line: a name and/or a quoted string before the first instruction.
  let title = file.replace(/^.*[\\/]/, '');
  const titleParts: string[] = [];
  while ((peek().kind === 'ident' || peek().kind === 'string') && titleParts.length < 2)
    titleParts.push(next().text);
  if (titleParts.length > 0) title = titleParts[titleParts.length - 1]!;

  const instrs: Instr[] = [];
  while (peek().kind !== 'eof') {
    const at = pos;
    try {
      const ins = instr();
      if (ins) instrs.push(ins);
    } catch (e) {
      if (!(e instanceof ParseError)) throw e;
      // Recover at the next instruction keyword that starts a line (a `let` inside the broken
      // expression, as in `let … in`, is not an instruction).
      if (pos === at) pos++;
      const startsLine = () => pos === 0 || tokens[pos - 1]!.span.line < peek().span.line;
      while (
        peek().kind !== 'eof' &&
        !(peek().kind === 'keyword' && STARTS_INSTR.has(peek().text) && startsLine())
      )
        pos++;
    }
  }
  return { model: { title, instrs }, diagnostics };
}
