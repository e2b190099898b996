/**
 * docs/model.md: every numbered choice the spec leaves open names the tests that pin it, and every
 * test it names exists — a catalogue test (`litmus/NAME`, or a bare catalogue name), or a test of a
 * suite (`file.test.ts › title`, a `› title` going with the file named before it; `…` stands for
 * the rest of the title, so `SB: … forbids 0/0` matches a title with both pieces, in order).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const DOC = readFileSync(join(ROOT, 'docs', 'model.md'), 'utf8');

/** The numbered choices: `12.`, `22a.`, … up to the next choice or section. */
function choices(): { id: string; text: string }[] {
  const start = DOC.indexOf('## Choices the spec leaves open');
  const end = DOC.indexOf('\n## ', start + 1);
  const body = DOC.slice(start, end < 0 ? undefined : end);
  const out: { id: string; text: string }[] = [];
  const re = /^(\d+[a-z]?)\. \*\*/gm;
  const heads = [...body.matchAll(re)];
  heads.forEach((m, k) => {
    const from = m.index!;
    const to = k + 1 < heads.length ? heads[k + 1]!.index! : body.length;
    out.push({ id: m[1]!, text: body.slice(from, to).replace(/\s+/g, ' ') });
  });
  return out;
}

/** Every `*.test.ts` file under src/, by base name (several folders may have one of a name). */
function testFiles(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.test.ts')) out.set(e.name, [...(out.get(e.name) ?? []), p]);
    }
  };
  walk(join(ROOT, 'src'));
  return out;
}

/** The titles of a test file's `describe` / `it` / `test` calls (string literals joined by `+`). */
function titles(path: string): string[] {
  const src = readFileSync(path, 'utf8');
  const out: string[] = [];
  const call = /\b(?:it|test|describe)(?:\.\w+)?(?:\([\s\S]*?\)\s*)?\(\s*(?=['"`])/g;
  for (const m of src.matchAll(call)) {
    let i = m.index! + m[0].length;
    let title = '';
    for (;;) {
      const q = src[i];
      if (q !== "'" && q !== '"' && q !== '`') break;
      let j = i + 1;
      while (j < src.length && src[j] !== q) j += src[j] === '\\' ? 2 : 1;
      title += src.slice(i + 1, j).replace(/\\(.)/g, '$1');
      i = j + 1;
      const plus = /^\s*\+\s*/.exec(src.slice(i, i + 40));
      if (!plus) break;
      i += plus[0].length;
    }
    out.push(title.replace(/\s+/g, ' '));
  }
  return out;
}

/** Whether `title` holds the pieces of a reference (split at `…`), in order. */
function matches(title: string, ref: string): boolean {
  let at = 0;
  for (const piece of ref.split('…').map((p) => p.trim())) {
    if (piece === '') continue;
    const k = title.indexOf(piece, at);
    if (k < 0) return false;
    at = k + piece.length;
  }
  return true;
}

function catalogueTest(name: string): boolean {
  const n = name.replace(/^litmus\//, '').replace(/\/$/, '');
  return (
    existsSync(join(ROOT, 'litmus', `${n}.litmus`)) ||
    existsSync(join(ROOT, 'litmus', 'barriers', `${n}.litmus`)) ||
    (n === 'barriers' && existsSync(join(ROOT, 'litmus', 'barriers')))
  );
}

/** The tests a choice names, and those of them that do not exist. */
function references(text: string, files: Map<string, string[]>): { named: string[]; missing: string[] } {
  const named: string[] = [];
  const missing: string[] = [];
  let file: string | null = null;
  // ``x`` (quoted from reStructuredText) is not a reference.
  for (const m of text.replace(/``[^`]*``/g, '').matchAll(/`([^`]+)`/g)) {
    const ref = m[1]!.trim();
    const suite = /^([\w.-]+\.test\.ts)(?:\s*›\s*(.*))?$/.exec(ref);
    const cont = /^›\s*(.*)$/.exec(ref);
    if (suite || (cont && file)) {
      if (suite) file = suite[1]!;
      const title = suite ? suite[2] : cont![1];
      named.push(ref);
      const paths = files.get(file!);
      if (!paths) missing.push(`${ref} (no file ${file})`);
      else if (title && !paths.some((p) => titles(p).some((t) => matches(t, title))))
        missing.push(`${file} › ${title} (no such test)`);
      continue;
    }
    if (ref.startsWith('litmus/')) {
      named.push(ref);
      if (!catalogueTest(ref)) missing.push(`${ref} (no such catalogue test)`);
      continue;
    }
    // A bare catalogue name in a list of them (`MP+fence.agent.sync-global`).
    if (/^[\w+.-]+$/.test(ref) && /[+.]/.test(ref) && catalogueTest(ref)) named.push(ref);
  }
  return { named, missing };
}

describe('docs/model.md', () => {
  const all = choices();
  const files = testFiles();

  it('numbers its choices without gaps', () => {
    const numbers = [...new Set(all.map((c) => Number.parseInt(c.id, 10)))];
    expect(numbers).toEqual(numbers.map((_, k) => k + 1));
    expect(numbers.length).toBeGreaterThan(30);
  });

  it('reads test titles the way the suites write them', () => {
    // The reader must see titles joined with +, or a missing test would look like a missing title.
    const t = titles(files.get('amdgpu.test.ts')![0]!);
    expect(t.some((x) => x.startsWith('SB: relaxed allows every outcome'))).toBe(true);
    expect(
      matches('SB: relaxed allows every outcome; seq_cst forbids 0/0', 'SB: … seq_cst forbids 0/0'),
    ).toBe(true);
    expect(matches('SB: relaxed', 'SB: … seq_cst forbids 0/0')).toBe(false);
  });

  it.each(all.map((c) => [c.id, c.text] as const))(
    'choice %s names its pinning tests, and they exist',
    (_id, text) => {
      expect(text).toMatch(/Pinned/);
      const { named, missing } = references(text, files);
      expect(named.length).toBeGreaterThan(0);
      expect(missing).toEqual([]);
    },
  );
});
