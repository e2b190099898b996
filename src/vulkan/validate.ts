/**
 * Checks shared by both Vulkan front ends: the modifiers of one memory instruction (what the Vulkan
 * spec and SPIR-V allow together), and the test as a whole (labels, registers, threads, locations
 * and the condition's terms). Detection only: the wording is in the diagnostics table.
 * No Node APIs here: the web page imports this file.
 */

import { diag, type SourceDiagnostic } from '../core/diagnostics.ts';
import { nearestNames } from '../core/nearest.ts';
import type { Span } from '../core/types.ts';
import {
  forEachVkTerm,
  type VkCond,
  type VkInstr,
  type VkMembar,
  type VkRmwOp,
  type VkScope,
  type VkTerm,
  type VkValue,
  type VulkanTest,
} from './ast.ts';

/** The modifiers of one memory instruction, as written (either syntax). */
export interface Mods {
  atomic: boolean;
  mo: 'acq' | 'rel' | 'acq_rel' | null;
  av: boolean;
  vis: boolean;
  nonpriv: boolean;
  scope: VkScope | null;
  /** Storage class index, -1 when none is written. */
  sc: number;
  semsc: number;
  semav: boolean;
  semvis: boolean;
  op: VkRmwOp | null;
}

/** What a memory or control barrier takes of its modifiers (checked by `checkMods`). */
export function barrierFields(m: Mods): Omit<VkMembar, 'kind' | 'span'> {
  return {
    acquire: m.mo === 'acq' || m.mo === 'acq_rel',
    release: m.mo === 'rel' || m.mo === 'acq_rel',
    scope: m.scope!,
    semsc: m.semsc,
    semav: m.semav,
    semvis: m.semvis,
  };
}

export function emptyMods(): Mods {
  return {
    atomic: false,
    mo: null,
    av: false,
    vis: false,
    nonpriv: false,
    scope: null,
    sc: -1,
    semsc: 0,
    semav: false,
    semvis: false,
    op: null,
  };
}

/**
 * What is wrong with the modifiers of `op` (errors and warnings). `at(name)` locates a modifier as
 * written; `whole` is the instruction.
 */
export function checkMods(
  op: 'ld' | 'st' | 'rmw' | 'membar' | 'cbar',
  m: Mods,
  at: (name: string) => Span,
  whole: Span,
): SourceDiagnostic[] {
  const out: SourceDiagnostic[] = [];
  const access = op === 'ld' || op === 'st' || op === 'rmw';
  const atomic = m.atomic || op === 'rmw';
  if (access && m.sc < 0) out.push(diag('VK3001', whole, { op }));
  if (m.atomic && (m.av || m.vis || m.nonpriv)) {
    const name = m.av ? 'av' : m.vis ? 'vis' : 'nonpriv';
    out.push(
      diag('VK2005', at(name), {
        name,
        other: 'atom',
        why: 'an atomic is non-private and makes itself available (visible) at its scope already',
      }),
    );
  }
  if (access) {
    if ((atomic || m.av || m.vis) && m.scope === null)
      out.push(
        diag('VK3002', whole, { what: atomic ? `an atomic ${op}` : m.av ? 'an .av store' : 'a .vis load' }),
      );
    if (!atomic && !m.av && !m.vis && m.scope !== null) out.push(diag('VK3007', at(m.scope)));
    if (!atomic && m.mo !== null)
      out.push(
        diag('VK3003', at(m.mo), {
          what: `a plain ${op} has no memory order`,
          fix: `make it atomic (${op}.atom.${m.mo}…) or drop .${m.mo}`,
        }),
      );
  } else {
    if (m.scope === null) out.push(diag('VK3002', whole, { what: `a ${op}` }));
    if (op === 'membar' && m.mo === null)
      out.push(
        diag('VK3003', whole, {
          what: 'a membar without a memory order',
          fix: 'OpMemoryBarrier orders through acquire or release: write membar.acq, .rel or .acq_rel',
        }),
      );
  }
  const acquire = m.mo === 'acq' || m.mo === 'acq_rel';
  const release = m.mo === 'rel' || m.mo === 'acq_rel';
  if (m.semav && !release) out.push(diag('VK3004', at('semav'), { flag: 'semav', needs: 'release' }));
  if (m.semvis && !acquire) out.push(diag('VK3004', at('semvis'), { flag: 'semvis', needs: 'acquire' }));
  if (m.semsc !== 0 && m.mo === null) out.push(diag('VK3005', whole));
  if (m.mo !== null && m.semsc === 0)
    out.push(diag('VK3006', whole, { what: op === 'membar' || op === 'cbar' ? 'barrier' : 'atomic' }));
  return out;
}

/** Registers a thread assigns (ld, rmw, local results). */
export function assignedRegisters(body: readonly VkInstr[]): Set<string> {
  const out = new Set<string>();
  for (const i of body) if (i.kind === 'ld' || i.kind === 'rmw' || i.kind === 'local') out.add(i.dst);
  return out;
}

/** Every location name an instruction names, in order of first use. */
export function accessedLocations(t: VulkanTest): string[] {
  const out: string[] = [];
  for (const th of t.threads)
    for (const i of th.body)
      if ((i.kind === 'ld' || i.kind === 'st' || i.kind === 'rmw') && !out.includes(i.loc)) out.push(i.loc);
  return out;
}

/** Cross-instruction checks of a parsed test. */
export function checkTest(t: VulkanTest): SourceDiagnostic[] {
  const out: SourceDiagnostic[] = [];
  const threadNames = t.threads.map((th) => th.name);
  const threadRef = (name: string, span: Span): boolean => {
    if (threadNames.includes(name)) return true;
    out.push(
      diag('VK3011', span, {
        name,
        near: nearestNames(name, threadNames).join(', ') || threadNames.join(', '),
      }),
    );
    return false;
  };
  for (const s of t.ssw) {
    threadRef(s.from, s.span);
    threadRef(s.to, s.span);
  }
  for (const r of t.regInits) threadRef(r.thread, r.span);
  // Locations: `x = y` names a declared location (transitively, without cycles).
  const declared = new Map(t.locations.map((l) => [l.name, l]));
  for (const l of t.locations) {
    if (l.sameAs === null) continue;
    const seen = new Set([l.name]);
    let cur = l.sameAs;
    for (;;) {
      const d = declared.get(cur);
      if (!d) {
        out.push(
          diag('VK3014', l.span, {
            what: `${l.name} is declared the same location as ${cur}, which is not declared`,
          }),
        );
        break;
      }
      if (seen.has(cur)) {
        out.push(
          diag('VK3014', l.span, { what: `${l.name} is declared the same location as itself (a cycle)` }),
        );
        break;
      }
      seen.add(cur);
      if (d.sameAs === null) break;
      cur = d.sameAs;
    }
  }
  for (const th of t.threads) {
    const labels = new Map<string, Span>();
    for (const i of th.body) {
      if (i.kind !== 'label') continue;
      const prior = labels.get(i.name);
      if (prior)
        out.push(diag('VK3009', i.span, { name: i.name, thread: th.name, line: String(prior.line) }));
      else labels.set(i.name, i.span);
    }
    const regs = assignedRegisters(th.body);
    for (const r of t.regInits) if (r.thread === th.name) regs.add(r.reg);
    const read = (v: VkValue, span: Span) => {
      if (v.kind === 'reg' && !regs.has(v.name))
        out.push(diag('VK3010', span, { reg: v.name, thread: th.name }));
    };
    for (const i of th.body) {
      switch (i.kind) {
        case 'st':
        case 'rmw':
          read(i.value, i.span);
          break;
        case 'local':
          read(i.a, i.span);
          read(i.b, i.span);
          break;
        case 'branch':
          read(i.a, i.span);
          read(i.b, i.span);
          break;
        default:
      }
      if ((i.kind === 'branch' || i.kind === 'goto') && !labels.has(i.label))
        out.push(
          diag('VK3008', i.span, {
            name: i.label,
            thread: th.name,
            near:
              nearestNames(i.label, [...labels.keys()]).join(', ') ||
              [...labels.keys()].join(', ') ||
              undefined,
          }),
        );
    }
  }
  const locs = [...new Set([...t.locations.map((l) => l.name), ...accessedLocations(t)])];
  const term = (x: VkTerm) => {
    if (x.kind === 'reg') {
      if (!threadRef(x.thread, x.span)) return;
      const th = t.threads.find((h) => h.name === x.thread)!;
      const regs = assignedRegisters(th.body);
      for (const r of t.regInits) if (r.thread === th.name) regs.add(r.reg);
      if (!regs.has(x.reg))
        out.push(
          diag('VK3012', x.span, {
            thread: x.thread,
            reg: x.reg,
            near: nearestNames(x.reg, [...regs]).join(', ') || [...regs].join(', ') || undefined,
          }),
        );
    } else if (x.kind === 'mem' && !locs.includes(x.loc))
      out.push(
        diag('VK3017', x.span, {
          name: x.loc,
          near: nearestNames(x.loc, locs).join(', ') || locs.join(', ') || undefined,
        }),
      );
  };
  const visit = (c: VkCond) => forEachVkTerm(c, term);
  if (t.filter) visit(t.filter);
  if (t.condition) visit(t.condition.cond);
  return out;
}
