/**
 * The recorded differences between the documents (what gpumm emits) and llc-22: grouped, rendered
 * as the baseline the differential test asserts (src/lower/baselines/llc-divergences.txt), parsed back
 * for docs/targets/divergences.md. No Node APIs here.
 */

import { classify } from './causes.ts';
import type { Divergence } from './llc.ts';

/** Cells sharing a table row, both sequences and the set of targets, with what causes the difference. */
export interface DivergenceGroup {
  row: string;
  targets: string[];
  doc: string[];
  llc: string[];
  cells: string[];
  /** Ids of src/lower/causes.ts `CAUSES` (or `unexplained`). */
  causes: string[];
}

/** One place where two sequences differ: what only the document has there, and what only llc-22 has. */
export interface Hunk {
  doc: string[];
  llc: string[];
}

/**
 * The differences between two instruction sequences, as hunks of a longest common subsequence: a
 * repeated instruction present once on one side is a hunk, and so is an instruction that moved.
 */
export function seqDiff(doc: readonly string[], llc: readonly string[]): Hunk[] {
  const n = doc.length;
  const m = llc.length;
  const len: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      len[i]![j] = doc[i] === llc[j] ? len[i + 1]![j + 1]! + 1 : Math.max(len[i + 1]![j]!, len[i]![j + 1]!);
  const hunks: Hunk[] = [];
  let cur: Hunk | null = null;
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && doc[i] === llc[j]) {
      if (cur) hunks.push(cur);
      cur = null;
      i++;
      j++;
    } else if (j < m && (i === n || len[i]![j + 1]! >= len[i + 1]![j]!)) {
      cur ??= { doc: [], llc: [] };
      cur.llc.push(llc[j++]!);
    } else {
      cur ??= { doc: [], llc: [] };
      cur.doc.push(doc[i++]!);
    }
  }
  if (cur) hunks.push(cur);
  return hunks;
}

/** A hunk as text: `doc → llc`, with `—` for an empty side. */
export function hunkText(h: Hunk): string {
  const side = (s: readonly string[]): string => (s.length === 0 ? '—' : s.map((x) => `\`${x}\``).join('; '));
  return `${side(h.doc)} → ${side(h.llc)}`;
}

/** Groups per-cell divergences by (row, doc sequence, llc sequence, targets). */
export function groupDivergences(divs: readonly Divergence[]): DivergenceGroup[] {
  const m = new Map<string, DivergenceGroup>();
  for (const d of divs) {
    const row = d.rows[0] ?? '(no row)';
    const targets = [...d.targets].sort();
    const key = [row, d.doc.join('; '), d.llc.join('; '), targets.join(' ')].join('\u0000');
    const g = m.get(key);
    if (g) g.cells.push(d.cell);
    else m.set(key, { row, targets, doc: d.doc, llc: d.llc, cells: [d.cell], causes: [] });
  }
  for (const g of m.values()) {
    g.cells = foldCells(g.cells);
    g.causes = classify(g);
  }
  return [...m.values()].sort(
    (a, b) =>
      a.row.localeCompare(b.row) ||
      a.targets.join(' ').localeCompare(b.targets.join(' ')) ||
      a.doc.join('; ').localeCompare(b.doc.join('; ')) ||
      a.llc.join('; ').localeCompare(b.llc.join('; ')),
  );
}

const FLAG_SETS = ['', ' [volatile]', ' [nontemporal]', ' [volatile,nontemporal]'];

/**
 * Folds cell labels the way the grid does: all four volatile/nontemporal variants present becomes
 * `[*]`; a scope and its `-one-as` twin both present becomes `scope[-one-as]`. Sorted.
 */
export function foldCells(cells: readonly string[]): string[] {
  const set = new Set(cells);
  const byFlags = new Set<string>();
  for (const c of cells) {
    const base = c.replace(/ \[[a-z,]+\]$/, '');
    if (FLAG_SETS.every((f) => set.has(base + f)) && !base.startsWith('fence')) byFlags.add(`${base} [*]`);
    else byFlags.add(c);
  }
  const out = new Set<string>();
  for (const c of byFlags) {
    const m = /^(\S+ \S+ )([a-z]+)-one-as( .*)$/.exec(c);
    if (m && byFlags.has(`${m[1]}${m[2]}${m[3]}`)) continue;
    const plain = /^(\S+ \S+ )([a-z]+)( .*)$/.exec(c);
    if (plain && byFlags.has(`${plain[1]}${plain[2]}-one-as${plain[3]}`)) {
      out.add(`${plain[1]}${plain[2]}[-one-as]${plain[3]}`);
      continue;
    }
    out.add(c);
  }
  return [...out].sort();
}

const SEQ = (s: readonly string[]): string => (s.length === 0 ? '(nothing)' : s.join('; '));
const UNSEQ = (s: string): string[] => (s === '(nothing)' ? [] : s.split('; '));

/** The baseline text: one block per group. */
export function renderDivergenceBaseline(groups: readonly DivergenceGroup[], llcVersion: string): string {
  const out: string[] = [
    '# Differences between the documents (gpumm) and llc-22 -O0, amdgcn-amd-amdhsa; targets ending in /opencl:',
    '# OpenCL rules, compiled with -one-as syncscopes (seq_cst as written).',
    `# llc version: ${llcVersion}`,
    '# Sequences as compared (docs/targets/divergences.md, "What is compared"); causes: src/lower/causes.ts.',
    '# Regenerate after reading the diff: npm run baseline:accept (needs llc-22).',
    '',
  ];
  for (const g of groups) {
    out.push(`row: ${g.row}`);
    out.push(`targets: ${g.targets.join(' ')}`);
    out.push(`doc: ${SEQ(g.doc)}`);
    out.push(`llc: ${SEQ(g.llc)}`);
    out.push(`causes: ${g.causes.join(' ')}`);
    out.push(`cells (${g.cells.length}): ${g.cells.join(', ')}`);
    out.push('');
  }
  return out.join('\n');
}

/**
 * Whether a folded cell label of the baseline (`load acquire agent[-one-as] global [*]`) covers a
 * cell label (`load acquire agent-one-as global [volatile]`).
 */
export function cellCovers(folded: string, label: string): boolean {
  if (folded === label) return true;
  const esc = folded.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const re = esc.replace('\\[-one-as\\]', '(-one-as)?').replace(/ \\\[\\\*\\\]$/, '( \\[[a-z,]+\\])?');
  return new RegExp(`^${re}$`).test(label);
}

/** The recorded divergence of a cell on a run (`gfx1200/cu`), or null when llc-22 agrees there. */
export function findDivergence(
  groups: readonly DivergenceGroup[],
  run: string,
  label: string,
): DivergenceGroup | null {
  return groups.find((g) => g.targets.includes(run) && g.cells.some((c) => cellCovers(c, label))) ?? null;
}

/** The llc version the baseline was recorded with. */
export function baselineLlcVersion(text: string): string {
  return /^# llc version: (.*)$/m.exec(text)?.[1] ?? 'unknown';
}

/** Parses the baseline text back into groups. */
export function parseDivergenceBaseline(text: string): DivergenceGroup[] {
  const groups: DivergenceGroup[] = [];
  let cur: Partial<DivergenceGroup> = {};
  for (const line of text.split('\n')) {
    if (line.startsWith('row: ')) cur = { row: line.slice(5) };
    else if (line.startsWith('targets: ')) cur.targets = line.slice(9).split(' ');
    else if (line.startsWith('doc: ')) cur.doc = UNSEQ(line.slice(5));
    else if (line.startsWith('llc: ')) cur.llc = UNSEQ(line.slice(5));
    else if (line.startsWith('causes: ')) cur.causes = line.slice(8).split(' ');
    else if (line.startsWith('cells (')) {
      cur.cells = line.slice(line.indexOf(': ') + 2).split(', ');
      groups.push(cur as DivergenceGroup);
      cur = {};
    }
  }
  return groups;
}
