import { describe, expect, it } from 'vitest';
import { clipQuote, DIAGNOSTICS, type DiagnosticCode, MAX_QUOTE } from '../core/diagnostics.ts';
import { parse } from './parser.ts';
import { print, printInstr } from './printer.ts';
import { stripSpans } from './testing.ts';

const HEAD = `AMDGPU T
"d"
@x = addrspace(1) global i32 0
@y = addrspace(1) global i32 0
@l = addrspace(3) global i32 undef
@c = addrspace(4) constant i32 7
@bar = addrspace(3) global target("amdgcn.named.barrier", 0) undef
`;

/** A test whose single thread P0 has `body`; `extra` is appended after the thread. */
function oneThread(body: string, extra = ''): string {
  return `${HEAD}P0 @ agent 0, workgroup 0 {\n${body}\n}\n${extra}`;
}

function ok(text: string) {
  const r = parse(text, 't.litmus');
  expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  expect(r.test).not.toBeNull();
  return r.test!;
}

describe('parse: accepted forms', () => {
  it('reads header, description, expectations, locations, placement and condition', () => {
    const t = ok(
      `AMDGPU MP+rel+acq.agent ; comment
"Message passing"
expect: condition fails
expect: race-free
expect: no-undef
expect: no-ub
@x = addrspace(1) global i32 0
@y = global i32 5
@l = addrspace(3) global i32 undef
P0 @ agent 1, cluster 2, wg 3, wf 4 {
  store i32 1, ptr addrspace(1) @x, align 4
}
P1 @ host {
  %r0 = load atomic i32, ptr @y seq_cst, align 4
}
P2 {
  %a = load i32, ptr addrspace(3) @l
}
~exists (P1:%r0 == 1 /\\ (@x = 0 \\/ ~P2:r_1 != undef))
`.replace('r_1', '%a'),
    );
    expect(t.name).toBe('MP+rel+acq.agent');
    expect(ok(`AMDGPU 2+2W\nP0 {\n}\n`).name).toBe('2+2W');
    expect(t.description).toBe('Message passing');
    expect(t.expects.map((e) => `${e.key}=${e.value}`)).toEqual([
      'condition=fails',
      'race=race-free',
      'undef=no-undef',
      'ub=no-ub',
    ]);
    expect(t.locations.map((l) => [l.name, l.space, l.init])).toEqual([
      ['x', 'global', 0],
      ['y', 'global', 5],
      ['l', 'local', 'undef'],
    ]);
    expect(t.threads.map((th) => th.placement)).toEqual([
      { kind: 'device', agent: 1, cluster: 2, workgroup: 3, wavefront: 4 },
      { kind: 'host' },
      { kind: 'device', agent: 0, cluster: 0, workgroup: 0, wavefront: 0 },
    ]);
    expect(t.condition?.quantifier).toBe('not exists');
    expect(t.condition?.cond.kind).toBe('and');
  });

  it('reads every instruction form with its flags', () => {
    const t = ok(
      oneThread(`  %a = load atomic volatile i32, ptr addrspace(1) @x syncscope("agent-one-as") acquire, align 4, !nontemporal !0
  store volatile i32 %a, ptr @y, !nontemporal !{i32 1}
  %b = atomicrmw volatile umax ptr addrspace(1) @x, i32 3 syncscope("workgroup") acq_rel, !mmra !1
  %c = cmpxchg weak ptr addrspace(1) @y, i32 0, i32 %b syncscope("wavefront") seq_cst acquire
  %d = extractvalue { i32, i1 } %c, 1
  fence syncscope("one-as") release, !mmra !{!"amdgcn-av", !"none"}
  call void @llvm.amdgcn.av.global.store.b128(ptr addrspace(1) @x, <4 x i32> 9, metadata !"agent")
  %e = call <4 x i32> @llvm.amdgcn.av.global.load.b128(ptr addrspace(1) @y, metadata !"")
  %f = add nsw i32 %a, -1
  %g = icmp ne i32 %f, 0
  %h = select i1 %g, i32 %f, i32 7
  %i = load i32, ptr addrspacecast (ptr addrspace(3) @l to ptr)
  %j = load i32, i32 addrspace(4)* @c
  call void @llvm.amdgcn.s.barrier()
  call void @llvm.amdgcn.s.barrier.signal(i32 -1)
  %k = call i1 @llvm.amdgcn.s.barrier.signal.isfirst(i32 -1)
  call void @llvm.amdgcn.s.barrier.wait(i16 -1)
  call void @llvm.amdgcn.s.barrier.init(ptr addrspace(3) @bar, i32 2)
  call void @llvm.amdgcn.s.barrier.join(ptr addrspace(3) @bar)
  call void @llvm.amdgcn.s.barrier.signal.var(ptr addrspace(3) @bar, i32 2)
  call void @llvm.amdgcn.s.barrier.leave(i16 1)`) + '!0 = !{i32 1}\n!1 = !{!"amdgcn-av", !"none"}\n',
    );
    const body = t.threads[0]!.body;
    expect(body.map((i) => i.kind)).toEqual([
      'load',
      'store',
      'rmw',
      'cmpxchg',
      'extract',
      'fence',
      'avstore',
      'avload',
      'bin',
      'icmp',
      'select',
      'load',
      'load',
      'barrier',
      'barrier',
      'barrier',
      'barrier',
      'barrier',
      'barrier',
      'barrier',
      'barrier',
    ]);
    expect(body[0]).toMatchObject({
      ordering: 'acquire',
      volatile: true,
      nontemporal: true,
      avNone: false,
      syncscope: { scope: 'agent', oneAs: true },
    });
    expect(body[1]).toMatchObject({
      ordering: 'notatomic',
      volatile: true,
      nontemporal: true,
      ptr: { loc: 'y', space: 'generic' },
    });
    expect(body[2]).toMatchObject({ op: 'umax', avNone: true, ordering: 'acq_rel' });
    expect(body[3]).toMatchObject({
      weak: true,
      success: 'seq_cst',
      failure: 'acquire',
      syncscope: { scope: 'wavefront' },
    });
    expect(body[5]).toMatchObject({
      kind: 'fence',
      avNone: true,
      syncscope: { scope: 'system', oneAs: true },
    });
    expect(body[6]).toMatchObject({ scope: 'agent', type: '<4 x i32>' });
    expect(body[7]).toMatchObject({ scope: 'system', type: '<4 x i32>' });
    expect(body[11]).toMatchObject({ ptr: { loc: 'l', space: 'generic' } });
    expect(body[12]).toMatchObject({ ptr: { loc: 'c', space: 'constant' } });
    expect(body.slice(13).map((i) => (i.kind === 'barrier' ? i.op : ''))).toEqual([
      'barrier',
      'signal',
      'signal_isfirst',
      'wait',
      'init',
      'join',
      'signal_var',
      'leave',
    ]);
  });

  it('round-trips its own output', () => {
    const t = ok(
      oneThread(
        '  %a = load i32, ptr @x\n  store i32 %a, ptr addrspace(1) @y',
        'forall (P0:%a == 0 \\/ @y != 1)\n',
      ),
    );
    const again = ok(print(t));
    expect(stripSpans(again)).toEqual(stripSpans(t));
  });

  it('prints each compound sub-condition in one pair of parentheses', () => {
    const t = ok(
      oneThread('  %a = load i32, ptr @x', 'exists (P0:%a == 1 /\\ (@x != 1 \\/ ~(@y == 0 /\\ @x == 2)))\n'),
    );
    expect(print(t).trimEnd().split('\n').at(-1)).toBe(
      'exists (P0:%a == 1 /\\ (@x != 1 \\/ ~(@y == 0 /\\ @x == 2)))',
    );
  });

  it('skips the parts of a pasted LLVM module that carry nothing for a litmus test', () => {
    const t = ok(`AMDGPU pasted
target triple = "amdgcn-amd-amdhsa"
source_filename = "k.cl"
declare void @llvm.amdgcn.s.barrier()
attributes #0 = { nounwind }
@x = addrspace(1) global i32 0
P0 {
entry:
  store atomic i32 1, ptr addrspace(1) @x syncscope("agent") release, align 4
  call void @llvm.amdgcn.s.barrier() #0
  ret void
}
`);
    expect(t.threads[0]!.body.map((i) => i.kind)).toEqual(['store', 'barrier']);
  });

  it('accepts a condition spread over several lines and herd-style register names', () => {
    const t = ok(oneThread('  %r0 = load i32, ptr @x', 'exists\n  (P0:r0 == 0\n   /\\ 0:%r0 = 0)\n'));
    expect(t.condition?.cond).toMatchObject({
      kind: 'and',
      args: [{ lhs: { thread: 'P0', reg: 'r0' } }, { lhs: { thread: 'P0' } }],
    });
  });
});

/** [name, text, expected code, line, col] — one row per error kind. */
const ERRORS: [string, string, DiagnosticCode, number, number][] = [
  ['unterminated string', 'AMDGPU T\n"abc\n', 'LT1001', 2, 1],
  ['unexpected character', oneThread('  store i32 1, ptr @x ^'), 'LT1002', 9, 23],
  ['missing header', '@x = global i32 0\nP0 {\n}\n', 'LT2001', 1, 1],
  ['unsupported arch', 'PTX T\n', 'LT2002', 1, 1],
  ['missing comma', oneThread('  store i32 1 ptr @x'), 'LT2003', 9, 15],
  ['unknown instruction', oneThread('  frobnicate i32 1'), 'LT2004', 9, 3],
  ['unknown ordering', oneThread('  %a = load atomic i32, ptr @x acquired'), 'LT2005', 9, 32],
  ['unknown syncscope', oneThread('  fence syncscope("device") acquire'), 'LT2006', 9, 19],
  ['unknown expectation', `${HEAD}expect: maybe\nP0 {\n}\n`, 'LT2007', 8, 9],
  ['unknown rmw op', oneThread('  atomicrmw fadd ptr @x, i32 1 monotonic'), 'LT2008', 9, 13],
  ['unknown type', oneThread('  store float 1, ptr @x'), 'LT2009', 9, 9],
  ['trailing tokens', oneThread('  fence acquire acquire'), 'LT2010', 9, 17],
  ['unknown intrinsic', oneThread('  call void @llvm.amdgcn.s.sleep(i32 1)'), 'LT2012', 9, 13],
  ['unclosed thread', `${HEAD}P0 {\n  fence acquire\n`, 'LT2013', 8, 1],
  ['unknown coordinate', `${HEAD}P0 @ queue 1 {\n}\n`, 'LT2014', 8, 6],
  ['instruction outside a thread', `${HEAD}fence acquire\nP0 {\n}\n`, 'LT2015', 8, 1],
  ['bad address space', oneThread('  store i32 1, ptr addrspace(7) @x'), 'LT2016', 9, 20],
  ['integer out of range', oneThread('  store i32 99999999999999999999, ptr @x'), 'LT2017', 9, 13],
  ['unknown icmp predicate', oneThread('  %a = icmp lt i32 1, 2'), 'LT2018', 9, 13],
  ['two conditions', oneThread('  fence acquire', 'exists (true)\nexists (true)\n'), 'LT2019', 12, 1],
  ['escape sequence in a string', `${HEAD}"d\x1b[2J"\n`, 'LT1002', 8, 3],
  ['bidi control in the test name', 'AMDGPU t\u202eevil\nP0 {\n}\n', 'LT1002', 1, 9],
  ['bad mmra', oneThread('  fence release, !mmra !{!"amdgcn-av", !"workgroup"}'), 'LT2020', 9, 24],
  [
    'unknown synchronize-as space',
    oneThread('  fence release, !mmra !{!"amdgpu-synchronize-as", !"private"}'),
    'LT2021',
    9,
    24,
  ],
  ['region (GDS) location', `${HEAD}@r = addrspace(2) global i32 0\nP0 {\n}\n`, 'LT2023', 8, 19],
  [
    'lanes with different barriers',
    `${HEAD}P0 {\n  call void @llvm.amdgcn.s.barrier()\n}\nP1 {\n  fence acquire\n}\n`,
    'LT3023',
    11,
    1,
  ],
  ['region (GDS) pointer', oneThread('  store i32 1, ptr addrspace(2) @x'), 'LT2023', 9, 20],
  // The 257th bracket or negation is the one reported (MAX_NESTING = 256).
  [
    'brackets nested too deep',
    oneThread('  fence acquire', `exists ${'('.repeat(1300)}@x == 1${')'.repeat(1300)}\n`),
    'LT2024',
    11,
    8 + 256,
  ],
  [
    'negations nested too deep',
    oneThread('  fence acquire', `exists ${'~'.repeat(5000)}@x == 1\n`),
    'LT2024',
    11,
    8 + 256,
  ],
  [
    'vector type nested too deep',
    `${HEAD}@v = global ${'<1 x '.repeat(300)}i32${'>'.repeat(300)} 0\nP0 {\n}\n`,
    'LT2024',
    8,
    13 + 5 * 256,
  ],
  ['store with acquire', oneThread('  store atomic i32 1, ptr @x acquire'), 'LT3001', 9, 30],
  ['load with release', oneThread('  %a = load atomic i32, ptr @x release'), 'LT3001', 9, 32],
  ['fence monotonic', oneThread('  fence monotonic'), 'LT3001', 9, 9],
  ['unordered rmw', oneThread('  atomicrmw add ptr @x, i32 1 unordered'), 'LT3001', 9, 31],
  ['cmpxchg release failure', oneThread('  cmpxchg ptr @x, i32 0, i32 1 acq_rel release'), 'LT3001', 9, 40],
  ['plain load with ordering', oneThread('  %a = load i32, ptr @x acquire'), 'LT3002', 9, 25],
  ['undefined location', oneThread('  store i32 1, ptr @z'), 'LT3003', 9, 20],
  ['duplicate location', `${HEAD}@x = global i32 1\nP0 {\n}\n`, 'LT3004', 8, 1],
  ['undefined register', oneThread('  store i32 %nope, ptr @x'), 'LT3005', 9, 13],
  ['register defined twice', oneThread('  %a = load i32, ptr @x\n  %a = load i32, ptr @y'), 'LT3006', 10, 3],
  ['duplicate thread', `${HEAD}P0 {\n}\nP0 {\n}\n`, 'LT3007', 10, 1],
  ['contradictory placement', `${HEAD}P0 @ workgroup 0, wg 1 {\n}\n`, 'LT3008', 8, 19],
  ['host with coordinates', `${HEAD}P0 @ host, agent 1 {\n}\n`, 'LT3008', 8, 10],
  [
    'local memory from two agents',
    `${HEAD}P0 @ agent 0 {\n  store i32 1, ptr addrspace(3) @l\n}\nP1 @ agent 1 {\n  %a = load i32, ptr addrspace(3) @l\n}\n`,
    'LT3009',
    12,
    35,
  ],
  ['local memory from the host', `${HEAD}P0 @ host {\n  store i32 1, ptr @l\n}\n`, 'LT3009', 9, 20],
  ['pointer space mismatch', oneThread('  store i32 1, ptr addrspace(3) @x'), 'LT3010', 9, 33],
  [
    'condition names unknown register',
    oneThread('  %a = load i32, ptr @x', 'exists (P0:%b == 1)\n'),
    'LT3011',
    11,
    9,
  ],
  [
    'condition names unknown thread',
    oneThread('  %a = load i32, ptr @x', 'exists (P9:%a == 1)\n'),
    'LT3011',
    11,
    9,
  ],
  ['store to constant', oneThread('  store i32 1, ptr addrspace(4) @c'), 'LT3012', 9, 33],
  ['undefined metadata', oneThread('  store i32 1, ptr @x, !nontemporal !7'), 'LT3013', 9, 37],
  [
    'av intrinsic on LDS',
    oneThread('  call void @llvm.amdgcn.av.global.store.b128(ptr addrspace(3) @l, i32 1, metadata !"agent")'),
    'LT3014',
    9,
    64,
  ],
  ['data access to barrier object', oneThread('  store i32 1, ptr addrspace(3) @bar'), 'LT3015', 9, 33],
  [
    'barrier op on data',
    oneThread('  call void @llvm.amdgcn.s.barrier.join(ptr addrspace(3) @l)'),
    'LT3015',
    9,
    58,
  ],
  ['metadata defined twice', oneThread('  fence acquire', '!0 = !{i32 1}\n!0 = !{i32 1}\n'), 'LT3016', 12, 1],
  [
    'ambiguous local location in condition',
    `${HEAD}P0 @ workgroup 0 {\n  store i32 1, ptr addrspace(3) @l\n}\nP1 @ workgroup 1 {\n  store i32 2, ptr addrspace(3) @l\n}\nexists (@l == 1)\n`,
    'LT3017',
    14,
    9,
  ],
  [
    'extractvalue of a plain value',
    oneThread('  %a = load i32, ptr @x\n  %b = extractvalue { i32, i1 } %a, 0'),
    'LT3018',
    10,
    33,
  ],
  ['expectation twice', `${HEAD}expect: racy\nexpect: race-free\nP0 {\n}\n`, 'LT3019', 9, 9],
  // A file-wide diagnostic points at the last non-blank character, so its caret sits under text.
  ['no threads', `${HEAD}`, 'LT3020', 7, 66],
  ['no threads, one-character file', 'x', 'LT3020', 1, 1],
  ['trap barrier id', oneThread('  call void @llvm.amdgcn.s.barrier.signal(i32 -2)'), 'LT3022', 9, 47],
  ['barrier id out of range', oneThread('  call void @llvm.amdgcn.s.barrier.wait(i16 17)'), 'LT3022', 9, 45],
  [
    'zero barrier count',
    oneThread('  call void @llvm.amdgcn.s.barrier.init(ptr addrspace(3) @bar, i32 0)'),
    'LT3021',
    9,
    68,
  ],
];

describe('parse: diagnostics (code and position for every error kind)', () => {
  it.each(ERRORS)('%s', (_name, text, code, line, col) => {
    const r = parse(text, 'bad.litmus');
    expect(r.test).toBeNull();
    const found = r.diagnostics
      .filter((d) => d.severity === 'error')
      .map((d) => `${d.code}@${d.span.line}:${d.span.col}`);
    expect(found).toContain(`${code}@${line}:${col}`);
    for (const d of r.diagnostics) {
      expect(d.hint.length).toBeGreaterThan(0);
      expect(d.span.file).toBe('bad.litmus');
    }
  });

  it('reports every error of a file at once, recovering at the next line', () => {
    const r = parse(
      oneThread('  frob\n  store i32 1, ptr @z\n  fence monotonic\n  %a = load atomic i32, ptr @x acquired'),
      'f',
    );
    expect(r.diagnostics.map((d) => `${d.code}@${d.span.line}`)).toEqual([
      'LT2004@9',
      'LT3003@10',
      'LT3001@11',
      'LT2005@12',
    ]);
  });

  it('reports a broken register definition once, not again at each use', () => {
    const r = parse(
      oneThread(
        '  %a = load atomic i32, ptr @x acquired\n  store i32 %a, ptr @y\n  %b = add i32 %c, 1',
        'exists (P0:%a == 1 /\\ P0:%d == 0)\n',
      ),
      'f',
    );
    // %a's line is wrong (LT2005); its uses in line 10 and the condition are not reported again,
    // while %c and %d, never defined, still are.
    expect(r.diagnostics.map((d) => `${d.code}@${d.span.line}`)).toEqual([
      'LT2005@9',
      'LT3005@11',
      'LT3011@13',
    ]);
  });

  it('reports a broken location declaration once, not again at each use', () => {
    const r = parse(
      [
        'AMDGPU t',
        '@g = addrspace(2) global i32 0',
        '@x = global i32 0 junk',
        'P0 @ agent 0 {',
        '  store i32 1, ptr @g',
        '  store i32 1, ptr @x',
        '  store i32 1, ptr @z',
        '}',
        'exists (@g == 1 /\\ @x == 1 /\\ @w == 1)',
        '',
      ].join('\n'),
      'f',
    );
    // @g (a refused address space) and @x (a stray word) are reported on their own lines only;
    // @z and @w, never declared, still are.
    expect(r.diagnostics.map((d) => `${d.code}@${d.span.line}`)).toEqual([
      'LT2023@2',
      'LT2010@3',
      'LT3003@7',
      'LT3011@9',
    ]);
  });

  it('keeps warnings for ignored metadata without failing the parse', () => {
    const r = parse(oneThread('  store i32 1, ptr @x, !tbaa !{!"int"}'), 'f');
    expect(r.test).not.toBeNull();
    expect(r.diagnostics.map((d) => `${d.severity} ${d.code}`)).toEqual(['warning LT2011']);
  });

  it('reads amdgpu-synchronize-as tags on fences: one tag, a tuple of tags, with amdgcn-av, defined later', () => {
    const t = ok(
      oneThread(
        [
          '  fence syncscope("workgroup") release, !mmra !{!"amdgpu-synchronize-as", !"local"}',
          '  fence acquire, !mmra !2',
          '  fence acq_rel, !mmra !{!1, !{!"amdgcn-av", !"none"}}',
          '  fence seq_cst',
          '  call void @llvm.amdgcn.wave.barrier()',
        ].join('\n'),
        '!1 = !{!"amdgpu-synchronize-as", !"global"}\n!2 = !{!3, !1}\n!3 = !{!"amdgpu-synchronize-as", !"local"}\n',
      ),
    );
    const body = t.threads[0]!.body;
    expect(body.map((i) => (i.kind === 'fence' ? [i.syncAs, i.avNone] : i.kind))).toEqual([
      [['local'], false],
      [['global', 'local'], false],
      [['global'], true],
      [[], false],
      'wavebarrier',
    ]);
    // The printed form parses back to the same instructions.
    const again = ok(print(t));
    expect(again.threads[0]!.body.map(printInstr)).toEqual(body.map(printInstr));
  });

  it('warns that amdgpu-synchronize-as on an access is ignored, as LLVM ignores it', () => {
    const r = parse(
      oneThread('  store atomic i32 1, ptr @x monotonic, !mmra !{!"amdgpu-synchronize-as", !"local"}'),
      'f',
    );
    expect(r.test).not.toBeNull();
    expect(r.diagnostics.map((d) => `${d.severity} ${d.code}@${d.span.line}:${d.span.col}`)).toEqual([
      'warning LT2022@9:47',
    ]);
  });

  it('has a test row for every LT code of the diagnostics table', () => {
    const covered = new Set<string>(ERRORS.map((e) => e[2]));
    covered.add('LT2011'); // the warning, tested above
    covered.add('LT2022'); // the warning, tested above
    const missing = Object.keys(DIAGNOSTICS).filter((c) => c.startsWith('LT') && !covered.has(c));
    expect(missing).toEqual([]);
  });
});

describe('parse: any file', () => {
  it('quotes at most MAX_QUOTE characters of a huge name, and the span covers all of it', () => {
    const name = `@${'x'.repeat(1_000_000)}`;
    const r = parse(`AMDGPU t\nP0 {\n  store i32 1, ptr ${name}\n}\n`, 'f.litmus');
    const d = r.diagnostics.find((x) => x.code === 'LT3003')!;
    expect(d.span.len).toBe(name.length);
    expect(d.message.length).toBeLessThan(MAX_QUOTE + 40);
    expect(d.message).toMatch(/^undefined location '@x+…x+'$/);
  });

  it('clipQuote never splits a surrogate pair', () => {
    for (let k = 0; k < 4; k++) {
      const s = `${'a'.repeat(k)}${'\u{1f600}'.repeat(100)}`;
      expect(clipQuote(s)).not.toMatch(/\p{Cs}/u);
      expect(clipQuote(s).length).toBeLessThanOrEqual(MAX_QUOTE);
    }
  });

  it('reports every one of 130,000 errors (no stack overflow collecting them)', () => {
    const lexical = parse(`${'$\n'.repeat(130_000)}AMDGPU t\nP0 {\n}\n`, 'f.litmus');
    expect(lexical.diagnostics.filter((d) => d.code === 'LT1002')).toHaveLength(130_000);
    const undefinedUses = parse(
      `AMDGPU t\nP0 {\n${'  store i32 1, ptr @nope\n'.repeat(130_000)}}\n`,
      'f.litmus',
    );
    expect(undefinedUses.diagnostics.filter((d) => d.code === 'LT3003')).toHaveLength(130_000);
  });

  it('keeps at most a few strings per metadata node, however nodes nest', () => {
    const defs = Array.from({ length: 64 }, (_, i) => `!${i + 1} = !{!${i}, !${i}}`).join('\n');
    const r = parse(
      `AMDGPU t\n!0 = !{!"a", !"b"}\n${defs}\nP0 {\n  fence release, !mmra !64\n}\n`,
      'f.litmus',
    );
    expect(r.diagnostics.map((d) => d.code)).toEqual(['LT2020']);
  });
});
