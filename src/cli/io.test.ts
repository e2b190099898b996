import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { firstInvalidUtf8, readSource } from './io.ts';

const fatal = new TextDecoder('utf-8', { fatal: true });
const decodes = (b: Uint8Array) => {
  try {
    fatal.decode(b);
    return true;
  } catch {
    return false;
  }
};

describe('reading files', () => {
  it('refuses an input over the size limit before reading it whole: a large file, /dev/zero (CL1008)', () => {
    const before = process.env.GPUMM_MAX_INPUT;
    process.env.GPUMM_MAX_INPUT = '0.001'; // about 1 KB
    try {
      const dir = mkdtempSync(join(tmpdir(), 'gpumm-big-'));
      const big = join(dir, 'big.litmus');
      writeFileSync(big, `AMDGPU t\n${'; junk\n'.repeat(1000)}`);
      const r = readSource(big);
      expect('diagnostic' in r && r.diagnostic.code).toBe('CL1008');
      const small = join(dir, 'small.litmus');
      writeFileSync(small, 'AMDGPU t\n');
      expect(readSource(small)).toEqual({ text: 'AMDGPU t\n' });
      if (existsSync('/dev/zero')) {
        const z = readSource('/dev/zero', 'cat');
        expect('diagnostic' in z && z.diagnostic.code).toBe('CL1008');
      }
    } finally {
      if (before === undefined) delete process.env.GPUMM_MAX_INPUT;
      else process.env.GPUMM_MAX_INPUT = before;
    }
  });

  it('firstInvalidUtf8 agrees with a strict UTF-8 decoder, and its prefix always decodes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (b) => {
        const i = firstInvalidUtf8(b);
        expect(i === -1).toBe(decodes(b));
        if (i >= 0) expect(decodes(b.subarray(0, i))).toBe(true);
      }),
      { numRuns: 5000 },
    );
    // Overlong forms, surrogates and code points beyond U+10FFFF are not UTF-8.
    for (const bad of [
      [0xc0, 0xaf],
      [0xe0, 0x80, 0xaf],
      [0xed, 0xa0, 0x80],
      [0xf4, 0x90, 0x80, 0x80],
    ])
      expect(firstInvalidUtf8(Uint8Array.from([0x41, ...bad]))).toBe(1);
    expect(firstInvalidUtf8(new TextEncoder().encode('é𝄞 ok'))).toBe(-1);
  });

  it('a file that is not UTF-8 is one diagnostic at its first bad byte (it was "unexpected character" for every byte)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gpumm-io-'));
    const f = join(dir, 'latin1.litmus');
    writeFileSync(f, Buffer.concat([Buffer.from('AMDGPU X\n; caf'), Buffer.from([0xe9]), Buffer.from('\n')]));
    const r = readSource(f);
    expect('diagnostic' in r && r.diagnostic.code).toBe('CL1005');
    if (!('diagnostic' in r)) return;
    expect([r.diagnostic.span.line, r.diagnostic.span.col]).toEqual([2, 6]);
    expect(r.diagnostic.message).toContain('byte 0xe9');
    expect(r.why).toContain('not UTF-8 text');
    // The text, decoded with replacement characters, is there for the quoted line.
    expect(r.text?.split('\n')[1]).toBe('; caf\uFFFD');
    const d = join(dir, 'folder.cat');
    mkdirSync(d);
    const c = readSource(d, 'cat');
    expect('diagnostic' in c && [c.diagnostic.code, c.why]).toEqual(['CL1002', 'it is a directory']);
    const m = readSource(join(dir, 'missing.cat'), 'cat');
    expect('diagnostic' in m && m.diagnostic.hint).toContain('cat models end in .cat');
  });
});
