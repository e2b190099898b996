/**
 * What a cat model sees of a Vulkan test (`src/vulkan/events.ts`): the sets and relations the Vulkan
 * memory model is stated over, named as Dartagnan's and the Khronos Alloy model's cat/Alloy files
 * name them (so their models' definitions read the same here), plus the candidate values `rf`,
 * `co`, `Undef` and `fr` the enumerator fills in. docs/cat.md lists every name with its meaning.
 * No Node APIs here: the web page imports this file.
 */

import type { Primitives } from '../cat/eval.ts';
import { type CandidateBuffers, candidatePrimitives, primitiveTable } from '../cat/primitives.ts';
import { add, relation } from '../core/relation.ts';
import { STORAGE_CLASSES } from './ast.ts';
import type { VkEvent, VkSkeleton } from './events.ts';

/** Every primitive of a Vulkan test, for docs/cat.md and its test. */
export const VULKAN_PRIMITIVE_NAMES: readonly string[] = [
  'R',
  'W',
  'IW',
  'M',
  'F',
  'CBAR',
  'RMW',
  'ATOM',
  'NONPRIV',
  'PRIV',
  'AV',
  'VIS',
  'ACQ',
  'REL',
  'SEMAV',
  'SEMVIS',
  'SC0',
  'SC1',
  'SC2',
  'SC3',
  'SEMSC0',
  'SEMSC1',
  'SEMSC2',
  'SEMSC3',
  'SG',
  'WG',
  'QF',
  'DV',
  'AVDEVICE',
  'VISDEVICE',
  'Undef',
  'po',
  'rf',
  'co',
  'fr',
  'loc',
  'vloc',
  'int',
  'ext',
  'id',
  'rmw',
  'data',
  'addr',
  'ctrl',
  'ssg',
  'swg',
  'sqf',
  'syncbar',
  'ssw',
];

/** Names of AMDGPU tests a Vulkan test has no meaning for (CAT3006), with the reason. */
const LACKING_VK: ReadonlyMap<string, string> = new Map([
  ['A', 'a Vulkan test names its atomic accesses ATOM (the initial writes are not atomic operations)'],
  ['NA', 'a Vulkan test: use M \\ ATOM'],
  ['sincl', 'a Vulkan test: scope inclusion is stated over SG, WG, QF, DV and ssg, swg, sqf'],
  ['incl', 'a Vulkan test: scope inclusion is stated over SG, WG, QF, DV and ssg, swg, sqf'],
  ['bsync', 'a Vulkan test: control barriers synchronise through syncbar'],
  ['MakeAv', 'a Vulkan test: availability operations are AV (per instruction) and SEMAV (semantics)'],
  ['MakeVis', 'a Vulkan test: visibility operations are VIS (per instruction) and SEMVIS (semantics)'],
  ['Global', 'a Vulkan test has storage classes SC0 … SC3, not address spaces'],
  ['X', 'exclusive (load-linked / store-conditional) accesses are ARM and RISC-V; gpumm has RMW pairs'],
]);

/** The primitives of Vulkan variant `sk`, and the candidate buffers the enumerator writes into. */
export function buildVulkanPrimitives(sk: VkSkeleton): { prims: Primitives; cand: CandidateBuffers } {
  const n = sk.n;
  const { values, set, rel, isAccess } = primitiveTable(n, sk.events);

  set('F', (e) => e.fence);
  set('CBAR', (e) => e.cbar);
  set('RMW', (e) => e.rmw >= 0);
  set('ATOM', (e) => isAccess(e) && e.atomic);
  set('NONPRIV', (e) => isAccess(e) && e.nonpriv);
  set('PRIV', (e) => isAccess(e) && e.kind !== 'init' && !e.nonpriv);
  set('AV', (e) => e.av);
  set('VIS', (e) => e.vis);
  set('ACQ', (e) => e.acquire);
  set('REL', (e) => e.release);
  set('SEMAV', (e) => e.semav);
  set('SEMVIS', (e) => e.semvis);
  for (let k = 0; k < STORAGE_CLASSES; k++) {
    set(`SC${k}`, (e) => e.sc === k);
    set(`SEMSC${k}`, (e) => ((e.semsc >> k) & 1) === 1);
  }
  set('SG', (e) => e.scope === 'sg');
  set('WG', (e) => e.scope === 'wg');
  set('QF', (e) => e.scope === 'qf');
  set('DV', (e) => e.scope === 'dv');
  set('AVDEVICE', (e) => e.kind === 'avdevice');
  set('VISDEVICE', (e) => e.kind === 'visdevice');

  rel('po', sk.po);
  rel('loc', sk.loc);
  rel('vloc', sk.vloc);
  rel('int', sk.int);
  rel('ext', sk.ext);
  const id = relation(n);
  for (let i = 0; i < n; i++) add(id, i, i);
  rel('id', id);
  rel('rmw', sk.rmw);
  rel('data', sk.data);
  // Addresses are names, not computed: these are empty. Control dependencies are the paths' branch
  // outcomes, which each variant fixes (src/vulkan/paths.ts), so no model needs them as a relation.
  rel('addr', relation(n));
  rel('ctrl', relation(n));
  rel('ssg', sk.ssg);
  rel('swg', sk.swg);
  rel('sqf', sk.sqf);
  rel('syncbar', sk.syncbar);
  rel('ssw', sk.ssw);

  const cand = candidatePrimitives(n, values);
  return { prims: { n, values, lacking: LACKING_VK }, cand };
}
