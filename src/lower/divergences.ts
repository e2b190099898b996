/**
 * The recorded differences between the documents (what gpumm emits) and llc-22: grouped, rendered
 * as the baseline the differential test asserts (src/lower/baselines/llc-divergences.txt), parsed back
 * for docs/targets/divergences.md. No Node APIs here.
 */

import type { Divergence } from './llc.ts';

/** Cells sharing a table row, both sequences and the set of targets. */
export interface DivergenceGroup {
  row: string;
  targets: string[];
  doc: string[];
  llc: string[];
  cells: string[];
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
    else m.set(key, { row, targets, doc: d.doc, llc: d.llc, cells: [d.cell] });
  }
  for (const g of m.values()) g.cells = foldCells(g.cells);
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
    '# Regenerate after reading the diff: npm run baseline:accept (needs llc-22).',
    '',
  ];
  for (const g of groups) {
    out.push(`row: ${g.row}`);
    out.push(`targets: ${g.targets.join(' ')}`);
    out.push(`doc: ${SEQ(g.doc)}`);
    out.push(`llc: ${SEQ(g.llc)}`);
    out.push(`cells (${g.cells.length}): ${g.cells.join(', ')}`);
    out.push('');
  }
  return out.join('\n');
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
    else if (line.startsWith('cells (')) {
      cur.cells = line.slice(line.indexOf(': ') + 2).split(', ');
      groups.push(cur as DivergenceGroup);
      cur = {};
    }
  }
  return groups;
}
