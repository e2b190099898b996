/**
 * Printers of a Vulkan test in either syntax: Dartagnan's (`printDat3m`) and the Khronos `.test`
 * format (`printKhronos`). Reading a printed test gives back the same test (the round-trip tests of
 * `print.test.ts`). A test that uses what the target syntax cannot say (a register condition in the
 * Khronos format, a quorum barrier, …) prints nothing: each feature missing gets a VK4008
 * diagnostic instead. No Node APIs here.
 */

import { diag, type SourceDiagnostic } from '../core/diagnostics.ts';
import { assertNever, type Span } from '../core/types.ts';
import type {
  KhronosPred,
  VkCond,
  VkInstr,
  VkPlacement,
  VkTerm,
  VkThread,
  VkValue,
  VulkanTest,
} from './ast.ts';

const SEMSC = (mask: number) =>
  [0, 1, 2, 3]
    .filter((k) => (mask >> k) & 1)
    .map((k) => `.semsc${k}`)
    .join('');

function mo(acquire: boolean, release: boolean): string {
  return acquire && release ? '.acq_rel' : acquire ? '.acq' : release ? '.rel' : '';
}

function val(v: VkValue): string {
  return v.kind === 'const' ? String(v.value) : v.name;
}

/** One instruction in Dartagnan's spelling (canonical modifier order). */
export function printDat3mInstr(i: VkInstr): string {
  switch (i.kind) {
    case 'ld':
      return `ld${i.atomic ? '.atom' : ''}${mo(i.acquire, false)}${i.vis ? '.vis' : i.nonpriv && !i.atomic ? '.nonpriv' : ''}${i.scope ? `.${i.scope}` : ''}.sc${i.sc}${SEMSC(i.semsc)}${i.semvis ? '.semvis' : ''} ${i.dst}, ${i.loc}`;
    case 'st':
      return `st${i.atomic ? '.atom' : ''}${mo(false, i.release)}${i.av ? '.av' : i.nonpriv && !i.atomic ? '.nonpriv' : ''}${i.scope ? `.${i.scope}` : ''}.sc${i.sc}${SEMSC(i.semsc)}${i.semav ? '.semav' : ''} ${i.loc}, ${val(i.value)}`;
    case 'rmw':
      return `rmw.atom${mo(i.acquire, i.release)}.${i.scope}.sc${i.sc}${SEMSC(i.semsc)}${i.semav ? '.semav' : ''}${i.semvis ? '.semvis' : ''}${i.op === 'xchg' ? '' : `.${i.op}`} ${i.dst}, ${i.loc}, ${val(i.value)}`;
    case 'membar':
      return `membar${mo(i.acquire, i.release)}.${i.scope}${SEMSC(i.semsc)}${i.semav ? '.semav' : ''}${i.semvis ? '.semvis' : ''}`;
    case 'cbar': {
      const args = [
        i.id,
        ...(i.resource === null ? [] : [String(i.resource)]),
        ...(i.quorum === null ? [] : [String(i.quorum)]),
      ];
      return `cbar${mo(i.acquire, i.release)}.${i.scope}${SEMSC(i.semsc)}${i.semav ? '.semav' : ''}${i.semvis ? '.semvis' : ''} ${args.join(', ')}`;
    }
    case 'avdevice':
    case 'visdevice':
      return i.kind;
    case 'local':
      return `${i.op} ${i.dst}, ${val(i.a)}, ${val(i.b)}`;
    case 'label':
      return `${i.name}:`;
    case 'goto':
      return `goto ${i.label}`;
    case 'branch':
      return `${i.cond} ${val(i.a)}, ${val(i.b)}, ${i.label}`;
    default:
      return assertNever(i, 'instruction');
  }
}

function term(t: VkTerm): string {
  return t.kind === 'reg' ? `${t.thread}:${t.reg}` : t.kind === 'mem' ? t.loc : String(t.value);
}

/** A condition in Dartagnan's (herd's) syntax: `/\`, `\/`, `~`, parentheses where needed. */
export function printVkCond(c: VkCond, above: 'top' | 'and' | 'or' | 'not' = 'top'): string {
  switch (c.kind) {
    case 'true':
    case 'false':
      return c.kind;
    case 'cmp':
      return `${term(c.lhs)} ${c.op} ${term(c.rhs)}`;
    case 'not':
      return `~${printVkCond(c.arg, 'not')}`;
    case 'and':
    case 'or': {
      if (c.args.length === 0) return c.kind === 'and' ? 'true' : 'false';
      const body = c.args.map((a) => printVkCond(a, c.kind)).join(c.kind === 'and' ? ' /\\ ' : ' \\/ ');
      return above === 'not' || (above === 'and' && c.kind === 'or') ? `(${body})` : body;
    }
    default:
      return assertNever(c, 'condition');
  }
}

function placementText(th: VkThread): string {
  const p = th.placement;
  return `${th.name}@sg ${p.subgroup}, wg ${p.workgroup}, qf ${p.queueFamily}`;
}

function quantifierText(q: 'exists' | 'not exists' | 'forall'): string {
  return q === 'not exists' ? '~exists' : q;
}

/** The start of `t`'s file, for what has no span of its own. */
function startOf(t: VulkanTest): Span {
  return { file: t.file, offset: 0, line: 1, col: 1, len: 0 };
}

/** The test in Dartagnan's syntax (every test can be written in it). */
export function printDat3m(t: VulkanTest): { text: string | null; diagnostics: SourceDiagnostic[] } {
  const diagnostics: SourceDiagnostic[] = [];
  const out: string[] = [`VULKAN ${t.name}`];
  if (t.description.some((d) => d.includes('"')))
    diagnostics.push(
      diag('VK4010', startOf(t), {
        what: 'a double quote in the description',
        format: 'Dartagnan',
        how: 'written as a single quote',
      }),
    );
  for (const d of t.description) out.push(`"${d.replace(/"/g, "'")}"`);
  for (const e of t.expects) out.push(`expect: ${expectText(e)}`);
  for (const a of t.assertions) out.push(`(* ${a.expect}${a.nochains ? ' NOCHAINS' : ''} ${a.text} *)`);
  if (t.assertions.length > 0)
    diagnostics.push(
      diag('VK4010', t.assertions[0]!.span, {
        what: 'a Khronos SATISFIABLE/NOSOLUTION line',
        format: 'Dartagnan',
        how: 'kept as a comment (the load values are the filter)',
      }),
    );
  for (const th of t.threads)
    for (const i of th.body)
      if (i.kind === 'cbar' && i.execScope !== 'wg')
        diagnostics.push(
          diag('VK4008', i.span, {
            what: `a control barrier with execution scope ${i.execScope}`,
            format: 'Dartagnan',
            fix: "Dartagnan's control barriers meet across the workgroup: this one would too",
          }),
        );
  out.push('{');
  for (const l of t.locations) out.push(`${l.name}=${l.sameAs ?? l.init};`);
  for (const r of t.regInits) out.push(`${r.thread}:${r.reg}=${r.value};`);
  out.push('}');
  if (t.ssw.length > 0) out.push(`{ ${t.ssw.map((s) => `ssw ${s.from} ${s.to};`).join(' ')} }`);
  const cols = t.threads.map((th) => [placementText(th), ...th.body.map(printDat3mInstr)]);
  const widths = cols.map((c) => Math.max(...c.map((s) => s.length)));
  const rows = Math.max(0, ...cols.map((c) => c.length));
  for (let r = 0; r < rows; r++)
    out.push(` ${cols.map((c, k) => (c[r] ?? '').padEnd(widths[k]!)).join(' | ')} ;`);
  if (t.filter) out.push(`filter (${printVkCond(t.filter)})`);
  if (t.condition) out.push(`${quantifierText(t.condition.quantifier)} (${printVkCond(t.condition.cond)})`);
  if (diagnostics.some((d) => d.severity === 'error')) return { text: null, diagnostics };
  return { text: `${out.join('\n')}\n`, diagnostics };
}

function expectText(e: VulkanTest['expects'][number]): string {
  switch (e.key) {
    case 'condition':
      return `condition ${e.value}`;
    default:
      return e.value;
  }
}

function predText(p: KhronosPred, above: 'top' | 'and' | 'not' = 'top'): string {
  switch (p.kind) {
    case 'consistent':
      return 'consistent[X]';
    case 'racefree':
      return '#dr=0';
    case 'racy':
      return '#dr>0';
    case 'not':
      return `!${predText(p.arg, 'not')}`;
    case 'and':
    case 'or': {
      const body = p.args.map((a) => predText(a, 'and')).join(p.kind === 'and' ? ' && ' : ' || ');
      return above === 'not' || (above === 'and' && p.kind === 'or') ? `(${body})` : body;
    }
    default:
      return assertNever(p, 'predicate');
  }
}

/** `reg == v` atoms of a conjunction, or null when the condition has another shape. */
function equalities(c: VkCond | null): Map<string, number> | null {
  const out = new Map<string, number>();
  if (c === null) return out;
  const args = c.kind === 'and' ? c.args : [c];
  for (const a of args) {
    if (a.kind !== 'cmp' || a.op !== '==') return null;
    const [r, v] = a.lhs.kind === 'reg' ? [a.lhs, a.rhs] : [a.rhs, a.lhs];
    if (r.kind !== 'reg' || v.kind !== 'const') return null;
    const key = `${r.thread}:${r.reg}`;
    if (out.has(key) && out.get(key) !== v.value) return null;
    out.set(key, v.value);
  }
  return out;
}

function scopeTok(s: string): string {
  return { sg: 'scopesg', wg: 'scopewg', qf: 'scopeqf', dv: 'scopedev' }[s]!;
}

/**
 * The test in the Khronos `.test` format. Load values come from the filter (`Pn:rk == v`); a
 * Dartagnan `exists`/`~exists` over such equalities becomes the values plus `SATISFIABLE` /
 * `NOSOLUTION consistent[X]`.
 */
export function printKhronos(t: VulkanTest): { text: string | null; diagnostics: SourceDiagnostic[] } {
  const diagnostics: SourceDiagnostic[] = [];
  const no = (what: string, span: Span, fix?: string) =>
    diagnostics.push(diag('VK4008', span, { what, format: 'Khronos .test', fix }));
  const values = equalities(t.filter);
  if (values === null && t.filter) no('a filter other than a conjunction of Pn:rk == value', startOf(t));
  let extra: Map<string, number> | null = new Map();
  const lines: string[] = [];
  if (t.condition) {
    const q = t.condition.quantifier;
    extra = q === 'forall' ? null : equalities(t.condition.cond);
    if (extra === null)
      no(
        `the condition ${quantifierText(q)} (${printVkCond(t.condition.cond)})`,
        t.condition.span,
        'a Khronos test asserts SATISFIABLE/NOSOLUTION over load values: only exists/~exists of Pn:rk == value conjunctions translate',
      );
  }
  const dead = deadInits(t);
  for (const r of t.regInits)
    if (!dead.has(`${r.thread}:${r.reg}`))
      no(`the initial value of ${r.thread}:${r.reg}, which the test can observe`, r.span);
  for (const l of t.locations)
    if (l.init !== 0 && l.sameAs === null)
      no(`location ${l.name} starting at ${l.init} (Khronos locations start at 0)`, l.span);
  if (t.expects.length > 0) no("gpumm's expect: lines", t.expects[0]!.span);
  for (const d of t.description) lines.push(d === '' ? '//' : `// ${d}`);
  const want = new Map([...(values ?? new Map<string, number>()), ...(extra ?? new Map<string, number>())]);
  let prev: VkPlacement | null = null;
  // Khronos groups are opened in order and never revisited.
  const closedWg = new Set<string>();
  const closedSg = new Set<string>();
  const closedQf = new Set<number>();
  for (const th of t.threads) {
    const p = th.placement;
    const wgKey = `${p.queueFamily}.${p.workgroup}`;
    const sgKey = `${wgKey}.${p.subgroup}`;
    const newQf = prev === null || prev.queueFamily !== p.queueFamily;
    const newWg = newQf || prev!.workgroup !== p.workgroup;
    const newSg = newWg || prev!.subgroup !== p.subgroup;
    if (
      (newQf && closedQf.has(p.queueFamily)) ||
      (newWg && closedWg.has(wgKey)) ||
      (newSg && closedSg.has(sgKey))
    )
      no(
        `thread ${th.name} returning to an earlier queue family, workgroup or subgroup`,
        th.span,
        'order the threads so each group is consecutive',
      );
    if (newQf && prev !== null) lines.push('NEWQF');
    if (newWg) lines.push('NEWWG');
    if (newSg) lines.push('NEWSG');
    if (prev) {
      closedQf.add(prev.queueFamily);
      if (newWg) closedWg.add(`${prev.queueFamily}.${prev.workgroup}`);
      if (newSg) closedSg.add(`${prev.queueFamily}.${prev.workgroup}.${prev.subgroup}`);
    }
    prev = p;
    lines.push(`NEWTHREAD ${th.number}`);
    const seen = new Set<string>();
    for (const i of th.body) {
      if ((i.kind === 'ld' || i.kind === 'rmw') && seen.has(i.dst))
        no(`${th.name}'s register ${i.dst} assigned twice (a Khronos load has a value of its own)`, i.span);
      if (i.kind === 'ld' || i.kind === 'rmw') seen.add(i.dst);
      const text = khronosInstr(th, i, want, no);
      if (text !== null) lines.push(text);
    }
  }
  for (const s of t.ssw) lines.push(`SSW ${s.from.slice(1)} ${s.to.slice(1)}`);
  for (const l of t.locations) if (l.sameAs !== null) lines.push(`SLOC ${l.sameAs} ${l.name}`);
  for (const a of t.assertions) lines.push(`${a.expect}${a.nochains ? ' NOCHAINS' : ''} ${predText(a.pred)}`);
  if (t.condition && extra !== null)
    lines.push(`${t.condition.quantifier === 'exists' ? 'SATISFIABLE' : 'NOSOLUTION'} consistent[X]`);
  if (diagnostics.length > 0) return { text: null, diagnostics };
  return { text: `${lines.join('\n')}\n`, diagnostics };
}

/**
 * Initial register values no execution can observe: in a thread without control flow or barriers,
 * of a register assigned before any instruction reads it.
 */
export function deadInits(t: VulkanTest): Set<string> {
  const out = new Set<string>();
  for (const th of t.threads) {
    if (th.body.some((i) => i.kind === 'branch' || i.kind === 'goto' || i.kind === 'cbar')) continue;
    const readFirst = new Set<string>();
    const assigned = new Set<string>();
    const use = (v: VkValue) => {
      if (v.kind === 'reg' && !assigned.has(v.name)) readFirst.add(v.name);
    };
    for (const i of th.body) {
      if (i.kind === 'st' || i.kind === 'rmw') use(i.value);
      if (i.kind === 'local') {
        use(i.a);
        use(i.b);
      }
      if (i.kind === 'ld' || i.kind === 'rmw' || i.kind === 'local') assigned.add(i.dst);
    }
    for (const r of assigned) if (!readFirst.has(r)) out.add(`${th.name}:${r}`);
  }
  return out;
}

function khronosInstr(
  th: VkThread,
  i: VkInstr,
  want: Map<string, number>,
  no: (what: string, span: Span, fix?: string) => void,
): string | null {
  const sem = (semsc: number, semav: boolean, semvis: boolean) =>
    `${SEMSC(semsc)}${semav ? '.semav' : ''}${semvis ? '.semvis' : ''}`;
  const acqrel = (a: boolean, r: boolean) => `${a ? '.acq' : ''}${r ? '.rel' : ''}`;
  switch (i.kind) {
    case 'ld':
    case 'rmw': {
      // The Khronos format names no registers: a load's value is its constraint in the filter.
      const read = want.get(`${th.name}:${i.dst}`);
      if (i.kind === 'ld') {
        const mods = `${i.atomic ? '.atom' : ''}${acqrel(i.acquire, false)}${i.vis ? '.vis' : i.nonpriv && !i.atomic ? '.nonpriv' : ''}${i.scope ? `.${scopeTok(i.scope)}` : ''}.sc${i.sc}${sem(i.semsc, false, i.semvis)}`;
        return `ld${mods} ${i.loc}${read === undefined ? '' : ` = ${read}`}`;
      }
      if (i.op !== 'xchg') no(`an rmw .${i.op} (a Khronos rmw stores its second value)`, i.span);
      if (i.value.kind !== 'const') no('an rmw storing a register', i.span);
      const w = i.value.kind === 'const' ? i.value.value : 0;
      if (read === undefined && !i.fresh) no('an rmw storing a value without a read value', i.span);
      const vals = read === undefined ? '' : i.fresh ? ` = ${read}` : ` = ${read} ${w}`;
      return `rmw${acqrel(i.acquire, i.release)}.${scopeTok(i.scope!)}.sc${i.sc}${sem(i.semsc, i.semav, i.semvis)} ${i.loc}${vals}`;
    }
    case 'st': {
      if (i.value.kind !== 'const') no('a store of a register', i.span);
      const mods = `${i.atomic ? '.atom' : ''}${acqrel(false, i.release)}${i.av ? '.av' : i.nonpriv && !i.atomic ? '.nonpriv' : ''}${i.scope ? `.${scopeTok(i.scope)}` : ''}.sc${i.sc}${sem(i.semsc, i.semav, false)}`;
      return `st${mods} ${i.loc}${i.fresh ? '' : ` = ${val(i.value)}`}`;
    }
    case 'membar':
      return `membar${acqrel(i.acquire, i.release)}.${scopeTok(i.scope)}${sem(i.semsc, i.semav, i.semvis)}`;
    case 'cbar':
      if (i.resource !== null || i.quorum !== null) no('a named barrier with a quorum', i.span);
      if (i.execScope !== i.scope)
        no(
          `a control barrier with execution scope ${i.execScope} and memory scope ${i.scope}`,
          i.span,
          'a Khronos cbar has one scope for both',
        );
      if (!/^[0-9]+$/.test(i.id) || String(Number(i.id)) !== i.id)
        no(`barrier id ${i.id} (Khronos ids are numbers)`, i.span);
      return `cbar${acqrel(i.acquire, i.release)}.${scopeTok(i.scope)}${sem(i.semsc, i.semav, i.semvis)} ${i.id}`;
    case 'avdevice':
    case 'visdevice':
      return i.kind;
    case 'local':
    case 'label':
    case 'goto':
    case 'branch':
      no(
        `the ${i.kind === 'local' ? 'register arithmetic' : 'control flow'} \`${printDat3mInstr(i)}\``,
        i.span,
      );
      return null;
    default:
      return assertNever(i, 'instruction');
  }
}
