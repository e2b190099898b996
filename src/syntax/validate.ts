/**
 * Whole-test checks that need every declaration and thread: locations exist and are used through
 * pointers of a fitting address space, LDS stays within one agent, constant memory is not written,
 * named-barrier objects are used only by barrier intrinsics, and the condition names what exists.
 */

import { diag, type SourceDiagnostic } from '../core/diagnostics.ts';
import { nearestNames } from '../core/nearest.ts';
import type { AddressSpace, Cond, CondTerm, Location, Span, Test, Thread } from '../core/types.ts';

/** One use of a location by an instruction, recorded by the parser with its position. */
export interface LocUse {
  loc: string;
  /** Address space of the pointer operand. */
  space: AddressSpace;
  /** Source address space of an `addrspacecast (ptr addrspace(N) @x to ptr)` operand, else null. */
  declaredVia: AddressSpace | null;
  thread: string;
  span: Span;
  access: 'read' | 'write' | 'rmw' | 'avread' | 'avwrite' | 'barrier';
}

/**
 * Names defined on lines that have errors of their own (`%r = …`, as `thread:reg`; `@x = …`):
 * their uses are not reported again.
 */
interface Broken {
  regs: ReadonlySet<string>;
  locs: ReadonlySet<string>;
}

/** Runs the whole-test checks; `eof` positions diagnostics about the file as a whole. */
export function checkTest(
  test: Test,
  uses: readonly LocUse[],
  eof: Span,
  brokenRegs: ReadonlySet<string> = new Set(),
  brokenLocs: ReadonlySet<string> = new Set(),
): SourceDiagnostic[] {
  const out: SourceDiagnostic[] = [];
  if (test.threads.length === 0) out.push(diag('LT3020', eof));
  const locs = new Map(test.locations.map((l) => [l.name, l]));
  const threads = new Map(test.threads.map((t) => [t.name, t]));
  const localAgents = new Map<string, { agent: number; span: Span }>();
  const copies = new Map<string, Set<string>>(); // location → workgroup/thread keys that use it
  for (const u of uses) {
    const loc = locs.get(u.loc);
    if (!loc) {
      // A location whose declaration has an error of its own is not undefined on top of it.
      if (!brokenLocs.has(u.loc))
        out.push(diag('LT3003', u.span, { name: u.loc, near: nearHint(u.loc, [...locs.keys()]) }));
      continue;
    }
    if (!checkSpace(u, loc, out)) continue;
    if (u.access === 'barrier' ? !loc.barrier : loc.barrier) {
      out.push(
        diag('LT3015', u.span, {
          what: loc.barrier
            ? `'@${u.loc}' is a named-barrier object; only barrier intrinsics use it`
            : `'@${u.loc}' is not a named-barrier object`,
        }),
      );
      continue;
    }
    if (loc.space === 'constant' && (u.access === 'write' || u.access === 'rmw' || u.access === 'avwrite')) {
      out.push(diag('LT3012', u.span, { name: u.loc }));
    }
    if (
      (u.access === 'avread' || u.access === 'avwrite') &&
      (loc.space !== 'global' || u.space !== 'global')
    ) {
      out.push(
        diag('LT3014', u.span, {
          intrinsic:
            u.access === 'avread' ? 'llvm.amdgcn.av.global.load.b128' : 'llvm.amdgcn.av.global.store.b128',
          name: u.loc,
          loc: u.space !== 'global' ? `reached through a ${u.space} pointer` : `${loc.space} memory`,
        }),
      );
    }
    const thread = threads.get(u.thread);
    if (!thread) continue;
    if (loc.space === 'local') checkLocalAgent(u, thread, localAgents, out);
    const key = copyKey(loc, thread);
    if (key !== null) {
      const set = copies.get(loc.name) ?? new Set<string>();
      copies.set(loc.name, set);
      set.add(key);
    }
  }
  if (test.condition) {
    const regs = new Map(test.threads.map((t) => [t.name, new Set(definedRegs(t))]));
    const broken: Broken = { regs: brokenRegs, locs: brokenLocs };
    checkCond(test.condition.cond, test, locs, threads, regs, copies, broken, out);
  }
  checkWaveBarriers(test, out);
  return out;
}

/**
 * Threads in one wavefront are lanes of one wave. seeds/001: "s_barrier instructions are convergent
 * within a wave, and thus can only be performed in wave-uniform control flow" — so every lane of a
 * wavefront must perform the same barrier operations (docs/model.md, choice 35).
 */
function checkWaveBarriers(test: Test, out: SourceDiagnostic[]): void {
  const first = new Map<string, Thread>();
  const ops = (t: Thread) =>
    t.body.flatMap((i) =>
      i.kind === 'barrier' ? [{ i, sig: `${i.op} ${i.id} ${i.object} ${i.count}` }] : [],
    );
  for (const t of test.threads) {
    const p = t.placement;
    if (p.kind === 'host') continue;
    const key = `${p.agent}.${p.cluster}.${p.workgroup}.${p.wavefront}`;
    const f = first.get(key);
    if (!f) {
      first.set(key, t);
      continue;
    }
    const a = ops(f);
    const b = ops(t);
    const k = b.findIndex((x, i) => a[i]?.sig !== x.sig);
    if (k < 0 && a.length === b.length) continue;
    out.push(
      diag('LT3023', k >= 0 ? b[k]!.i.span : t.span, {
        thread: t.name,
        other: f.name,
      }),
    );
  }
}

function nearHint(name: string, known: string[]): string {
  const near = nearestNames(name, known);
  return near.length > 0 ? `, or did you mean ${near.map((n) => `@${n}`).join(', ')}?` : '';
}

function checkSpace(u: LocUse, loc: Location, out: SourceDiagnostic[]): boolean {
  for (const s of [u.space, u.declaredVia]) {
    if (s === null || s === 'generic' || s === loc.space) continue;
    out.push(
      diag('LT3010', u.span, {
        ptr: `${s}`,
        name: u.loc,
        loc: loc.space,
        n: String({ global: 1, local: 3, constant: 4, private: 5 }[loc.space]),
      }),
    );
    return false;
  }
  return true;
}

function checkLocalAgent(
  u: LocUse,
  thread: Thread,
  seen: Map<string, { agent: number; span: Span }>,
  out: SourceDiagnostic[],
): void {
  const p = thread.placement;
  if (p.kind === 'host') {
    out.push(diag('LT3009', u.span, { name: u.loc, where: `host thread ${thread.name}` }));
    return;
  }
  const first = seen.get(u.loc);
  if (!first) seen.set(u.loc, { agent: p.agent, span: u.span });
  else if (first.agent !== p.agent) {
    out.push(
      diag('LT3009', u.span, {
        name: u.loc,
        where: `two agents (agent ${first.agent} at line ${first.span.line}, agent ${p.agent} here)`,
      }),
    );
  }
}

/** Which copy of a location a thread touches: its workgroup for LDS, itself for private, null when shared. */
function copyKey(loc: Location, t: Thread): string | null {
  const p = t.placement;
  if (loc.space === 'private') return t.name;
  if (loc.space !== 'local') return null;
  return p.kind === 'host' ? null : `${p.agent}.${p.cluster}.${p.workgroup}`;
}

function checkCond(
  c: Cond,
  test: Test,
  locs: Map<string, Location>,
  threads: Map<string, Thread>,
  regs: Map<string, ReadonlySet<string>>,
  copies: Map<string, Set<string>>,
  broken: Broken,
  out: SourceDiagnostic[],
): void {
  switch (c.kind) {
    case 'true':
    case 'false':
      return;
    case 'not':
      checkCond(c.arg, test, locs, threads, regs, copies, broken, out);
      return;
    case 'and':
    case 'or':
      for (const a of c.args) checkCond(a, test, locs, threads, regs, copies, broken, out);
      return;
    case 'cmp':
      checkTerm(c.lhs, locs, threads, regs, copies, broken, out);
  }
}

function checkTerm(
  t: CondTerm,
  locs: Map<string, Location>,
  threads: Map<string, Thread>,
  regsOf: Map<string, ReadonlySet<string>>,
  copies: Map<string, Set<string>>,
  broken: Broken,
  out: SourceDiagnostic[],
): void {
  const thread = t.thread === null ? null : threads.get(t.thread);
  if (t.thread !== null && !thread) {
    const near = nearestNames(t.thread, [...threads.keys()]);
    out.push(
      diag('LT3011', t.span, {
        what: `thread ${t.thread}`,
        hint: `threads are ${[...threads.keys()].join(', ')}${near.length ? `; did you mean ${near[0]}?` : ''}`,
      }),
    );
    return;
  }
  if (t.kind === 'reg') {
    if (!regsOf.get(thread!.name)!.has(t.reg) && !broken.regs.has(`${t.thread}:${t.reg}`)) {
      const regs = [...regsOf.get(thread!.name)!];
      const near = nearestNames(t.reg, regs);
      out.push(
        diag('LT3011', t.span, {
          what: `register %${t.reg} of ${t.thread}`,
          hint: regs.length
            ? `${t.thread} defines ${regs.map((r) => `%${r}`).join(', ')}${near.length ? `; did you mean %${near[0]}?` : ''}`
            : `${t.thread} defines no registers`,
        }),
      );
    }
    return;
  }
  const loc = locs.get(t.loc);
  if (!loc) {
    if (broken.locs.has(t.loc)) return;
    out.push(
      diag('LT3011', t.span, {
        what: `location @${t.loc}`,
        hint: `declared locations: ${[...locs.keys()].map((l) => `@${l}`).join(', ') || 'none'}`,
      }),
    );
    return;
  }
  if (loc.barrier) {
    out.push(diag('LT3015', t.span, { what: `'@${t.loc}' is a named-barrier object and has no value` }));
    return;
  }
  if (thread && thread.placement.kind === 'host' && (loc.space === 'local' || loc.space === 'private')) {
    out.push(diag('LT3009', t.span, { name: t.loc, where: `host thread ${thread.name} (in the condition)` }));
    return;
  }
  if (t.thread === null && (copies.get(t.loc)?.size ?? 0) > 1) {
    const example = [...threads.values()].find((th) => th.placement.kind === 'device')?.name ?? 'P0';
    out.push(diag('LT3017', t.span, { name: t.loc, example }));
  }
}

/** Registers a thread defines, in order. */
export function definedRegs(t: Thread): string[] {
  const out: string[] = [];
  for (const i of t.body) {
    if ('dst' in i && i.dst !== null) out.push(i.dst);
  }
  return out;
}
