/**
 * The mutation matrix: each instruction of each table row a catalogue test uses, removed (a wait,
 * an invalidate, a write-back, a barrier) or weakened (a narrower `scope:`, a cache bit cleared), in
 * every place the row is used; a mutant is killed when a test the documented code keeps sound
 * becomes unsound on the machine. Survivors are listed with the reason they survive.
 */

import * as z from 'zod';
import type { Test } from '../core/types.ts';
import type { Report } from '../enumerate/report.ts';
import { CACHE_SCOPES, formatIsa, type IsaInstr, type ScBits } from '../lower/isa.ts';
import type { LscFenceOp, LscScope, XeLeaf } from '../lower/isa-xe.ts';
import { lowerTest } from '../lower/lower.ts';
import type { LowerCtx } from '../lower/types.ts';
import { isLowered } from '../lower/types.ts';
import type { ExploreOptions } from '../sim/machine.ts';
import type { LoweredCode } from '../sim/program.ts';
import { checkTest, machineMode, modeText } from './check.ts';

/** One mutation of one instruction of a row's sequence. */
export interface Mutation {
  kind: 'drop' | 'weaken';
  /** What the instruction becomes (null: dropped). */
  apply: (i: IsaInstr) => IsaInstr | null;
  text: string;
}

/**
 * What an Intel fence op weakens to: each does less of the LSC_FENCE_OP table's work (evict = write back
 * the dirty lines and invalidate every line; clean only the first, invalidate only the clean lines).
 */
const WEAKER_OP: Record<LscFenceOp, LscFenceOp[]> = {
  evict: ['clean', 'invalidate', 'none'],
  invalidate: ['none'],
  clean: ['none'],
  discard: [],
  flushl3: [],
  none: [],
};

/**
 * The next narrower Intel fence scope. `local` is skipped: it is the Xe-core, which holds a whole
 * work-group (barrier.cl: "Single workgroup executes on one DSS"), so group and local act alike on
 * every machine; `sysacq` is not a widening of `sysrel`.
 */
const NARROWER_SCOPE: Partial<Record<LscScope, LscScope>> = {
  tile: 'group',
  gpu: 'tile',
  gpus: 'gpu',
  sysrel: 'gpus',
};

/** The mutations of an Intel instruction: drop a fence or barrier, weaken a fence's op, narrow its scope. */
function xeMutations(i: IsaInstr): Mutation[] {
  const out: Mutation[] = [];
  if (i.kind === 'lsc_fence' || i.kind === 'xe_barrier')
    out.push({ kind: 'drop', apply: () => null, text: `drop ${formatIsa(i)}` });
  if (i.kind === 'lsc_fence') {
    for (const op of WEAKER_OP[i.op])
      out.push({ kind: 'weaken', apply: () => ({ ...i, op }), text: `${formatIsa(i)} as ${op}` });
    const narrower = NARROWER_SCOPE[i.scope];
    if (narrower !== undefined)
      out.push({
        kind: 'weaken',
        apply: () => ({ ...i, scope: narrower }),
        text: `${formatIsa(i)} at ${narrower}`,
      });
  }
  if (i.kind === 'xe_generic')
    // Each fence of each branch of a generic-pointer dispatch, within its branch.
    i.branches.forEach((b, bi) => {
      b.seq.forEach((leaf, li) => {
        for (const mu of xeMutations(leaf))
          out.push({
            kind: mu.kind,
            text: `${b.spaces.join(', ')} branch: ${mu.text}`,
            apply: (g) => {
              if (g.kind !== 'xe_generic') return g;
              const m = mu.apply(leaf) as XeLeaf | null;
              const seq = b.seq.flatMap((x, k) => (k !== li ? [x] : m ? [m] : []));
              return { ...g, branches: g.branches.map((x, k) => (k === bi ? { ...x, seq } : x)) };
            },
          });
      });
    });
  return out;
}

/** The mutations of one instruction: drop what only orders, narrow scopes, clear cache bits. */
export function mutationsOf(i: IsaInstr): Mutation[] {
  const out: Mutation[] = xeMutations(i);
  if (i.kind === 'wait' || i.kind === 'inv' || i.kind === 'wb' || i.kind === 'barrier')
    out.push({ kind: 'drop', apply: () => null, text: `drop ${formatIsa(i)}` });
  if (i.kind === 'wait' && i.counters.length > 1)
    for (const c of i.counters)
      out.push({
        kind: 'weaken',
        apply: () => ({ ...i, counters: i.counters.filter((x) => x !== c) }),
        text: `${formatIsa(i)} without ${c}`,
      });
  if ((i.kind === 'inv' || i.kind === 'wb' || i.kind === 'vmem') && i.scope !== null) {
    const k = CACHE_SCOPES.indexOf(i.scope);
    if (k > 0) {
      const narrower = CACHE_SCOPES[k - 1]!;
      out.push({
        kind: 'weaken',
        apply: () => ({ ...i, scope: narrower === 'SCOPE_CU' && i.kind === 'vmem' ? null : narrower }),
        text: `${formatIsa(i)} at ${narrower}`,
      });
    }
  }
  if ((i.kind === 'inv' || i.kind === 'wb') && i.sc !== null && i.sc !== 'sc0') {
    // GFX942 scope bits: system (sc0 sc1) → agent (sc1) → workgroup (sc0).
    const narrower: ScBits = i.sc === 'sc0 sc1' ? 'sc1' : 'sc0';
    out.push({
      kind: 'weaken',
      apply: () => ({ ...i, sc: narrower }),
      text: `${formatIsa(i)} at ${narrower.replace(/sc(\d)/g, 'sc$1=1')}`,
    });
  }
  if (i.kind === 'vmem')
    for (const bit of ['glc', 'dlc', 'sc0', 'sc1'] as const)
      if (i[bit])
        out.push({
          kind: 'weaken',
          apply: () => ({ ...i, [bit]: false }),
          text: `${formatIsa(i)} without ${bit}`,
        });
  return out;
}

export const MutantSchema = z.object({
  row: z.string(),
  position: z.number().int(),
  instruction: z.string(),
  mutation: z.string(),
  killedBy: z.string().nullable(),
  /** Why a surviving mutant survives. */
  survives: z.string().nullable(),
});

export const MutationReportSchema = z.object({
  target: z.string(),
  mode: z.string(),
  tests: z.number().int(),
  mutants: z.array(MutantSchema),
  ms: z.number(),
});

export type MutationReport = z.infer<typeof MutationReportSchema>;

/** A catalogue test with its model report and, per thread and instruction, the row each came from. */
export interface Subject {
  test: Test;
  report: Report;
  code: LoweredCode;
  rows: string[][];
}

/** The documents' code of a test with the table row of each instruction, or null when it does not lower. */
export function subjectOf(test: Test, report: Report, ctx: LowerCtx): Subject | null {
  const lowered = lowerTest(test, ctx);
  const code: IsaInstr[][][] = [];
  const rows: string[][] = [];
  for (const th of lowered) {
    const seqs: IsaInstr[][] = [];
    const rs: string[] = [];
    for (const li of th.instrs) {
      if (!isLowered(li.result)) return null;
      seqs.push(li.result.seq);
      rs.push(li.result.rows.find((r) => !r.startsWith('rule:')) ?? '');
    }
    code.push(seqs);
    rows.push(rs);
  }
  return { test, report, code, rows };
}

/** Runs the matrix for one target and mode over the subjects (tests the documented code keeps sound). */
export async function mutationMatrix(
  subjects: Subject[],
  ctx: LowerCtx,
  budget: ExploreOptions,
  pause?: () => Promise<void>,
): Promise<MutationReport> {
  const t0 = performance.now();
  const mode = machineMode(ctx);
  const check = (s: Subject, code: LoweredCode) =>
    checkTest(s.test, s.report, code, ctx, 'doc', { ...budget, trace: false }, pause);
  // Only tests the documented code keeps sound can kill a mutant.
  const sound: Subject[] = [];
  for (const s of subjects) if ((await check(s, s.code)).verdict === 'sound') sound.push(s);
  // Every (row, position) with the instruction found there, from the tests that use the row.
  const sites = new Map<string, { row: string; position: number; instr: IsaInstr; users: Subject[] }>();
  for (const s of sound)
    for (let t = 0; t < s.rows.length; t++)
      for (let k = 0; k < s.rows[t]!.length; k++) {
        const row = s.rows[t]![k]!;
        s.code[t]![k]!.forEach((instr, position) => {
          const key = `${row}#${position}#${formatIsa(instr)}`;
          const site = sites.get(key) ?? { row, position, instr, users: [] };
          if (!site.users.includes(s)) site.users.push(s);
          sites.set(key, site);
        });
      }
  const mutants: MutationReport['mutants'] = [];
  for (const site of [...sites.values()].sort(
    (a, b) => a.row.localeCompare(b.row) || a.position - b.position,
  )) {
    for (const mu of mutationsOf(site.instr)) {
      let killedBy: string | null = null;
      // Smaller tests first: they are checked fastest.
      const users = [...site.users].sort((a, b) => a.test.threads.length - b.test.threads.length);
      for (const s of users) {
        const code = s.code.map((th, t) =>
          th.map((seq, k) => {
            if (s.rows[t]![k] !== site.row) return seq;
            const out: IsaInstr[] = [];
            seq.forEach((ins, p) => {
              if (p !== site.position || formatIsa(ins) !== formatIsa(site.instr)) out.push(ins);
              else {
                const m = mu.apply(ins);
                if (m) out.push(m);
              }
            });
            return out;
          }),
        );
        const r = await check(s, code);
        if (r.verdict === 'UNSOUND') {
          killedBy = s.test.name;
          break;
        }
      }
      mutants.push({
        row: site.row,
        position: site.position + 1,
        instruction: formatIsa(site.instr),
        mutation: mu.text,
        killedBy,
        survives: killedBy !== null ? null : survivalReason(site.instr, mu, site.users, ctx),
      });
    }
  }
  return { target: ctx.target.name, mode, tests: sound.length, mutants, ms: performance.now() - t0 };
}

/** Counters no instruction the machines run is counted on (sampling, BVH, export, scalar memory). */
const UNUSED_COUNTERS = ['samplecnt', 'bvhcnt', 'expcnt', 'kmcnt'];

function survivalReason(i: IsaInstr, mu: Mutation, users: Subject[], ctx: LowerCtx): string {
  if (i.kind === 'wait') {
    const removed =
      mu.kind === 'drop'
        ? i.counters
        : i.counters.filter((c) => !(mu.apply(i) as typeof i).counters.includes(c));
    if (removed.every((c) => c === 'xcnt'))
      return 'redundant on this machine: s_wait_xcnt waits for address translation, and the machine models no translation fault (the XNACK replay it guards an atomic against; docs/hardware.md)';
    if (removed.every((c) => UNUSED_COUNTERS.includes(c)))
      return `redundant on this machine: no memory instruction of the tests is counted on ${removed.join(', ')}`;
  }
  if (i.kind === 'lsc_fence' && i.op === 'evict' && mu.text.endsWith(' as clean'))
    return `redundant on this machine where the fence only releases: clean writes the dirty lines back as evict does and only keeps the clean ones, which an acquire would invalidate (no test using the row acquires through it on ${ctx.target.name}, or a test is missing)`;
  const names = users.map((u) => u.test.name);
  const shown =
    names.length > 4 ? `${names.slice(0, 4).join(', ')} and ${names.length - 4} more` : names.join(', ');
  return `no test using the row becomes unsound on ${ctx.target.name} (${shown}): redundant on this machine, or a test is missing`;
}

/** Text of the matrix: per row and instruction the killing test, then every survivor with its reason. */
export function formatMutationReport(r: MutationReport): string {
  const lines = [
    `Mutation matrix for ${r.target}${modeText(r.target, r.mode) ? ` (${r.mode.toUpperCase()} mode)` : ''}: ${r.mutants.length} mutants, ` +
      `${r.mutants.filter((m) => m.killedBy).length} killed, over ${r.tests} sound catalogue tests`,
  ];
  let row = '';
  for (const m of r.mutants) {
    if (m.row !== row) {
      row = m.row;
      lines.push(row);
    }
    lines.push(
      `  ${m.position}. ${m.mutation.padEnd(48)} ${m.killedBy ? `killed by ${m.killedBy}` : 'SURVIVES'}`,
    );
  }
  const survivors = r.mutants.filter((m) => !m.killedBy);
  if (survivors.length > 0) {
    lines.push('', 'Surviving mutants:');
    for (const m of survivors) lines.push(`  ${m.row} #${m.position} ${m.mutation}: ${m.survives}`);
  }
  return lines.join('\n');
}
