import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../core/diagnostics.ts';
import { diag } from '../core/diagnostics.ts';
import type { Span } from '../core/types.ts';
import { parse } from '../syntax/parser.ts';
import { diagnosticPrinter, escapeText, formatDiagnostic, SOURCE_WINDOW } from './format.ts';

const at = (offset: number, col: number, len: number, line = 1) => ({
  file: 'f.litmus',
  offset,
  line,
  col,
  len,
});

/** The caret line's first caret, as a column, and the shown source line as code points. */
function caretColumn(rendered: string): { col: number; shown: string[] } {
  const lines = rendered.split('\n');
  const src = lines[1]!.slice(lines[1]!.indexOf('| ') + 2);
  const caret = lines[2]!.slice(lines[2]!.indexOf('| ') + 2);
  return { col: caret.indexOf('^'), shown: [...src] };
}

describe('escapeText', () => {
  it('escapes C0, DEL, C1, bidi controls, separators, BOM and lone surrogates, and nothing else', () => {
    expect(escapeText('a\x1b[31mb\x07\x7f\x9b')).toBe('a\\x1b[31mb\\x07\\x7f\\x9b');
    expect(escapeText('\u202e\u2066\u2028\ufeff')).toBe('\\u{202e}\\u{2066}\\u{2028}\\u{feff}');
    expect(escapeText('x\ud800y\udc00')).toBe('x\\u{d800}y\\u{dc00}');
    expect(escapeText('é … \u{1f600} /\\ \\/')).toBe('é … \u{1f600} /\\ \\/');
  });
});

describe('formatDiagnostic', () => {
  it('escapes the file name, message, hint and source line; the caret stays under the escaped text', () => {
    const src = 'AMDGPU t\n@x\x1b[31m = 1\n';
    const d: Diagnostic & { span: Span } = {
      code: 'LT1002',
      severity: 'error',
      message: "unexpected character '\x1b'",
      hint: 'h\x07',
      span: at(11, 3, 1, 2),
    };
    const out = formatDiagnostic({ ...d, span: { ...d.span, file: 'f\x1b.litmus' } }, src);
    expect(out).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f]/);
    expect(out).toContain("f\\x1b.litmus:2:3: error LT1002: unexpected character '\\x1b'");
    expect(out).toContain('hint: h\\x07');
    const { col, shown } = caretColumn(out);
    expect(shown.slice(col).join('')).toMatch(/^\\x1b\[31m/);
    expect(out.split('\n')[2]).toMatch(/\| {3}\^{4}$/); // after "| " and "@x", under all four characters of \x1b
  });

  it("bounds another stage's message and hint that quote a huge name", () => {
    const name = 'y'.repeat(1_000_000);
    const out = formatDiagnostic({
      code: 'LW2001',
      severity: 'error',
      message: `@${name}`,
      hint: name,
      span: at(0, 1, 1),
    });
    expect(out.length).toBeLessThan(2200);
    expect(out).toMatch(/^f\.litmus:1:1: error LW2001: @y+…y+\n {2}hint: y+…y+$/);
  });

  it('expands tabs and counts a character outside the BMP as one column', () => {
    const src = '\t\u{1f600}\tfrob x';
    const d = diag('LT2004', at(4, 5, 4), { name: 'frob' });
    const { col, shown } = caretColumn(formatDiagnostic(d, src));
    expect(shown.slice(col).join('')).toMatch(/^frob/);
    expect(col).toBe(16); // tab to 8, the emoji at 8, tab to 16
  });

  it('shows a window of a long line around the caret, marked with …', () => {
    const src = `@${'x'.repeat(100_000)} = foo y\n`;
    const d = diag('LT2003', at(100_004, 100_005, 3), { expected: "'global'", found: "'foo'" });
    const out = formatDiagnostic(d, src);
    const { col, shown } = caretColumn(out);
    expect(shown[0]).toBe('…');
    expect(shown.length).toBeLessThanOrEqual(SOURCE_WINDOW + 2);
    expect(shown.slice(col).join('')).toBe('foo y');
    expect(out.length).toBeLessThan(600);
  });

  it('a caret at the end of a line sits just after its text', () => {
    const r = parse('AMDGPU t\nP0 {\n  store i32 1,\n}\n', 'f.litmus');
    const d = r.diagnostics.find((x) => x.code === 'LT2003')!;
    const { col, shown } = caretColumn(formatDiagnostic(d, 'AMDGPU t\nP0 {\n  store i32 1,\n}\n'));
    expect(col).toBe(shown.length);
  });
});

describe('diagnosticPrinter', () => {
  const errors = Array.from({ length: 50 }, (_, i) =>
    diag('LT3003', at(i, i + 1, 1), { name: 'x', near: '' }),
  );
  const warning = diag('LT2011', at(0, 1, 1), { name: 'foo' });

  function printed(limit: number, ds: Diagnostic[]): string {
    let out = '';
    const p = diagnosticPrinter(limit, (t) => {
      out += t;
    });
    p.print(ds.slice(0, 20));
    p.print(ds.slice(20));
    p.finish();
    return out;
  }

  it('stops after the limit, across calls, and counts what it held back', () => {
    const out = printed(20, [...errors, warning]);
    expect(out.match(/error LT3003/g)).toHaveLength(20);
    expect(out).toMatch(/\ngpumm: 30 more errors and 1 more warning not shown \(--error-limit 20; /);
    expect(out.endsWith('\n')).toBe(true);
  });

  it('0 means no limit, and a run under the limit has no count line', () => {
    expect(printed(0, errors).match(/error LT3003/g)).toHaveLength(50);
    expect(printed(0, errors)).not.toMatch(/not shown/);
    expect(printed(50, errors)).not.toMatch(/not shown/);
    expect(printed(49, errors)).toMatch(/gpumm: 1 more error not shown/);
  });
});
