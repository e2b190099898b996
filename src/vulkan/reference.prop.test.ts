/**
 * Differential test of the Vulkan model against the brute-force reference written from the
 * specification's text (reference.ts): on random tests, the fast search finds exactly the
 * reference's final states, with the same execution counts and race flags (models/vulkan.cat
 * agrees with the fast search: search.prop.test.ts).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Report } from '../enumerate/report.ts';
import { parseDat3m } from './dat3m.ts';
import { arbVulkanText } from './gen.ts';
import { type RefOptions, referenceStates } from './reference.ts';
import { DEFAULT_VK_RUN, runVulkan } from './run.ts';

/** `value=count race` lines of the reference's states, sorted. */
function refLines(states: ReturnType<typeof referenceStates>): string[] {
  return [...states.values()]
    .map((s) => {
      const vals = Object.entries(s.values)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([l, v]) => `${l}=${Number.isNaN(v) ? 'undef' : v}`);
      return `${vals.join(' ')} ×${s.count}${s.race ? ' race' : ''}`;
    })
    .sort();
}

function reportLines(r: Report): string[] {
  return r.states
    .map((s) => {
      const vals = Object.entries(s.values)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([l, v]) => `${l}=${v}`);
      return `${vals.join(' ')} ×${s.count}${s.race ? ' race' : ''}`;
    })
    .sort();
}

function agree(text: string, o: RefOptions = { chains: true, literalFr: false }): void {
  const t = parseDat3m(text, 't.litmus').test!;
  expect(reportLines(runVulkan(t, { ...DEFAULT_VK_RUN, chains: o.chains, literalFr: o.literalFr }))).toEqual(
    refLines(referenceStates(t, o)),
  );
}

describe('the Vulkan model = the reference written from the spec', () => {
  it('on message passing through release/acquire, fences and availability/visibility', () => {
    agree(`VULKAN mp
{ x=0; y=0; }
 P0@sg 0, wg 0, qf 0            | P1@sg 0, wg 1, qf 0 ;
 st.av.dv.sc0 x, 1              | ld.atom.acq.dv.sc0.semsc0 r0, y ;
 st.atom.rel.dv.sc0.semsc0 y, 1 | ld.vis.dv.sc0 r1, x ;
exists (x == 0 /\\ y == 0)
`);
    agree(`VULKAN mp-fences
{ x=0; y=0; }
 P0@sg 0, wg 0, qf 0                 | P1@sg 0, wg 1, qf 0 ;
 st.nonpriv.sc1 x, 1                 | ld.atom.wg.sc0 r0, y ;
 membar.rel.dv.semsc0.semsc1.semav   | membar.acq.dv.semsc0.semsc1.semvis ;
 st.atom.dv.sc0 y, 1                 | ld.nonpriv.sc1 r1, x ;
exists (x == 0 /\\ y == 0)
`);
  });

  for (const o of [
    { chains: true, literalFr: false },
    { chains: false, literalFr: false },
    { chains: true, literalFr: true },
  ])
    it(`on random tests (chains ${o.chains ? 'on' : 'off'}, ${o.literalFr ? 'literal' : "Dartagnan's"} from-reads)`, () => {
      fc.assert(
        // The test as text, so a counterexample reads as a litmus file.
        fc.property(arbVulkanText(), (text) => agree(text, o)),
        { numRuns: Number(process.env.GPUMM_PROP_RUNS ?? 200) },
      );
    });
});
