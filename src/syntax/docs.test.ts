import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIAGNOSTICS } from '../core/diagnostics.ts';
import { parse } from './parser.ts';

const DOC = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'litmus.md'), 'utf8');

describe('docs/litmus.md', () => {
  const examples = [...DOC.matchAll(/```llvm\n([\s\S]*?)```/g)].map((m) => m[1]!);

  it.each(examples.map((e, i) => [i, e]))('example %i parses without diagnostics', (_i, text) => {
    const r = parse(text as string, 'docs/litmus.md');
    expect(r.diagnostics.map((d) => `${d.code} ${d.span.line}:${d.span.col} ${d.message}`)).toEqual([]);
  });

  it('lists every diagnostic code', () => {
    // The lowering's codes are one row here; docs/targets/README.md lists each with its wording.
    const targets = readFileSync(
      join(import.meta.dirname, '..', '..', 'docs', 'targets', 'README.md'),
      'utf8',
    );
    const missing = Object.keys(DIAGNOSTICS).filter((c) =>
      c.startsWith('LW') ? !targets.includes(`| ${c} |`) : !DOC.includes(`| ${c} |`),
    );
    expect(missing).toEqual([]);
  });
});
