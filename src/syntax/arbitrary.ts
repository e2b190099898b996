/**
 * fast-check generators of well-formed litmus tests (ASTs that the parser accepts), for property
 * tests of the front end and, later, of the model.
 */
import fc from 'fast-check';
import {
  type AddressSpace,
  type Cond,
  type Condition,
  type Expectation,
  type Instr,
  type Location,
  type Operand,
  type Ordering,
  type Placement,
  RMW_OPS,
  SCOPES,
  type Span,
  SYNC_AS,
  type SyncScope,
  type Test,
  type Thread,
} from '../core/types.ts';
import { ALLOWED_ORDERINGS } from './parser.ts';

const SPAN: Span = { file: '', offset: 0, line: 0, col: 0, len: 0 };

/**
 * Moves each thread whose barrier operations differ from those of an earlier thread of its
 * wavefront to a wavefront of its own (lanes of one wave perform the same barrier operations:
 * LT3023, docs/model.md choice 35). Threads whose barrier operations agree stay lanes of one wave.
 */
export function uniformLanes(threads: Thread[]): Thread[] {
  const sig = (t: Thread) =>
    t.body.flatMap((i) => (i.kind === 'barrier' ? [`${i.op} ${i.id} ${i.object} ${i.count}`] : [])).join('|');
  const first = new Map<string, string>();
  return threads.map((t, k) => {
    const p = t.placement;
    if (p.kind === 'host') return t;
    const key = `${p.agent}.${p.cluster}.${p.workgroup}.${p.wavefront}`;
    const s = sig(t);
    const f = first.get(key);
    if (f === undefined) first.set(key, s);
    if (f === undefined || f === s) return t;
    return { ...t, placement: { ...p, wavefront: 100 + k } };
  });
}

const GLOBALS = ['x', 'y', 'z'];

const int = fc.integer({ min: -5, max: 9 });
const syncscope: fc.Arbitrary<SyncScope> = fc.record({
  scope: fc.constantFrom(...SCOPES),
  oneAs: fc.boolean(),
});
const flags = fc.record({ volatile: fc.boolean(), nontemporal: fc.boolean(), avNone: fc.boolean() });
const ord = (site: keyof typeof ALLOWED_ORDERINGS): fc.Arbitrary<Ordering> =>
  fc.constantFrom(...(ALLOWED_ORDERINGS[site] as readonly Ordering[]));

interface Ctx {
  /** Locations this thread may use, with the pointer spaces that can name them. */
  data: { name: string; spaces: AddressSpace[]; writable: boolean }[];
  barrier: string | null;
}

/** One thread body: instructions that only read registers defined before them. */
function body(ctx: Ctx, prefix: string): fc.Arbitrary<Instr[]> {
  return fc.array(fc.nat(1000), { minLength: 1, maxLength: 6 }).chain((seeds) => {
    const regs: string[] = [];
    const pairs: string[] = [];
    const arbs: fc.Arbitrary<Instr>[] = [];
    seeds.forEach((seed, k) => {
      const avail = [...regs];
      const pairAvail = [...pairs];
      const dst = `${prefix}r${k}`;
      const used = Math.floor(seed / 7) % 2 === 0; // whether an rmw/cmpxchg result is named
      const operand: fc.Arbitrary<Operand> =
        avail.length > 0
          ? fc.oneof(
              int.map((v) => ({ kind: 'const', value: v }) as Operand),
              fc.constantFrom(...avail).map((n) => ({ kind: 'reg', name: n }) as Operand),
            )
          : int.map((v) => ({ kind: 'const', value: v }) as Operand);
      const loc = fc
        .constantFrom(...ctx.data)
        .chain((d) =>
          fc.constantFrom(...d.spaces).map((space) => ({ loc: d.name, space, writable: d.writable })),
        );
      const wloc = ctx.data.some((d) => d.writable)
        ? fc
            .constantFrom(...ctx.data.filter((d) => d.writable))
            .chain((d) => fc.constantFrom(...d.spaces).map((space) => ({ loc: d.name, space })))
        : null;
      const choices: [string, () => fc.Arbitrary<Instr>][] = [
        [
          'load',
          () =>
            fc
              .record({
                ptr: loc,
                atomic: fc.boolean(),
                o: ord('load'),
                s: syncscope,
                f: flags,
                type: fc.constantFrom('i32', 'i64'),
              })
              .map(({ ptr, atomic, o, s, f, type }) => ({
                kind: 'load',
                dst,
                type,
                ptr: { loc: ptr.loc, space: ptr.space },
                ordering: atomic ? o : 'notatomic',
                syncscope: atomic ? s : { scope: 'system', oneAs: false },
                ...f,
                avNone: atomic ? f.avNone : f.avNone,
                span: SPAN,
              })),
        ],
        [
          'fence',
          () =>
            fc
              .record({ o: ord('fence'), s: syncscope, n: fc.boolean(), a: fc.subarray([...SYNC_AS]) })
              .map(({ o, s, n, a }) => ({
                kind: 'fence',
                ordering: o,
                syncscope: s,
                avNone: n,
                syncAs: a,
                span: SPAN,
              })),
        ],
        [
          'bin',
          () =>
            fc
              .record({
                op: fc.constantFrom('add', 'sub', 'xor', 'mul', 'and', 'shl'),
                a: operand,
                b: operand,
              })
              .map(({ op, a, b }) => ({ kind: 'bin', dst, op, type: 'i32', a, b, span: SPAN }) as Instr),
        ],
        [
          'icmp',
          () =>
            fc
              .record({ p: fc.constantFrom('eq', 'ne', 'slt', 'uge'), a: operand, b: operand })
              .map(({ p, a, b }) => ({ kind: 'icmp', dst, pred: p, type: 'i32', a, b, span: SPAN }) as Instr),
        ],
        [
          'select',
          () =>
            fc
              .record({ c: operand, a: operand, b: operand })
              .map(
                ({ c, a, b }) => ({ kind: 'select', dst, type: 'i32', cond: c, a, b, span: SPAN }) as Instr,
              ),
        ],
      ];
      if (wloc) {
        choices.push(
          [
            'store',
            () =>
              fc
                .record({
                  ptr: wloc,
                  atomic: fc.boolean(),
                  o: ord('store'),
                  s: syncscope,
                  f: flags,
                  v: operand,
                })
                .map(({ ptr, atomic, o, s, f, v }) => ({
                  kind: 'store',
                  type: 'i32',
                  value: v,
                  ptr,
                  ordering: atomic ? o : 'notatomic',
                  syncscope: atomic ? s : { scope: 'system', oneAs: false },
                  ...f,
                  span: SPAN,
                })),
          ],
          [
            'rmw',
            () =>
              fc
                .record({
                  ptr: wloc,
                  op: fc.constantFrom(...RMW_OPS),
                  o: ord('atomicrmw'),
                  s: syncscope,
                  f: flags,
                  v: operand,
                })
                .map(({ ptr, op, o, s, f, v }) => ({
                  kind: 'rmw',
                  dst: used ? dst : null,
                  op,
                  type: 'i32',
                  ptr,
                  value: v,
                  ordering: o,
                  syncscope: s,
                  ...f,
                  span: SPAN,
                })),
          ],
          [
            'cmpxchg',
            () =>
              fc
                .record({
                  ptr: wloc,
                  o: ord('cmpxchg success'),
                  fo: ord('cmpxchg failure'),
                  s: syncscope,
                  f: flags,
                  e: operand,
                  d: operand,
                  weak: fc.boolean(),
                })
                .map(({ ptr, o, fo, s, f, e, d, weak }) => ({
                  kind: 'cmpxchg',
                  dst: used ? dst : null,
                  weak,
                  type: 'i32',
                  ptr,
                  expected: e,
                  desired: d,
                  success: o,
                  failure: fo,
                  syncscope: s,
                  ...f,
                  span: SPAN,
                })),
          ],
        );
        const g = ctx.data.find((d) => d.writable && d.spaces.includes('global'));
        if (g) {
          choices.push(
            [
              'avstore',
              () =>
                fc.record({ s: fc.constantFrom(...SCOPES), v: operand }).map(({ s, v }) => ({
                  kind: 'avstore',
                  type: 'i32',
                  value: v,
                  ptr: { loc: g.name, space: 'global' },
                  scope: s,
                  span: SPAN,
                })),
            ],
            [
              'avload',
              () =>
                fc.constantFrom(...SCOPES).map((s) => ({
                  kind: 'avload',
                  dst,
                  type: 'i32',
                  ptr: { loc: g.name, space: 'global' },
                  scope: s,
                  span: SPAN,
                })),
            ],
          );
        }
      }
      if (pairAvail.length > 0) {
        choices.push([
          'extract',
          () =>
            fc
              .record({ src: fc.constantFrom(...pairAvail), i: fc.constantFrom(0 as const, 1 as const) })
              .map(({ src, i }) => ({ kind: 'extract', dst, type: '{ i32, i1 }', src, index: i }))
              .map((x) => ({ ...x, span: SPAN }) as Instr),
        ]);
      }
      const base = { kind: 'barrier' as const, id: null, object: null, count: null, dst: null, span: SPAN };
      // Barrier ids a shader may name: -3, -1, 0 … 16 (the trap barriers -2 and -4 are LT3022).
      const shaderId = (max: number) => fc.integer({ min: -3, max }).filter((id) => id !== -2);
      choices.push([
        'barrier',
        () =>
          fc.oneof(
            fc.constant({ ...base, op: 'barrier' } as Instr),
            shaderId(16).map((id) => ({ ...base, op: 'signal', id }) as Instr),
            shaderId(16).map((id) => ({ ...base, op: 'wait', id }) as Instr),
            fc.integer({ min: 0, max: 1 }).map((id) => ({ ...base, op: 'leave', id }) as Instr),
            shaderId(1).map((id) => ({ ...base, op: 'signal_isfirst', id, dst }) as Instr),
            ...(ctx.barrier
              ? [
                  fc
                    .integer({ min: 1, max: 8 })
                    .map((n) => ({ ...base, op: 'init', object: ctx.barrier, count: n }) as Instr),
                  fc.constant({ ...base, op: 'join', object: ctx.barrier } as Instr),
                  fc
                    .integer({ min: 1, max: 8 })
                    .map((n) => ({ ...base, op: 'signal_var', object: ctx.barrier, count: n }) as Instr),
                ]
              : []),
          ),
      ]);
      const [name, make] = choices[seed % choices.length]!;
      arbs.push(make());
      // Registers become available to later instructions only if this one defines them.
      if (
        name === 'load' ||
        name === 'bin' ||
        name === 'icmp' ||
        name === 'select' ||
        name === 'avload' ||
        name === 'extract'
      )
        regs.push(dst);
      if (name === 'rmw' && used) regs.push(dst);
      if (name === 'cmpxchg' && used) pairs.push(dst);
    });
    return fc.tuple(...arbs);
  });
}

const placement: fc.Arbitrary<Placement> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('device' as const),
      agent: fc.nat(1),
      cluster: fc.nat(1),
      workgroup: fc.nat(2),
      wavefront: fc.nat(1),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'host' } as const) },
);

function cond(terms: Cond[]): fc.Arbitrary<Cond> {
  const leaf = fc.constantFrom(...terms, { kind: 'true' } as Cond, { kind: 'false' } as Cond);
  return fc.letrec<{ c: Cond }>((tie) => ({
    c: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leaf,
      tie('c').map((a) => ({ kind: 'not', arg: a }) as Cond),
      fc.array(tie('c'), { minLength: 2, maxLength: 3 }).map((args) => ({ kind: 'and', args }) as Cond),
      fc.array(tie('c'), { minLength: 2, maxLength: 3 }).map((args) => ({ kind: 'or', args }) as Cond),
    ),
  })).c;
}

/** A random well-formed test. */
export const arbitraryTest: fc.Arbitrary<Test> = fc
  .record({
    name: fc.stringMatching(/^[A-Za-z][A-Za-z0-9+.-]{0,12}$/),
    description: fc.stringMatching(/^[A-Za-z0-9 ,.:/+-]{0,30}$/),
    nGlobals: fc.integer({ min: 1, max: 3 }),
    local: fc.boolean(),
    barrier: fc.boolean(),
    inits: fc.array(fc.oneof(int, fc.constant('undef' as const)), { minLength: 4, maxLength: 4 }),
    placements: fc.array(placement, { minLength: 1, maxLength: 3 }),
    expects: fc.subarray<Omit<Expectation, 'span'>>([
      { key: 'condition', value: 'holds' },
      { key: 'race', value: 'racy' },
      { key: 'undef', value: 'no-undef' },
      { key: 'ub', value: 'no-ub' },
    ]),
  })
  .chain((h) => {
    const locations: Location[] = GLOBALS.slice(0, h.nGlobals).map((name, i) => ({
      name,
      space: 'global',
      type: 'i32',
      init: h.inits[i] === 'undef' ? 0 : (h.inits[i] as number),
      barrier: false,
      span: SPAN,
    }));
    if (h.local)
      locations.push({
        name: 'l',
        space: 'local',
        type: 'i32',
        init: h.inits[3]!,
        barrier: false,
        span: SPAN,
      });
    if (h.barrier)
      locations.push({
        name: 'bar',
        space: 'local',
        type: 'target("amdgcn.named.barrier", 0)',
        init: 'undef',
        barrier: true,
        span: SPAN,
      });
    // LDS stays on agent 0 and away from the host: move device threads to agent 0 when a local exists.
    const placements = h.placements.map((p) =>
      (h.local || h.barrier) && p.kind === 'device' ? { ...p, agent: 0 } : p,
    );
    const threadArbs = placements.map((p, ti) => {
      const data: Ctx['data'] = locations
        .filter((l) => !l.barrier && (l.space === 'global' || p.kind === 'device'))
        .map((l) => ({ name: l.name, spaces: [l.space, 'generic'] as AddressSpace[], writable: true }));
      return body({ data, barrier: h.barrier && p.kind === 'device' ? 'bar' : null }, `t${ti}`).map(
        (instrs): Thread => ({ name: `P${ti}`, placement: p, body: instrs, span: SPAN }),
      );
    });
    return fc.tuple(...threadArbs).chain((generated) => {
      const threads = uniformLanes(generated);
      const terms: Cond[] = [];
      for (const t of threads) {
        for (const i of t.body) {
          if ('dst' in i && i.dst !== null && i.kind !== 'cmpxchg') {
            terms.push({
              kind: 'cmp',
              op: '==',
              lhs: { kind: 'reg', thread: t.name, reg: i.dst, span: SPAN },
              rhs: { kind: 'int', value: 1 },
            });
            terms.push({
              kind: 'cmp',
              op: '!=',
              lhs: { kind: 'reg', thread: t.name, reg: i.dst, span: SPAN },
              rhs: { kind: 'undef' },
            });
          }
        }
      }
      for (const l of locations.filter((x) => x.space === 'global')) {
        terms.push({
          kind: 'cmp',
          op: '==',
          lhs: { kind: 'mem', loc: l.name, thread: null, span: SPAN },
          rhs: { kind: 'int', value: -2 },
        });
      }
      const condArb: fc.Arbitrary<Condition | null> = fc.option(
        fc
          .record({
            quantifier: fc.constantFrom('exists' as const, 'not exists' as const, 'forall' as const),
            cond: cond(terms),
          })
          .map((c) => ({ ...c, span: SPAN })),
      );
      return condArb.map(
        (condition): Test => ({
          arch: 'AMDGPU',
          name: h.name,
          description: h.description.trim() === '' ? '' : h.description,
          expects: h.expects.map((e) => ({ ...e, span: SPAN }) as Expectation),
          locations,
          threads,
          condition,
          file: '',
        }),
      );
    });
  });
