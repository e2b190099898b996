import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIAGNOSTICS, type DiagnosticCode, diag, diagnosticLine, fileSpan } from './diagnostics.ts';

const ROOT = join(import.meta.dirname, '..', '..');
/** Each stage's code prefix. */
const STAGES = ['LT', 'VK', 'CL', 'CAT', 'TBL', 'LW', 'MD', 'MC', 'SRV'];
const CODE = new RegExp(`^(${STAGES.join('|')})\\d{3,4}$`);

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...sources(p));
    else if (/\.tsx?$/.test(e.name)) out.push(p);
  }
  return out;
}

const FILES = [...sources(join(ROOT, 'src')), ...sources(join(ROOT, 'web', 'src'))].map((f) => ({
  file: relative(ROOT, f),
  text: readFileSync(f, 'utf8'),
}));

describe('the one table of diagnostics', () => {
  it("names every code by its stage's prefix", () => {
    expect(Object.keys(DIAGNOSTICS).filter((c) => !CODE.test(c))).toEqual([]);
  });

  it('has every code the sources report or test for (a code outside it would have no wording)', () => {
    const literal = new RegExp(`['"\`](?:${STAGES.join('|')})\\d{3,4}['"\`]`, 'g');
    const unknown: string[] = [];
    for (const { file, text } of FILES)
      for (const m of text.matchAll(literal)) {
        const code = m[0].slice(1, -1);
        if (!(code in DIAGNOSTICS)) unknown.push(`${file}: ${code}`);
      }
    expect(unknown).toEqual([]);
  });

  it('is the only table: no other file maps codes to wording', () => {
    const entry = new RegExp(`^\\s+(?:${STAGES.join('|')})\\d{3,4}: *[{'"\`]`, 'm');
    const others = FILES.filter(
      (f) =>
        f.file !== join('src', 'core', 'diagnostics.ts') &&
        !f.file.endsWith('.test.ts') &&
        entry.test(f.text),
    ).map((f) => f.file);
    expect(others).toEqual([]);
  });

  it('words every entry without its arguments, in one line each', () => {
    for (const code of Object.keys(DIAGNOSTICS) as DiagnosticCode[]) {
      const d = diag(code, null);
      expect(d.code).toBe(code);
      expect(['error', 'warning']).toContain(d.severity);
      expect(d.message.includes('\n'), code).toBe(false);
      expect((d.hint ?? '').includes('\n'), code).toBe(false);
    }
  });

  it('gives one shape to every stage: span and hint only where there are', () => {
    const at = fileSpan('t.litmus');
    const front = diag('LT1001', at);
    expect(front).toEqual({
      code: 'LT1001',
      severity: 'error',
      message: front.message,
      hint: front.hint,
      span: at,
    });
    const model = diag('MD007', null, { size: '9000', max: '4096' });
    expect(Object.keys(model).sort()).toEqual(['code', 'hint', 'message', 'severity']);
    expect(diagnosticLine(model)).toBe(`MD007 ${model.message}`);
    // An entry whose hint is an argument has none when the argument is absent.
    expect('hint' in diag('LW2014', null, { 0: 'x', 1: 'y' })).toBe(false);
  });

  it('cuts quoted input to a bounded length, but never a prose argument', () => {
    const long = 'y'.repeat(10_000);
    expect(diag('MD001', null, { loc: long }).message.length).toBeLessThan(200);
    expect(diag('MD004', null, { what: long }).message).toBe(long);
  });
});
