/**
 * fast-check mutations of litmus source text, for robustness properties of the front end: what a
 * hurried edit or a bad paste does to a file (`editMutation`), and what a hostile or generated
 * file does (`hostileMutation`: terminal escape sequences, lone surrogates, huge tokens, deep
 * nesting, thousands of bad lines).
 */
import fc from 'fast-check';

/** Text that a terminal acts on, or that trips up column counting, inserted by `hostileMutation`. */
export const HOSTILE_TEXT = [
  '\x1b[31m', // ANSI colour
  '\x1b]0;title\x07', // OSC: set the window title
  '\x1b[2J\x1b[H', // clear the screen
  '\x9b1m', // C1 CSI
  '\x00',
  '\x7f',
  '\r',
  '\t',
  '\u202e', // right-to-left override
  '\u2066',
  '\u2028',
  '\ufeff',
  '\ud800', // lone high surrogate
  '\udc00', // lone low surrogate
  '\u{1f600}', // a valid pair: one column, two code units
  'é',
] as const;

export const editMutation = fc.oneof(
  fc.record({ kind: fc.constant('deleteLine' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('duplicateLine' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('swapLines' as const), at: fc.nat(), to: fc.nat() }),
  fc.record({ kind: fc.constant('deleteToken' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('duplicateToken' as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant('garble' as const),
    at: fc.nat(),
    ch: fc.constantFrom(...'{}()[],;:=@%!"~/\\<>*#$^&|x0-9 \t\n'.split('')),
  }),
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
);

/**
 * `scale` multiplies the big mutations (repeated lines, token length, nesting depth) for longer
 * fuzz runs; at 1 they stay around the limits (256 levels of nesting, 120-character quotes).
 */
export function hostileMutation(scale = 1) {
  return fc.oneof(
    editMutation,
    fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), text: fc.constantFrom(...HOSTILE_TEXT) }),
    fc.record({
      kind: fc.constant('hugeToken' as const),
      at: fc.nat(),
      len: fc.integer({ min: 100, max: 2000 * scale }),
    }),
    fc.record({
      kind: fc.constant('nest' as const),
      at: fc.nat(),
      depth: fc.integer({ min: 200, max: 300 * Math.max(1, scale) }),
      open: fc.constantFrom('(', '~', '<1 x ', '{ '),
    }),
    fc.record({ kind: fc.constant('crlf' as const), at: fc.nat() }),
    fc.record({
      kind: fc.constant('repeatLine' as const),
      at: fc.nat(),
      times: fc.integer({ min: 2, max: 200 * scale }),
    }),
  );
}

export type Mutation = typeof editMutation extends fc.Arbitrary<infer M> ? M : never;
export type HostileMutation = ReturnType<typeof hostileMutation> extends fc.Arbitrary<infer M> ? M : never;

const CLOSE: Record<string, string> = { '(': ')', '~': '', '<1 x ': '>', '{ ': ' }' };

/** Applies one mutation to a source text. */
export function mutate(text: string, m: HostileMutation): string {
  const lines = text.split('\n');
  const li = m.at % Math.max(1, lines.length);
  const at = m.at % Math.max(1, text.length);
  switch (m.kind) {
    case 'deleteLine':
      lines.splice(li, 1);
      return lines.join('\n');
    case 'duplicateLine':
      lines.splice(li, 0, lines[li] ?? '');
      return lines.join('\n');
    case 'swapLines': {
      const lj = m.to % Math.max(1, lines.length);
      [lines[li], lines[lj]] = [lines[lj] ?? '', lines[li] ?? ''];
      return lines.join('\n');
    }
    case 'deleteToken':
    case 'duplicateToken': {
      const toks = [...text.matchAll(/\S+/g)];
      const t = toks[m.at % Math.max(1, toks.length)];
      if (!t) return text;
      const end = t.index + t[0].length;
      return m.kind === 'deleteToken'
        ? text.slice(0, t.index) + text.slice(end)
        : `${text.slice(0, end)} ${t[0]}${text.slice(end)}`;
    }
    case 'garble':
      return text.slice(0, at) + m.ch + text.slice(at + 1);
    case 'truncate':
      return text.slice(0, at);
    case 'insert':
      return text.slice(0, at) + m.text + text.slice(at);
    case 'hugeToken': {
      // Lengthen a name (`@x`, `%r0`, `P1`) or any word into one of `len` characters.
      const toks = [...text.matchAll(/[@%]?[A-Za-z_][\w.]*/g)];
      const t = toks[m.at % Math.max(1, toks.length)];
      if (!t) return text + 'x'.repeat(m.len);
      const end = t.index + t[0].length;
      return text.slice(0, end) + 'x'.repeat(m.len) + text.slice(end);
    }
    case 'nest': {
      // Wraps the condition's body (or, for types, the first `i32`) in `depth` brackets.
      const close = CLOSE[m.open]!;
      if (m.open === '(' || m.open === '~') {
        const c = /^(\s*(?:~\s*exists|exists|forall)\s+)(.*)$/m.exec(text);
        if (!c) return text;
        const body = `${m.open.repeat(m.depth)}${c[2]}${close.repeat(m.depth)}`;
        return text.slice(0, c.index) + c[1] + body + text.slice(c.index + c[0].length);
      }
      const i = text.indexOf('i32', at) >= 0 ? text.indexOf('i32', at) : text.indexOf('i32');
      if (i < 0) return text;
      return `${text.slice(0, i)}${m.open.repeat(m.depth)}i32${close.repeat(m.depth)}${text.slice(i + 3)}`;
    }
    case 'crlf':
      // Windows line ends: the columns of a line must not count its \r.
      return text.replace(/\r?\n/g, '\r\n');
    case 'repeatLine':
      // concat, not splice(…, ...xs): spreading 100,000 arguments overflows the stack.
      return lines
        .slice(0, li)
        .concat(Array<string>(m.times).fill(lines[li] ?? ''), lines.slice(li))
        .join('\n');
  }
}
