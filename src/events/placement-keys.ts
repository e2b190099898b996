/**
 * Keys and names of a thread's scope instances, from its placement (agent, cluster, work-group,
 * wavefront): what the skeleton and the barrier analysis both need. A module of its own so that
 * src/events/barriers.ts and src/events/skeleton.ts do not import each other.
 *
 * No Node APIs here: the web page imports this file.
 */

import { type Placement, type Scope, scopeRank, type Test } from '../core/types.ts';

function coords(p: Placement, t: number): [number, number, number, number] {
  // A host thread shares only the system scope with anyone: give it coordinates no one else has.
  if (p.kind === 'host') return [-1 - t, 0, 0, 0];
  return [p.agent, p.cluster, p.workgroup, p.wavefront];
}

/**
 * Rank of the narrowest scope whose instances contain both threads: 5 (singlethread) for a thread
 * with itself, 4 for two threads of one wavefront, … 0 when they share only the system scope.
 */
export function shareRank(a: Placement, ta: number, b: Placement, tb: number): number {
  if (ta === tb) return 5;
  const x = coords(a, ta);
  const y = coords(b, tb);
  let k = 0;
  while (k < 4 && x[k] === y[k]) k++;
  return k;
}

/** Key of the cluster instance of a placement (`a0.c0`), or null for host threads. */
export function clusterKey(p: Placement): string | null {
  return p.kind === 'host' ? null : `a${p.agent}.c${p.cluster}`;
}

/** Key of the workgroup instance of a placement (`a0.c0.w1`), or null for host threads. */
export function workgroupKey(p: Placement): string | null {
  return p.kind === 'host' ? null : `a${p.agent}.c${p.cluster}.w${p.workgroup}`;
}

/**
 * Name of the scope instance of `scope` that contains thread `t`, e.g. `agent a0`,
 * `workgroup a0.c0.w1`, `singlethread P1` (for explanations and graphs).
 */
export function instanceName(test: Test, t: number, scope: Scope): string {
  const th = test.threads[t]!;
  if (scope === 'system') return 'system';
  if (scope === 'singlethread' || th.placement.kind === 'host') return `${scope} ${th.name}`;
  const p = th.placement;
  const parts = [`a${p.agent}`, `c${p.cluster}`, `w${p.workgroup}`, `f${p.wavefront}`];
  return `${scope} ${parts.slice(0, scopeRank(scope)).join('.')}`;
}
