/**
 * Which instructions each thread executes: the paths through its control flow, and which control
 * barriers complete. Each combination is a *variant* of the test with its own events
 * (`src/vulkan/events.ts`), as cmpxchg outcomes are for AMDGPU tests; the branch conditions a path
 * assumes are checked against the values of each candidate execution.
 *
 * Loops (docs/model-vulkan.md, "Control flow"):
 * - an *await loop* — a body of loads and memory barriers, then the tests that leave it, then the
 *   jump back — runs its exiting iteration only. A failing iteration writes nothing, assigns only
 *   registers the exiting iteration assigns again, and dropping it leaves every other event as it
 *   was (Dartagnan treats such side-effect-free spin loops the same way). An execution that never
 *   leaves the loop is not a (finite) execution at all.
 * - any other loop is unrolled up to `bound` times per backward jump; a path that would jump back
 *   once more is *cut*: the enumerator checks whether some consistent execution reaches the cut, and
 *   if one does, the verdict is undecided (raise `--unroll`), as Dartagnan's bound check.
 *
 * Control barriers: the threads of one execution-scope instance that execute `cbar … id` meet there
 * (the k-th barrier with that id in each thread's path is one dynamic instance). An unnamed barrier
 * completes when every thread of the instance whose path has it arrives; a named barrier with a
 * quorum q completes for any set of at least q arriving threads. A thread waiting at a barrier that
 * never completes stops there (a deadlock: undefined behaviour, reported; its registers assigned
 * after that point have no value). No Node APIs here.
 */
import type { VkCbar, VkInstr, VkThread, VulkanTest } from './ast.ts';
import { execInstanceKey } from './scopes.ts';

/** One executed instruction: its index in the thread body, and for a branch whether it is taken. */
export interface PathStep {
  instr: number;
  /** For a branch: the outcome this path assumes; null otherwise. */
  taken: boolean | null;
}

export interface ThreadPath {
  steps: PathStep[];
  /** The path stops at the unroll bound (it would jump back once more). */
  cut: boolean;
}

/** Default number of times a loop that is not an await loop may jump back (`--unroll`). */
export const DEFAULT_UNROLL = 2;

/** More paths than this per thread is a test gpumm refuses to decide (MD004-like, in the caller). */
export const MAX_PATHS = 4096;

interface Loop {
  /** Index of the label jumped back to. */
  head: number;
  /** Index of the backward jump. */
  jump: number;
  await: boolean;
}

/** The backward jumps of a thread and whether each closes an await loop. */
export function loopsOf(body: readonly VkInstr[]): Loop[] {
  const labelAt = new Map<string, number>();
  body.forEach((i, k) => {
    if (i.kind === 'label') labelAt.set(i.name, k);
  });
  const out: Loop[] = [];
  body.forEach((i, j) => {
    if (i.kind !== 'goto' && i.kind !== 'branch') return;
    const head = labelAt.get(i.label);
    if (head === undefined || head > j) return;
    // An await loop: loads and memory barriers, then tests that leave the loop, then the jump back
    // (an unconditional goto, or a conditional branch back as the last test).
    let k = head + 1;
    let ok = true;
    while (k < j && (body[k]!.kind === 'ld' || body[k]!.kind === 'membar')) k++;
    while (k < j && ok) {
      const b = body[k]!;
      if (b.kind !== 'branch') ok = false;
      else {
        const target = labelAt.get(b.label);
        if (target === undefined || target <= j) ok = false;
      }
      k++;
    }
    // The loop must load something (a loop of barriers alone spins on nothing) and jump back by the
    // instruction at its end.
    const loads = body.slice(head + 1, j).some((x) => x.kind === 'ld');
    out.push({ head, jump: j, await: ok && loads });
  });
  return out;
}

/** Every path through `th` (loops handled as the file comment says). */
export function threadPaths(th: VkThread, bound = DEFAULT_UNROLL): ThreadPath[] {
  const body = th.body;
  const labelAt = new Map<string, number>();
  body.forEach((i, k) => {
    if (i.kind === 'label') labelAt.set(i.name, k);
  });
  const loops = loopsOf(body);
  const awaitJumps = new Set(loops.filter((l) => l.await).map((l) => l.jump));
  const out: ThreadPath[] = [];
  const counts = new Int32Array(body.length);
  const steps: PathStep[] = [];
  const walk = (pc: number): void => {
    if (out.length > MAX_PATHS) return;
    if (pc >= body.length) {
      out.push({ steps: steps.slice(), cut: false });
      return;
    }
    const i = body[pc]!;
    if (i.kind !== 'goto' && i.kind !== 'branch') {
      steps.push({ instr: pc, taken: null });
      walk(pc + 1);
      steps.pop();
      return;
    }
    const target = labelAt.get(i.label)!;
    const back = target <= pc;
    const tryJump = () => {
      if (!back) {
        walk(target);
        return;
      }
      // An await loop's failing iteration is dropped (see the file comment).
      if (awaitJumps.has(pc)) return;
      if (counts[pc]! >= bound) {
        out.push({ steps: steps.slice(), cut: true });
        return;
      }
      counts[pc]!++;
      walk(target);
      counts[pc]!--;
    };
    if (i.kind === 'goto') {
      steps.push({ instr: pc, taken: true });
      tryJump();
      steps.pop();
      return;
    }
    steps.push({ instr: pc, taken: true });
    tryJump();
    steps[steps.length - 1] = { instr: pc, taken: false };
    walk(pc + 1);
    steps.pop();
  };
  walk(0);
  return out;
}

/** One dynamic instance of a control barrier: the threads that pass it together. */
export interface BarrierInstance {
  /** (thread, step index in the thread's executed path) of each passing barrier. */
  members: [number, number][];
  cbar: VkCbar;
}

/** One variant: a path per thread (cut to what executes) and the barrier instances that complete. */
export interface Variant {
  paths: ThreadPath[];
  /** Each thread's path: the steps that execute (a blocked thread stops before its barrier). */
  executed: PathStep[][];
  /** Threads waiting forever at a barrier: thread and the barrier's instruction index. */
  blocked: { thread: number; instr: number }[];
  instances: BarrierInstance[];
  /** Some path stops at the unroll bound. */
  cut: boolean;
}

interface Group {
  key: string;
  cbar: VkCbar;
  /** Per thread of the group: the step index of its barrier in its path. */
  members: Map<number, number>;
}

/** The barrier groups of one combination of paths. */
function groupsOf(test: VulkanTest, paths: ThreadPath[]): Group[] {
  const groups = new Map<string, Group>();
  paths.forEach((p, t) => {
    const th = test.threads[t]!;
    const seen = new Map<string, number>();
    p.steps.forEach((s, k) => {
      const i = th.body[s.instr]!;
      if (i.kind !== 'cbar') return;
      const base = `${i.id}|${i.resource ?? ''}|${execInstanceKey(th.placement, i.execScope)}`;
      const occ = seen.get(base) ?? 0;
      seen.set(base, occ + 1);
      const key = `${base}#${occ}`;
      let g = groups.get(key);
      if (!g) {
        g = { key, cbar: i, members: new Map() };
        groups.set(key, g);
      }
      g.members.set(t, k);
    });
  });
  return [...groups.values()];
}

/** Non-empty subsets of `xs` with at least `min` elements. */
function subsets(xs: number[], min: number): number[][] {
  const out: number[][] = [];
  const n = xs.length;
  for (let m = 1; m < 1 << n; m++) {
    const s = xs.filter((_, k) => (m >> k) & 1);
    if (s.length >= min) out.push(s);
  }
  return out;
}

/**
 * The barrier outcomes of one combination of paths: every way the threads can run until each has
 * ended or waits at a barrier that cannot complete.
 */
export function resolveBarriers(test: VulkanTest, paths: ThreadPath[]): Omit<Variant, 'paths' | 'cut'>[] {
  const groups = groupsOf(test, paths);
  const T = paths.length;
  const groupAt = paths.map(() => new Map<number, Group>());
  for (const g of groups) for (const [t, k] of g.members) groupAt[t]!.set(k, g);
  const out = new Map<string, Omit<Variant, 'paths' | 'cut'>>();
  // pos[t]: index of the next step to run; a thread whose next step is a barrier waits there.
  const search = (pos0: number[], done0: Map<Group, number[]>): void => {
    const pos = pos0.slice();
    const done = new Map(done0);
    const waitingAt = (t: number): Group | null => groupAt[t]!.get(pos[t]!) ?? null;
    const advance = () => {
      for (let t = 0; t < T; t++) {
        while (pos[t]! < paths[t]!.steps.length && !groupAt[t]!.has(pos[t]!)) pos[t]!++;
      }
    };
    advance();
    // Unnamed barriers complete as soon as every member waits at them.
    for (let changed = true; changed; ) {
      changed = false;
      for (const g of groups) {
        if (done.has(g) || g.cbar.quorum !== null) continue;
        if ([...g.members].every(([t, k]) => pos[t] === k)) {
          done.set(g, [...g.members.keys()]);
          for (const t of g.members.keys()) pos[t]!++;
          advance();
          changed = true;
        }
      }
    }
    // A quorum barrier completes for any set of at least `quorum` waiting threads.
    let branched = false;
    for (const g of groups) {
      if (done.has(g) || g.cbar.quorum === null) continue;
      const waiting = [...g.members].filter(([t, k]) => pos[t] === k).map(([t]) => t);
      if (waiting.length < g.cbar.quorum) continue;
      for (const s of subsets(waiting, g.cbar.quorum)) {
        branched = true;
        const d = new Map(done);
        d.set(g, s);
        const p = pos.slice();
        for (const t of s) p[t]!++;
        search(p, d);
      }
    }
    if (branched) return;
    const blocked: Variant['blocked'] = [];
    const executed = paths.map((p, t) => p.steps.slice(0, pos[t]));
    for (let t = 0; t < T; t++) {
      const g = waitingAt(t);
      if (g) blocked.push({ thread: t, instr: paths[t]!.steps[pos[t]!]!.instr });
    }
    const instances: BarrierInstance[] = [...done].map(([g, ts]) => ({
      cbar: g.cbar,
      members: ts.map((t) => [t, g.members.get(t)!] as [number, number]),
    }));
    const key = `${pos.join(',')}|${instances.map((i) => i.members.map((m) => m.join(':')).join('+')).join('/')}`;
    if (!out.has(key)) out.set(key, { executed, blocked, instances });
  };
  search(new Array(T).fill(0), new Map());
  return [...out.values()];
}

/** Every variant of `test`: paths per thread × barrier outcomes. */
export function variantsOf(
  test: VulkanTest,
  bound = DEFAULT_UNROLL,
): { variants: Variant[]; tooMany: boolean } {
  const per = test.threads.map((th) => threadPaths(th, bound));
  const tooMany = per.some((p) => p.length > MAX_PATHS);
  const variants: Variant[] = [];
  const combo: ThreadPath[] = [];
  const rec = (t: number) => {
    if (variants.length > MAX_PATHS * 4) return;
    if (t === per.length) {
      const cut = combo.some((p) => p.cut);
      for (const r of resolveBarriers(test, combo)) variants.push({ ...r, paths: combo.slice(), cut });
      return;
    }
    for (const p of per[t]!) {
      combo.push(p);
      rec(t + 1);
      combo.pop();
    }
  };
  rec(0);
  return { variants, tooMany: tooMany || variants.length > MAX_PATHS * 4 };
}
