import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { prepareVariant } from '../enumerate/enumerate.ts';
import { arbTest } from '../enumerate/gen.ts';
import { checkPartial, DEFAULT_OPTIONS, quickCoherenceReject } from './amdgpu.ts';

describe('pruning shortcuts are sound', () => {
  it('a quick coherence rejection is always confirmed by the full monotone check', () => {
    fc.assert(
      fc.property(
        arbTest({ maxThreads: 3, maxInstrs: 6 }),
        fc.array(fc.nat(), { minLength: 40, maxLength: 40 }),
        (t, picks) => {
          const { sk, ws } = prepareVariant(t, 0);
          let p = 0;
          const next = () => picks[p++ % picks.length]!;
          // A random co order per location (initial write first) and a random partial rf.
          for (const l of sk.locs) {
            const writes = sk.writesByLoc[l.id]!.filter((w) => w !== l.initEvent);
            for (let i = writes.length - 1; i > 0; i--) {
              const j = next() % (i + 1);
              [writes[i], writes[j]] = [writes[j]!, writes[i]!];
            }
            if (l.initEvent >= 0) ws.coRank[l.initEvent] = 0;
            writes.forEach((w, k) => {
              ws.coRank[w] = k + 1;
            });
          }
          ws.rfSrc.fill(-2);
          for (const r of sk.reads) {
            const dom = sk.writesByLoc[sk.events[r]!.loc]!;
            const k = next() % (dom.length + 2);
            ws.rfSrc[r] = k < dom.length ? dom[k]! : k === dom.length ? -1 : -2;
          }
          for (const r of sk.reads) {
            const src = ws.rfSrc[r]!;
            if (src < 0) continue;
            if (quickCoherenceReject(ws, r, src)) expect(checkPartial(ws, DEFAULT_OPTIONS)).toBe(false);
          }
        },
      ),
      { numRuns: 3000 },
    );
  });
});
