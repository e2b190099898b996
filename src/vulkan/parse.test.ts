/**
 * The two Vulkan front ends: accepted forms, round trips (read → print → read gives the same test)
 * over Dartagnan's suite and litmus-vulkan/, and a diagnostic with its code and position for every
 * kind of malformed input (every VK code of the diagnostics table has its row here).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusTests } from '../cli/vulkan-corpus.ts';
import { DIAGNOSTICS } from '../core/diagnostics.ts';
import { detectSyntax } from '../run/syntaxes.ts';
import { stripSpans } from '../syntax/testing.ts';
import type { VulkanTest } from './ast.ts';
import { parseDat3m } from './dat3m.ts';
import { parseKhronos } from './khronos.ts';
import { printDat3m, printKhronos } from './print.ts';
import { DEFAULT_VK_RUN, runVulkan } from './run.ts';
import { vulkanToAmdgpu } from './translate.ts';

const dir = join(import.meta.dirname, '..', '..', 'litmus-vulkan');
const own = readdirSync(dir).map((f) => ({ file: f, text: readFileSync(join(dir, f), 'utf8') }));

function ok(r: { test: VulkanTest | null; diagnostics: { severity: string; code: string }[] }): VulkanTest {
  expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  expect(r.test).not.toBeNull();
  return r.test!;
}

describe("Dartagnan's syntax", () => {
  it("reads the forms of Dartagnan's grammar it refused: threads by number, quotes inside a description", () => {
    const t = ok(
      parseDat3m(
        `VULKAN numbered
"a "quoted" word, and "another""
{
x=0;
1:r3=5;
}
{ ssw 0 1; }
 P0@sg 0, wg 0, qf 0 | P1@sg 0, wg 1, qf 0 ;
 st.sc0 x, 1         | ld.sc0 r0, x        ;
exists (1:r0 == 1 /\\ P1:r3 == 5)
`,
        'n.litmus',
      ),
    );
    expect(t.description).toEqual(['a "quoted" word, and "another"']);
    expect(t.regInits.map((r) => [r.thread, r.reg, r.value])).toEqual([['P1', 'r3', 5]]);
    expect(t.ssw.map((w) => [w.from, w.to])).toEqual([['P0', 'P1']]);
    expect(JSON.stringify(t.condition)).toContain('"thread":"P1","reg":"r0"');
  });

  it('reads placement, initial values, registers, instructions and the condition', () => {
    const t = ok(
      parseDat3m(
        `VULKAN MP (* a comment *)
"first line"
expect: condition fails
{
x=0; y=2; z=x;
P1:r3=5; P0:r5=0;
}
 P0@sg 0, wg 0, qf 0              | P1@sg 1,wg 2, qf 3                      ;
 st.av.dv.sc0 x, 1                | ld.atom.acq.wg.sc0.semsc0.semvis r0, y  ;
 membar.rel.dv.semsc0.semsc1      | rmw.atom.acq_rel.dv.sc1.semsc1.add r1, z, r3 ;
 st.atom.rel.dv.sc0.semsc0 y, 1   | cbar.acq_rel.wg.semsc0 1, 1, 2          ;
 LC00:                            | add r2, r1, 1                           ;
 beq r5, 1, LC00                  |                                         ;
~exists (P1:r0 == 1 /\\ not (y == 2 \\/ P1:r1 != 0))
`,
        'mp.litmus',
      ),
    );
    expect(t.name).toBe('MP');
    expect(t.description).toEqual(['first line']);
    expect(t.expects.map((e) => `${e.key} ${e.value}`)).toEqual(['condition fails']);
    expect(t.locations.map((l) => [l.name, l.init, l.sameAs])).toEqual([
      ['x', 0, null],
      ['y', 2, null],
      ['z', 0, 'x'],
    ]);
    expect(t.regInits.map((r) => [r.thread, r.reg, r.value])).toEqual([
      ['P1', 'r3', 5],
      ['P0', 'r5', 0],
    ]);
    expect(t.threads.map((th) => th.placement)).toEqual([
      { queueFamily: 0, workgroup: 0, subgroup: 0 },
      { queueFamily: 3, workgroup: 2, subgroup: 1 },
    ]);
    const [p0, p1] = t.threads.map((th) => th.body);
    expect(p0!.map((i) => i.kind)).toEqual(['st', 'membar', 'st', 'label', 'branch']);
    expect(p1!.map((i) => i.kind)).toEqual(['ld', 'rmw', 'cbar', 'local']);
    expect(p0![0]).toMatchObject({ av: true, scope: 'dv', sc: 0, atomic: false });
    expect(p0![1]).toMatchObject({ release: true, acquire: false, scope: 'dv', semsc: 0b11 });
    expect(p1![0]).toMatchObject({ atomic: true, acquire: true, scope: 'wg', semvis: true, dst: 'r0' });
    expect(p1![1]).toMatchObject({ op: 'add', acquire: true, release: true, sc: 1, semsc: 0b10 });
    expect(p1![2]).toMatchObject({ kind: 'cbar', id: '1', quorum: 2, execScope: 'wg' });
    expect(t.condition?.quantifier).toBe('not exists');
  });

  const files = [
    ...corpusTests().map((c) => ({ file: c.test, text: c.text })),
    ...own.filter((o) => o.file.endsWith('.litmus')),
  ];
  it(`round trip: reading the printed test gives the same test (${files.length} files)`, () => {
    for (const { file, text } of files) {
      const t = ok(parseDat3m(text, file));
      const printed = printDat3m(t);
      expect(printed.diagnostics, file).toEqual([]);
      const back = ok(parseDat3m(printed.text!, file));
      expect(stripSpans(back), file).toEqual(stripSpans(t));
      // Printing is a fixed point.
      expect(printDat3m(back).text, file).toBe(printed.text);
    }
  });
});

describe('the Khronos .test format', () => {
  it('reads groups, thread numbers, load values, SSW, SLOC and assertions', () => {
    const t = ok(
      parseKhronos(
        `// MP with a chain
NEWWG
NEWSG
NEWTHREAD 4
st.av.scopewg.sc0 x = 1
st.atom.rel.scopedev.sc0.semsc0 y
NEWQF
NEWWG
NEWSG
NEWTHREAD 7
ld.atom.acq.scopedev.sc0.semsc0 y = 1
ld.vis.scopedev.sc0 x = 0
rmw.atom.scopedev.sc1 w = 0 3
SSW 4 7
SLOC w v
SATISFIABLE consistent[X] && #dr=0
NOSOLUTION NOCHAINS consistent[X] && !(#dr=0)
`,
        'dir/mp-chain.test',
      ),
    );
    expect(t.name).toBe('mp-chain');
    expect(t.format).toBe('khronos');
    expect(t.description).toEqual(['MP with a chain']);
    expect(t.threads.map((th) => [th.name, th.number, th.placement])).toEqual([
      ['P4', 4, { queueFamily: 0, workgroup: 0, subgroup: 0 }],
      ['P7', 7, { queueFamily: 1, workgroup: 1, subgroup: 1 }],
    ]);
    // A store without a value writes one of its own, which no valued load reads.
    const st = t.threads[0]!.body[1]!;
    expect(st).toMatchObject({ kind: 'st', fresh: true });
    // Load values become the filter over registers r0, r1, … in program order.
    expect(t.filter && printVkCondText(t)).toBe('P7:r0 == 1 /\\ P7:r1 == 0 /\\ P7:r2 == 0');
    expect(t.ssw.map((s) => [s.from, s.to])).toEqual([['P4', 'P7']]);
    expect(t.locations.find((l) => l.name === 'v')?.sameAs).toBe('w');
    expect(t.assertions.map((a) => [a.expect, a.nochains, a.text])).toEqual([
      ['SATISFIABLE', false, 'consistent[X] && #dr=0'],
      ['NOSOLUTION', true, 'consistent[X] && !(#dr=0)'],
    ]);
  });

  const tests = own.filter((o) => o.file.endsWith('.test'));
  it(`round trip: reading the printed test gives the same test (${tests.length} files)`, () => {
    for (const { file, text } of tests) {
      const t = ok(parseKhronos(text, file));
      const printed = printKhronos(t);
      expect(printed.diagnostics, file).toEqual([]);
      const back = ok(parseKhronos(printed.text!, file));
      expect(stripSpans(back), file).toEqual(stripSpans(t));
    }
  });

  it('a .test converted to Dartagnan syntax reaches the same final states (its assertions become comments)', () => {
    for (const { file, text } of tests) {
      const t = ok(parseKhronos(text, file));
      const printed = printDat3m(t);
      expect(
        printed.diagnostics.map((d) => d.code),
        file,
      ).toEqual(printed.diagnostics.length === 0 ? [] : printed.diagnostics.map(() => 'VK4010'));
      const back = ok(parseDat3m(printed.text!, file));
      const states = (x: VulkanTest) =>
        runVulkan(x, DEFAULT_VK_RUN).states.map((s) => [s.values, s.count, s.race]);
      expect(states(back), file).toEqual(states(t));
    }
  });
});

function printVkCondText(t: VulkanTest): string {
  return printDat3m(t)
    .text!.split('\n')
    .find((l) => l.startsWith('filter'))!
    .replace(/^filter \((.*)\)$/, '$1');
}

describe('which syntax a file is in', () => {
  it('by extension, then by content', () => {
    expect(detectSyntax('NEWTHREAD\n', 'a.test')).toBe('khronos');
    expect(detectSyntax('VULKAN t\n', 'a.litmus')).toBe('dat3m');
    expect(detectSyntax('Vulkan t\n', 'a.litmus')).toBe('dat3m');
    expect(detectSyntax('// c\nNEWWG\nNEWTHREAD\n', 'a.txt')).toBe('khronos');
    expect(detectSyntax('AMDGPU t\n', 'a.litmus')).toBe('gpumm');
  });
});

const H = (body: string, cond = 'exists (P0:r0 == 0)') =>
  `VULKAN t\n{\nx=0; y=0;\n}\n P0@sg 0, wg 0, qf 0 ;\n${body}\n${cond}\n`;

/** Malformed Dartagnan files: input, then every diagnostic as `severity code@line:col`. */
const DAT3M_ERRORS: [string, string, string[]][] = [
  ['unterminated string', 'VULKAN t\n"abc\n{ x=0; }\n', ['error VK1001@2:1', 'error VK2002@3:8']],
  ['unexpected character', H(' ld.sc0 r0, x $ ;'), ['error VK1002@6:15']],
  ['unterminated comment', 'VULKAN t\n(* abc\n', ['error VK1003@2:1', 'error VK2002@2:6']],
  ['no header', '{ x=0; }\n', ['error VK2001@1:1']],
  ['missing comma', H(' ld.sc0 r0 x ;'), ['error VK2002@6:12']],
  ['unknown instruction', H(' foo.sc0 r0, x ;'), ['error VK2003@6:2']],
  ['modifier of another operation', H(' ld.rel.sc0 r0, x ;'), ['error VK2004@6:5']],
  ['two storage classes', H(' ld.sc0.sc1 r0, x ;'), ['error VK2005@6:9']],
  ['a row with too many cells', H(' ld.sc0 r0, x | st.sc0 x, 1 ;'), ['error VK2006@6:2']],
  [
    'a thread named twice',
    'VULKAN t\n{ x=0; }\n P0@sg 0, wg 0, qf 0 | P0@sg 1, wg 0, qf 0 ;\n ld.sc0 r0, x | ld.sc0 r0, x ;\nexists (P0:r0 == 0)\n',
    ['error VK2007@3:24', 'error VK2006@4:2'],
  ],
  [
    'an instruction row before the placement row (it crashed: no thread to put the cells in)',
    'VULKAN t\n{ x=0; }\n st.sc0 x, 1 | ld.sc0 r0, x ;\n P0@sg 0, wg 0, qf 0 | P1@sg 0, wg 1, qf 0 ;\nexists (P1:r0 == 2)\n',
    ['error VK2002@3:2'],
  ],
  [
    'a condition nested 4,000 deep (it overflowed the stack)',
    H(' ld.sc0 r0, x ;', `exists ${'('.repeat(4000)}P0:r0 == 0${')'.repeat(4000)}`),
    ['error VK2008@7:264'],
  ],
  ['no storage class', H(' ld r0, x ;'), ['error VK3001@6:2']],
  ['an atomic without a scope', H(' ld.atom.sc0 r0, x ;'), ['error VK3002@6:2']],
  [
    'a membar without an order',
    H(' membar.wg.semsc0 ;\n ld.sc0 r0, x ;'),
    ['error VK3003@6:2', 'warning VK3005@6:2'],
  ],
  ['.semvis without acquire', H(' ld.atom.wg.sc0.semvis r0, x ;'), ['error VK3004@6:17']],
  ['semantics without an order', H(' ld.atom.wg.sc0.semsc0 r0, x ;'), ['warning VK3005@6:2']],
  ['a barrier without storage classes', H(' membar.acq.wg ;\n ld.sc0 r0, x ;'), ['warning VK3006@6:2']],
  ['a scope on a plain access', H(' ld.wg.sc0 r0, x ;'), ['error VK3007@6:5']],
  ['an unknown label', H(' goto LC99 ;\n ld.sc0 r0, x ;'), ['error VK3008@6:2']],
  ['a label twice', H(' LC00: ;\n LC00: ;\n ld.sc0 r0, x ;'), ['error VK3009@7:2']],
  ['a register never assigned', H(' st.sc0 x, r5 ;\n ld.sc0 r0, x ;'), ['error VK3010@6:2']],
  ['an unknown thread', H(' ld.sc0 r0, x ;', 'exists (P7:r0 == 0)'), ['error VK3011@7:9']],
  ['an unknown register', H(' ld.sc0 r0, x ;', 'exists (P0:r3 == 0)'), ['error VK3012@7:9']],
  [
    'a location declared twice',
    'VULKAN t\n{\nx=0; x=1;\n}\n P0@sg 0, wg 0, qf 0 ;\n ld.sc0 r0, x ;\nexists (P0:r0 == 0)\n',
    ['error VK3013@3:6'],
  ],
  [
    'an alias of an undeclared location',
    'VULKAN t\n{\nx=z;\n}\n P0@sg 0, wg 0, qf 0 ;\n ld.sc0 r0, x ;\nexists (P0:r0 == 0)\n',
    ['error VK3014@3:1'],
  ],
  ['a quorum of 0', H(' cbar.acq_rel.wg.semsc0 1, 1, 0 ;\n ld.sc0 r0, x ;'), ['error VK3015@6:31']],
  ['an integer out of range', H(' st.sc0 x, 99999999999999999999 ;\n ld.sc0 r0, x ;'), ['error VK3016@6:12']],
  ['an unknown location in the condition', H(' ld.sc0 r0, x ;', 'exists (z == 0)'), ['error VK3017@7:9']],
];

/** Malformed Khronos files. */
const KHRONOS_ERRORS: [string, string, string[]][] = [
  ['a control character', 'NEWTHREAD\nst.sc0 x = 1\x01\n', ['error VK1002@2:13']],
  ['no storage class', 'NEWTHREAD\nst x = 1\n', ['error VK3001@2:1']],
  ['.semvis without acquire', 'NEWTHREAD\nld.atom.scopewg.sc0.semvis x\n', ['error VK3004@2:21']],
  ['an unknown token', 'NEWTHREAD\nst.foo.sc0 x = 1\n', ['error VK4001@2:4']],
  ['an instruction before NEWTHREAD', 'st.sc0 x = 1\nNEWTHREAD\n', ['error VK4002@1:1']],
  ['an unknown predicate', 'NEWTHREAD\nst.sc0 x = 1\nSATISFIABLE foo[X]\n', ['error VK4003@3:13']],
  ['NEWWG with an argument', 'NEWWG 3\nNEWTHREAD\nst.sc0 x = 1\n', ['error VK4004@1:7']],
  ['a thread number twice', 'NEWTHREAD 0\nst.sc0 x = 1\nNEWTHREAD 0\nld.sc0 x\n', ['error VK4005@3:1']],
  ['no operation', 'NEWTHREAD\nsc0 x = 1\n', ['error VK4006@2:1']],
  [
    'a predicate of inconsistent executions',
    'NEWTHREAD\nst.sc0 x = 1\nSATISFIABLE !consistent[X]\n',
    ['error VK4007@3:13'],
  ],
];

const found = (ds: { severity: string; code: string; span: { line: number; col: number } }[]) =>
  ds.map((d) => `${d.severity} ${d.code}@${d.span.line}:${d.span.col}`);

describe('diagnostics: a code and a position for every kind of malformed input', () => {
  for (const [what, text, want] of DAT3M_ERRORS)
    it(`Dartagnan: ${what}`, () => {
      const r = parseDat3m(text, 't.litmus');
      expect(found(r.diagnostics)).toEqual(want);
      if (want.some((w) => w.startsWith('error'))) expect(r.test).toBeNull();
    });
  for (const [what, text, want] of KHRONOS_ERRORS)
    it(`Khronos: ${what}`, () => {
      const r = parseKhronos(text, 't.test');
      expect(found(r.diagnostics)).toEqual(want);
      expect(r.test).toBeNull();
    });

  it('every error of a file is reported, not only the first', () => {
    const r = parseDat3m(H(' foo r0, x ;\n ld r1, x ;\n ld.sc0 r0 x ;'), 't.litmus');
    expect(found(r.diagnostics)).toEqual(['error VK2003@6:2', 'error VK3001@7:2', 'error VK2002@8:12']);
    const k = parseKhronos('NEWTHREAD\nst.foo.sc0 x = 1\nst x = 1\nSATISFIABLE bar[X]\n', 't.test');
    expect(found(k.diagnostics)).toEqual(['error VK4001@2:4', 'error VK3001@3:1', 'error VK4003@4:13']);
  });

  it('conversions say what a syntax cannot write (VK4008), writes differently (VK4010) or orders more (VK4009)', () => {
    const t = ok(parseDat3m(H(' ld.sc0 r0, x ;\n ld.sc0 r1, y ;', 'exists (P0:r0 == P0:r1)'), 't.litmus'));
    expect(found(printKhronos(t).diagnostics)).toEqual(['error VK4008@8:1']);
    const k = ok(parseKhronos('NEWTHREAD\nst.sc0 x = 1\nSATISFIABLE consistent[X]\n', 't.test'));
    expect(found(printDat3m(k).diagnostics)).toEqual(['warning VK4010@3:1']);
    const a = ok(parseDat3m(H(' rmw.atom.acq_rel.dv.sc0.semsc0.semav.add r0, x, 1 ;'), 't.litmus'));
    expect(found(vulkanToAmdgpu(a).diagnostics)).toEqual(['warning VK4009@6:2']);
  });

  it('has a row for every VK code of the diagnostics table', () => {
    const covered = new Set(
      [...DAT3M_ERRORS, ...KHRONOS_ERRORS].flatMap(([, , want]) =>
        want.map((w) => w.split(' ')[1]!.split('@')[0]!),
      ),
    );
    for (const c of ['VK4008', 'VK4009', 'VK4010']) covered.add(c); // the conversions, above
    expect(Object.keys(DIAGNOSTICS).filter((c) => c.startsWith('VK') && !covered.has(c))).toEqual([]);
  });
});
