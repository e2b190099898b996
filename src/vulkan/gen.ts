/**
 * fast-check generators of small random Vulkan tests in Dartagnan's syntax, for the property tests
 * of the fast search against models/vulkan.cat (search.prop.test.ts) and of both against the
 * brute-force reference (reference.prop.test.ts). Straight-line threads of loads, stores, RMWs and
 * memory barriers with every kind of modifier, and control barriers met by every invocation of a
 * workgroup. Kept tiny so the reference stays fast.
 */
import fc from 'fast-check';
import type { VulkanTest } from './ast.ts';
import { parseDat3m } from './dat3m.ts';

const SCOPES = ['sg', 'wg', 'qf', 'dv'] as const;

/** One instruction, before registers and values are numbered. */
type Op =
  | { k: 'st'; kind: 'plain' | 'nonpriv' | 'av' | 'atom'; rel: boolean; semav: boolean }
  | { k: 'ld'; kind: 'plain' | 'nonpriv' | 'vis' | 'atom'; acq: boolean; semvis: boolean }
  | { k: 'rmw'; acq: boolean; rel: boolean; semav: boolean; semvis: boolean }
  | { k: 'membar'; acq: boolean; rel: boolean; semav: boolean; semvis: boolean };

interface Common {
  loc: number;
  sc: number;
  scope: (typeof SCOPES)[number];
  /** Storage-class semantics as a bit mask over sc0, sc1 (0: none). */
  semsc: number;
}

const arbCommon: fc.Arbitrary<Common> = fc.record({
  loc: fc.integer({ min: 0, max: 1 }),
  sc: fc.constantFrom(0, 0, 1),
  scope: fc.constantFrom(...SCOPES),
  semsc: fc.constantFrom(1, 1, 2, 3),
});

const arbOp: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      k: fc.constant('st' as const),
      kind: fc.constantFrom(
        'plain' as const,
        'nonpriv' as const,
        'av' as const,
        'atom' as const,
        'atom' as const,
      ),
      rel: fc.boolean(),
      semav: fc.boolean(),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      k: fc.constant('ld' as const),
      kind: fc.constantFrom(
        'plain' as const,
        'nonpriv' as const,
        'vis' as const,
        'atom' as const,
        'atom' as const,
      ),
      acq: fc.boolean(),
      semvis: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      k: fc.constant('rmw' as const),
      acq: fc.boolean(),
      rel: fc.boolean(),
      semav: fc.boolean(),
      semvis: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc
      .record({
        k: fc.constant('membar' as const),
        acq: fc.boolean(),
        rel: fc.boolean(),
        semav: fc.boolean(),
        semvis: fc.boolean(),
      })
      .filter((m) => m.acq || m.rel),
  },
);

function semText(semsc: number): string {
  return `${semsc & 1 ? '.semsc0' : ''}${semsc & 2 ? '.semsc1' : ''}`;
}

function mo(acq: boolean, rel: boolean): string {
  return acq && rel ? '.acq_rel' : acq ? '.acq' : rel ? '.rel' : '';
}

/** One instruction in Dartagnan's syntax; `reg` numbers the thread's registers, `value` the stores. */
function opText(o: Op, c: Common, reg: () => string, value: () => number): string {
  const x = c.loc === 0 ? 'x' : 'y';
  const sc = `.sc${c.sc}`;
  switch (o.k) {
    case 'st':
      if (o.kind === 'atom')
        return `st.atom${mo(false, o.rel)}.${c.scope}${sc}${o.rel ? semText(c.semsc) : ''}${o.rel && o.semav ? '.semav' : ''} ${x}, ${value()}`;
      return `st${o.kind === 'plain' ? '' : o.kind === 'nonpriv' ? '.nonpriv' : `.av.${c.scope}`}${sc} ${x}, ${value()}`;
    case 'ld':
      if (o.kind === 'atom')
        return `ld.atom${mo(o.acq, false)}.${c.scope}${sc}${o.acq ? semText(c.semsc) : ''}${o.acq && o.semvis ? '.semvis' : ''} ${reg()}, ${x}`;
      return `ld${o.kind === 'plain' ? '' : o.kind === 'nonpriv' ? '.nonpriv' : `.vis.${c.scope}`}${sc} ${reg()}, ${x}`;
    case 'rmw': {
      const sem = o.acq || o.rel ? semText(c.semsc) : '';
      return `rmw.atom${mo(o.acq, o.rel)}.${c.scope}${sc}${sem}${o.rel && o.semav ? '.semav' : ''}${o.acq && o.semvis ? '.semvis' : ''}.add ${reg()}, ${x}, ${value()}`;
    }
    case 'membar':
      return `membar${mo(o.acq, o.rel)}.${c.scope}${semText(c.semsc)}${o.rel && o.semav ? '.semav' : ''}${o.acq && o.semvis ? '.semvis' : ''}`;
  }
}

export interface GenOptions {
  /** Most memory accesses in the test (the reference is exponential in them). */
  maxAccesses: number;
  maxThreads: number;
}

export const DEFAULT_GEN: GenOptions = { maxAccesses: 5, maxThreads: 3 };

/** A random test as Dartagnan-syntax text (parse it with `parseDat3m`, or use `arbVulkanTest`). */
export function arbVulkanText(o: GenOptions = DEFAULT_GEN): fc.Arbitrary<string> {
  const thread = fc.record({
    ops: fc.array(fc.tuple(arbOp, arbCommon), { minLength: 1, maxLength: 3 }),
    wg: fc.integer({ min: 0, max: 1 }),
    sg: fc.integer({ min: 0, max: 1 }),
    qf: fc.constantFrom(0, 0, 0, 1),
  });
  const cbar = fc.option(
    fc.record({
      acqRel: fc.boolean(),
      scope: fc.constantFrom(...SCOPES),
      semsc: fc.constantFrom(1, 3),
      av: fc.boolean(),
      at: fc.array(fc.nat(), { minLength: 3, maxLength: 3 }),
    }),
    { freq: 3 },
  );
  return fc
    .record({ threads: fc.array(thread, { minLength: 2, maxLength: o.maxThreads }), cbar })
    .filter(
      ({ threads }) =>
        threads.flatMap((t) => t.ops).filter(([op]) => op.k !== 'membar').length <= o.maxAccesses,
    )
    .map(({ threads, cbar }) => {
      let v = 0;
      const cols = threads.map((t) => {
        let r = 0;
        return t.ops.map(([op, c]) =>
          opText(
            op,
            c,
            () => `r${r++}`,
            () => ++v,
          ),
        );
      });
      // A control barrier in every invocation of each workgroup (Dartagnan's barriers meet across
      // the workgroup: docs/model-vulkan.md), so none waits forever.
      if (cbar)
        cols.forEach((col, k) => {
          const sem = cbar.acqRel
            ? `.acq_rel.${cbar.scope}${semText(cbar.semsc)}${cbar.av ? '.semav.semvis' : ''}`
            : `.${cbar.scope}`;
          col.splice((cbar.at[k] ?? 0) % (col.length + 1), 0, `cbar${sem} 1`);
        });
      const rows = Math.max(...cols.map((c) => c.length));
      const head = threads.map((t, k) => `P${k}@sg ${t.sg}, wg ${t.wg}, qf ${t.qf}`);
      const lines = [
        'VULKAN random',
        '{',
        'x=0; y=0;',
        '}',
        ` ${head.join(' | ')} ;`,
        ...Array.from({ length: rows }, (_, r) => ` ${cols.map((c) => c[r] ?? '').join(' | ')} ;`),
        'exists (x == 0 /\\ y == 0)',
      ];
      return `${lines.join('\n')}\n`;
    });
}

/** A random test, parsed (the generator writes only valid tests: a parse error is a bug of either). */
export function arbVulkanTest(o: GenOptions = DEFAULT_GEN): fc.Arbitrary<VulkanTest> {
  return arbVulkanText(o).map((text) => {
    const r = parseDat3m(text, 'random.litmus');
    const errors = r.diagnostics.filter((d) => d.severity === 'error');
    if (!r.test || errors.length > 0)
      throw new Error(`generated test does not parse:\n${text}\n${errors.map((d) => d.message).join('\n')}`);
    return r.test;
  });
}
