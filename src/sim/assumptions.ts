/**
 * Where a machine is stronger than the hardware text on purpose, it says so: each such strength is a
 * named assumption — its id, the families and modes it applies to, the sentence or table row it rests
 * on, what the machine does under it and what it does without — in this one list. A `sound` verdict
 * that needs one prints it (`sound (assuming: cu-in-order-reads)`), and `gpumm check --no-assume ID`
 * runs the machine without it (docs/hardware.md, "Assumptions").
 *
 * Everything else a machine does is the text's (cited beside it in config.ts); a machine without any
 * assumption is as weak as the text allows, and the permissiveness suite (src/sim/permissive.test.ts)
 * checks it reaches the weak outcomes the text allows.
 *
 * No Node APIs here.
 */

import type { TableFamily } from '../lower/targets.ts';

/** The assumptions, by id. */
export const ASSUMPTION_IDS = [
  'cu-in-order-reads',
  'cu-in-order-types',
  'lds-in-order',
  'l2-system-coherent',
  'fill-at-read',
] as const;
export type AssumptionId = (typeof ASSUMPTION_IDS)[number];

/** How a work-group's waves are placed (the same union as config.ts `MachineMode`). */
type Mode = 'cu' | 'wgp' | 'tgsplit';

/** One assumption: where it applies, what it rests on, and what it changes. */
export interface Assumption {
  id: AssumptionId;
  /** The families (and modes: null for every mode) whose machines make it. */
  applies: readonly { family: TableFamily; modes: readonly Mode[] | null }[];
  /** The sentence or row that the strength rests on, quoted. */
  rests: string;
  /** What the machine does under it. */
  under: string;
  /** What the machine does without it (`--no-assume`). */
  without: string;
}

const USAGE = 'amdgpu-usage-2018.rst "Memory Model"';
const G12 = 'gfx12-memory-model.rst';
const G10 = 'AMDGPUUsage "Memory Model GFX10-GFX11"';
const AMD: readonly TableFamily[] = ['gfx6-9', 'gfx90a', 'gfx942', 'gfx10-11', 'gfx12', 'gfx1250'];

/** The one list. */
export const ASSUMPTIONS: readonly Assumption[] = [
  {
    id: 'cu-in-order-reads',
    applies: [{ family: 'gfx12', modes: ['cu'] }],
    rests: `${G12} table, "load atomic acquire workgroup global": "2. s_wait_loadcnt 0x0 — If CU wavefront execution mode, omit." The hardware text says only that completion "is reported to a wavefront in-order within a type"; the row, with no wait between the acquiring load and later loads, needs the loads to return their data in order.`,
    under:
      "a wave's loads read in issue order: a hit in the CU's L0 behind a miss takes its value only when the miss has returned",
    without:
      'a load that hits the L0 may be performed before an earlier load of another location that missed it (the text: completion is reported in order, data may return out of order)',
  },
  {
    id: 'cu-in-order-types',
    applies: [
      { family: 'gfx10-11', modes: ['cu'] },
      { family: 'gfx12', modes: ['cu'] },
    ],
    rests: `${G12}: completion "is reported to a wavefront in-order within a type, but may be out of order between types" (${G10}: loads and returning atomics on vmcnt, stores and non-returning atomics on vscnt); yet the CU-mode rows "fence release workgroup", "store atomic release workgroup" and the acquire rows omit every wait ("If CU wavefront execution mode, omit"), which orders a load before a later store of the wave only if the CU's cache takes them in issue order.`,
    under:
      "the CU's cache takes a wave's loads, stores and invalidates in issue order, whatever their counter",
    without:
      "the CU's cache takes a wave's requests in issue order only within one counter's type (loads, or stores): a store may pass the cache before an earlier load of another location",
  },
  {
    id: 'lds-in-order',
    applies: AMD.map((family) => ({ family, modes: null })),
    rests: `${USAGE}: "All LDS operations of a CU are performed as wavefront wide operations in a global order and involve no caching. Completion is reported to a wavefront in execution order." — a global order, not said to be the wave's program order; the rows "store atomic release workgroup local" (a bare ds_store, no wait) and the LDS acquires rely on it.`,
    under: "a wave's LDS operations are performed in issue order",
    without: "a wave's LDS operations to different locations are performed in any order",
  },
  {
    id: 'l2-system-coherent',
    applies: [
      { family: 'gfx6-9', modes: null },
      { family: 'gfx10-11', modes: null },
    ],
    rests: `${USAGE}: "The L2 cache can be kept coherent with other agents on some targets, or ranges of virtual addresses can be set up to bypass it to ensure system coherence" (${G10} says the same); the system-scope rows have the agent-scope code, with no L2 write-back or invalidate.`,
    under:
      "the agents' L2s are coherent with memory: the machine folds them into memory (the memory of the test is the bypassing or coherent kind)",
    without:
      "one write-back L2 per agent that nothing keeps coherent with the other agents' (the text gives these families no instruction that writes it back or invalidates it)",
  },
  {
    id: 'fill-at-read',
    applies: [
      ...AMD.map((family) => ({ family, modes: null })),
      { family: 'xe' as TableFamily, modes: null },
    ],
    rests:
      'No document says what becomes of a miss whose data is still on its way back to the CU\'s cache when the wave invalidates that cache; the acquire rows ("Ensures that following loads will not see stale data", every family) need the invalidate to leave no stale copy behind, which holds only if no such fill lands after it.',
    under:
      "a miss fills the CU's cache (L0 / L1 / WGP$) with the value it read in the same step as it reads the next level",
    without:
      "a miss reads the next level and returns later: its fill of the CU's cache (and its register) may land after an invalidate of that cache, leaving a copy older than the invalidate",
  },
];

/** The assumption with this id. */
export function assumption(id: AssumptionId): Assumption {
  return ASSUMPTIONS.find((a) => a.id === id)!;
}

/** Is `s` an assumption id? */
export function isAssumptionId(s: string): s is AssumptionId {
  return (ASSUMPTION_IDS as readonly string[]).includes(s);
}

/** The assumptions a family's machine makes in a mode (in the order of the list). */
export function assumptionsOf(family: TableFamily, mode: Mode): AssumptionId[] {
  return ASSUMPTIONS.filter((a) =>
    a.applies.some((x) => x.family === family && (x.modes === null || x.modes.includes(mode))),
  ).map((a) => a.id);
}
