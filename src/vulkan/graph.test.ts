import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CatEnumeration, DEFAULT_CAT, replayCandidate } from '../cat/enumerate.ts';
import { loadModel } from '../cat/load.ts';
import { has } from '../core/relation.ts';
import { parseAnyTest } from '../run/syntaxes.ts';
import type { VulkanTest } from './ast.ts';
import { vulkanFront } from './front.ts';
import { vulkanDot, vulkanModelEdgeKinds } from './graph.ts';

const root = join(import.meta.dirname, '..', '..');
const VULKAN_CAT = loadModel(
  readFileSync(join(root, 'models', 'vulkan.cat'), 'utf8'),
  'vulkan.cat',
  () => null,
).model;
const PO_ONLY = loadModel('"po only"\nacyclic po as order\n', 'po.cat', () => null).model;

/** Every candidate the model accepts (unpruned), with its rf and co choices. */
function accepted(test: VulkanTest) {
  const front = vulkanFront(test);
  const out: { variant: number; rf: Int32Array; co: Int32Array }[] = [];
  new CatEnumeration(front, VULKAN_CAT, {
    ...DEFAULT_CAT,
    prune: false,
    keepExamples: false,
    onAccept: (v) => out.push({ variant: v.index, rf: v.rfSrc.slice(), co: v.coRank.slice() }),
  }).run();
  return { front, out };
}

const mp = parseAnyTest(
  readFileSync(join(root, 'litmus-vulkan', 'MP.semav-semvis.litmus'), 'utf8'),
  'MP.semav-semvis.litmus',
).test as VulkanTest;
const ALL = ['po', 'rf', 'co', 'sw', 'hb', 'lo', 'av', 'vis'] as const;

describe('Vulkan executions drawn', () => {
  it('models/vulkan.cat offers its relations as toggles; a model that binds none, po, rf and co', () => {
    const front = vulkanFront(mp);
    expect(vulkanModelEdgeKinds(front, VULKAN_CAT, new Set())).toEqual([...ALL]);
    expect(vulkanModelEdgeKinds(front, PO_ONLY, new Set())).toEqual(['po', 'rf', 'co']);
  });

  it('labels each chain edge with the widest domain whose chain holds the pair', () => {
    const { front, out } = accepted(mp);
    expect(out.length).toBeGreaterThan(0);
    let chainEdges = 0;
    for (const c of out) {
      const dot = vulkanDot(front, c.variant, VULKAN_CAT, new Set(), c.rf, c.co, 'MP', {
        edges: [...ALL],
        scopes: true,
        highlight: null,
      });
      const compiled = replayCandidate(front.variant(c.variant), VULKAN_CAT, new Set(), c.rf, c.co);
      const rel = (name: string) => {
        const b = compiled.bound.get(name)!;
        if (b.type !== 'rel' || b.rel === null) throw new Error(`${name} is not a relation`);
        return b.rel;
      };
      for (const m of dot.matchAll(/e(\d+) -> e(\d+) \[label="(av|vis) (sh|qf|wg|sg)"/g)) {
        chainEdges++;
        const [a, b, kind, dom] = [Number(m[1]), Number(m[2]), m[3]!, m[4]!];
        const order = ['sh', 'qf', 'wg', 'sg'];
        expect(has(rel(`${kind}${dom}`), a, b)).toBe(true);
        for (const wider of order.slice(0, order.indexOf(dom)))
          expect(has(rel(`${kind}${wider}`), a, b)).toBe(false);
      }
      // Threads inside their scope instances.
      expect(dot).toContain('cluster_s_queue family 0');
    }
    expect(chainEdges).toBeGreaterThan(0);
  });

  it('draws only the relations asked for (po still lays the threads out, invisibly)', () => {
    const { front, out } = accepted(mp);
    const c = out[0]!;
    const dot = vulkanDot(front, c.variant, VULKAN_CAT, new Set(), c.rf, c.co, 'MP', {
      edges: ['rf'],
      scopes: false,
      highlight: null,
    });
    expect(dot).toContain('class="edge-rf"');
    for (const k of ['po', 'co', 'sw', 'hb', 'lo', 'av', 'vis'])
      expect(dot).not.toContain(`class="edge-${k}"`);
    expect(dot).toMatch(/-> e\d+ \[style=invis\]/);
    expect(dot).not.toContain('cluster_s_');
    // Under a model without Vulkan's relations, asking for them draws nothing more.
    const plain = vulkanDot(front, c.variant, PO_ONLY, new Set(), c.rf, c.co, 'MP', {
      edges: [...ALL],
      scopes: false,
      highlight: null,
    });
    for (const k of ['sw', 'hb', 'lo', 'av', 'vis']) expect(plain).not.toContain(`class="edge-${k}"`);
    expect(plain).toContain('class="edge-po"');
  });
});
