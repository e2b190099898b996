/**
 * gpumm's text report read with herd's log grammar: a TypeScript transcription of the rules of
 * herdtools7's tools/lexLog_tools.mll (`main`, `pstate`, `plines`, `pline`, `pwitnesses`, `pcond`,
 * `phash`), which `mcompare7` and `msort7` use, and of lib/stateLexer.mll + StateParser for the
 * `Condition` line. Where herd's reader would fail (a lexing error, an unknown kind) this one throws;
 * where herd would silently skip a test (a `Test` line it does not take), this one throws too.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { md5Hex } from '../core/md5.ts';
import type { Cond } from '../core/types.ts';
import { cond, eq, ld, makeTest, mem, or, reg, st, threads } from '../events/build.ts';
import { parse } from '../syntax/parser.ts';
import { testHash } from './herd.ts';
import { formatReport } from './report.ts';
import { DEFAULT_RUN, runTestSync } from './verdict.ts';

const NAME = '[A-Za-z][A-Za-z0-9_.]*';
const TESTNAME = '[A-Za-z0-9_/.+\\-[\\]]+';
const KINDS = new Set([
  'Allow',
  'Allowed',
  'Require',
  'Required',
  'Forbid',
  'Forbidden',
  '',
  'Unknown',
  '???',
  '---',
  'Undefined',
]);
const VALIDATION = /^(Loop[ \t]+)?(Undef|Succeeded|Failed|Ok|No|\?\?)/;
const LOC = `(?:\\d+:${NAME}|\\[?(?:${NAME}|\\$(?:[A-Za-z]+|\\d+))\\]?|${NAME}\\[\\d+\\])`;
const VALUE = `(?:-?(?:0x[0-9a-fA-F]+|\\d+)|${NAME}(?::${NAME})?)`;
const BINDING = new RegExp(`^[ \\t]*(${LOC})[ \\t]*=[ \\t]*(${VALUE})[ \\t]*;`);

type Prop =
  | { kind: 'atom'; loc: string; v: string }
  | { kind: 'not'; p: Prop }
  | { kind: 'and' | 'or'; ps: Prop[] }
  | { kind: 'const'; v: boolean };

interface LogTest {
  name: string;
  kind: string;
  states: Map<string, string>[];
  validation: string;
  witnesses: [number, number] | null;
  condition: { q: 'exists' | '~exists' | 'forall'; p: Prop } | null;
  hash: string | null;
  time: number | null;
}

/** `pline`: the bindings of one state line, a trailing `#` comment allowed. */
function pline(line: string): Map<string, string> {
  const st = new Map<string, string>();
  let rest = line;
  for (let m = BINDING.exec(rest); m; m = BINDING.exec(rest)) {
    if (st.has(m[1]!)) throw new Error(`location ${m[1]} twice in a state`); // compare_binding asserts
    st.set(m[1]!, m[2]!);
    rest = rest.slice(m[0].length);
  }
  if (!/^[ \t]*(#.*)?$/.test(rest)) throw new Error(`Lex error pline: ${JSON.stringify(line)}`);
  return st;
}

/** The state lexer's tokens for a condition (lib/stateLexer.mll), keywords as herd has them. */
function tokens(s: string): string[] {
  const out: string[] = [];
  const re = /\s*(\/\\|\\\/|~|\(|\)|=|:|\[|\]|-?\d+|[A-Za-z_.$][A-Za-z0-9_/.-]*)/y;
  let i = 0;
  while (i < s.length) {
    re.lastIndex = i;
    const m = re.exec(s);
    if (!m) {
      if (/^\s*$/.test(s.slice(i))) break;
      throw new Error(`condition lex error at ${s.slice(i)}`);
    }
    out.push(m[1]!);
    i = re.lastIndex;
  }
  return out;
}

const KEYWORDS = new Set([
  'true',
  'false',
  'not',
  'exists',
  'forall',
  'final',
  'with',
  'locations',
  'filter',
  'fault',
  'and',
]);

/** StateParser's `skip_loc_constr`, for the propositions gpumm writes (LogConstr.parse). */
function parseCondition(text: string): LogTest['condition'] {
  const toks = tokens(text);
  let k = 0;
  const peek = () => toks[k];
  const take = (t?: string) => {
    const x = toks[k++];
    if (x === undefined || (t !== undefined && x !== t)) throw new Error(`condition parse error at ${x}`);
    return x;
  };
  let q = take();
  if (q === '~') q = `~${take('exists')}`;
  if (q !== 'exists' && q !== '~exists' && q !== 'forall') throw new Error(`quantifier ${q}`);
  const isName = (x: string | undefined) =>
    x !== undefined && /^[A-Za-z_.$]/.test(x) && !KEYWORDS.has(x) && !/^P\d+$/.test(x);
  const atom = (): Prop => {
    const x = peek();
    if (x === '(') {
      take();
      const p = disj();
      take(')');
      return p;
    }
    if (x === 'not' || x === '~') {
      take();
      return { kind: 'not', p: atom() };
    }
    if (x === 'true' || x === 'false') {
      take();
      return { kind: 'const', v: x === 'true' };
    }
    let loc: string;
    if (/^\d+$/.test(x ?? '')) {
      loc = `${take()}${take(':')}`;
      if (!isName(peek())) throw new Error(`register name ${peek()}`);
      loc += take();
    } else {
      if (!isName(x)) throw new Error(`location name ${x}`);
      loc = take();
    }
    take('=');
    const v = take();
    if (!/^-?\d+$/.test(v) && !isName(v)) throw new Error(`value ${v}`);
    return { kind: 'atom', loc, v };
  };
  const conj = (): Prop => {
    const ps = [atom()];
    while (peek() === '/\\' && take()) ps.push(atom());
    return ps.length === 1 ? ps[0]! : { kind: 'and', ps };
  };
  const disj = (): Prop => {
    const ps = [conj()];
    while (peek() === '\\/' && take()) ps.push(conj());
    return ps.length === 1 ? ps[0]! : { kind: 'or', ps };
  };
  const p = disj();
  if (k !== toks.length) throw new Error(`trailing condition text ${toks.slice(k).join(' ')}`);
  return { q, p };
}

/** LogState's `state_mem`: a missing location is fatal, values compare as herd's constants. */
function check(p: Prop, st: Map<string, string>): boolean {
  switch (p.kind) {
    case 'const':
      return p.v;
    case 'atom': {
      const v = st.get(p.loc);
      if (v === undefined) throw new Error(`No value for location ${p.loc}`);
      return /^-?\d/.test(v) && /^-?\d/.test(p.v) ? BigInt(v) === BigInt(p.v) : v === p.v;
    }
    case 'not':
      return !check(p.p, st);
    case 'and':
      return p.ps.every((q) => check(q, st));
    case 'or':
      return p.ps.some((q) => check(q, st));
  }
}

/** `main` over a whole log: every test block herd's reader would take. */
function readLog(text: string): LogTest[] {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const out: LogTest[] = [];
  let i = 0;
  const testLine = new RegExp(`^Test[ \\t]+(${TESTNAME})(?:[ \\t]+(${NAME})|())$`);
  while (i < lines.length) {
    const line = lines[i++]!;
    if (!line.startsWith('Test')) continue;
    const m = testLine.exec(line);
    // herd would skip such a line and take the next test's states as this one's: a lost test.
    if (!m) throw new Error(`Test line herd does not take: ${line}`);
    const kind = m[2] ?? '';
    if (!KINDS.has(kind)) throw new Error(`Lexing kind: ${kind}`);
    // pstate: lines up to `States`.
    while (i < lines.length && !/^States([ \t]+\d+)?$/.test(lines[i]!)) {
      if (/^Fatal[: ]/.test(lines[i]!) || lines[i]!.startsWith('Test'))
        throw new Error(`no States for ${m[1]}`);
      i++;
    }
    i++;
    const states: Map<string, string>[] = [];
    let validation = '';
    for (;;) {
      if (i >= lines.length) throw new Error(`no validation line for ${m[1]}`);
      const l = lines[i++]!;
      const v = VALIDATION.exec(l);
      if (v) {
        validation = v[2]!;
        break;
      }
      if (/^[ \t]*$/.test(l) && states.length > 0) continue;
      states.push(pline(l.replace(/^\d+[ \t]*[:*]>/, '')));
    }
    // pwitnesses
    while (i < lines.length && /^[ \t]*$/.test(lines[i]!)) i++;
    let witnesses: [number, number] | null = null;
    const w = /^Positive:[ \t]*(\d+),?[ \t]*Negative:[ \t]*(\d+)[ \t]*$/.exec(lines[i + 1] ?? '');
    if (/^Witnesses[ \t]*$/.test(lines[i] ?? '') && w) {
      witnesses = [Number(w[1]), Number(w[2])];
      i += 2;
    }
    // pcond
    while (i < lines.length && /^([ \t]*$|Bad executions|Flag )/.test(lines[i]!)) i++;
    let condition: LogTest['condition'] = null;
    const c = /^Condition[ \t]+(.+)$/.exec(lines[i] ?? '');
    if (c) {
      condition = parseCondition(c[1]!.replace(/[ \t]+is.*validated$/, ''));
      i++;
    }
    while (i < lines.length && /^[ \t]*$/.test(lines[i]!)) i++;
    // phash
    let hash: string | null = null;
    let time: number | null = null;
    for (; i < lines.length; i++) {
      const l = lines[i]!;
      const h = /^[hH][aA][sS][hH][ \t]*=[ \t]*(\S+)[ \t]*$/.exec(l);
      const t = new RegExp(`^Time[ \\t]+${TESTNAME}[ \\t]+(\\d+\\.\\d+)[ \\t]*$`).exec(l);
      if (h) hash = h[1]!;
      else if (t) time = Number(t[1]);
      else if (!new RegExp(`^([A-Za-z]+[ \\t]*=|[A-Za-z]+[ \\t]+${TESTNAME}[ \\t]+)`).test(l)) break;
    }
    out.push({ name: m[1]!, kind, states, validation, witnesses, condition, hash, time });
  }
  return out;
}

/** LogState.revalidate: the validation herd's tools recompute from the states and the condition. */
function revalidate(t: LogTest): string {
  if (!t.condition) return '??';
  const sat = t.states.map((s) => check(t.condition!.p, s));
  const ok =
    t.condition.q === 'exists'
      ? sat.some(Boolean)
      : t.condition.q === '~exists'
        ? !sat.some(Boolean)
        : sat.every(Boolean);
  return ok ? 'Ok' : 'No';
}

const not = (arg: Cond): Cond => ({ kind: 'not', arg });
const ne = (...a: Parameters<typeof eq>): Cond => ({
  ...(eq(...a) as Extract<Cond, { kind: 'cmp' }>),
  op: '!=',
});

const BASELINES = join(import.meta.dirname, '..', 'cli', 'baselines');

describe("gpumm run's text read with herd's log grammar", () => {
  it('reads every catalogue report as one log: kinds, states, validation agreeing with the condition, hash', () => {
    const files = readdirSync(BASELINES).filter((f) => f.endsWith('.txt'));
    const reports = files
      .map((f) => readFileSync(join(BASELINES, f), 'utf8'))
      .filter((t) => t.startsWith('Test '));
    expect(reports.length).toBeGreaterThan(100);
    const log = readLog(reports.join('\n'));
    expect(log.length).toBe(reports.length);
    for (const [k, t] of log.entries()) {
      const n = Number(/^States (\d+)$/m.exec(reports[k]!)![1]);
      expect(t.states.length, t.name).toBe(n);
      expect(t.witnesses, t.name).not.toBeNull();
      expect(t.condition, t.name).not.toBeNull();
      expect(t.hash, t.name).toMatch(/^[0-9a-f]{32}$/);
      if (t.validation === 'Ok' || t.validation === 'No') expect(revalidate(t), t.name).toBe(t.validation);
    }
  });

  it('spells registers, locations, LDS copies, odd names and negative values so that herd reads them', () => {
    const text = `AMDGPU odd name (v2)
@x = addrspace(1) global i8 0
@Okay = addrspace(1) global i32 0
@l = addrspace(3) global i32 0

P0 @ agent 0, workgroup 0 {
  store atomic i8 -1, ptr addrspace(1) @x monotonic
  store i32 1, ptr addrspace(3) @l
  store atomic i32 1, ptr addrspace(1) @Okay monotonic
}
Q @ agent 0, workgroup 1 {
  %0 = load atomic i8, ptr addrspace(1) @x monotonic
  %r-1 = load atomic i32, ptr addrspace(1) @Okay monotonic
  %r_1 = load atomic i32, ptr addrspace(1) @Okay monotonic
  store i32 2, ptr addrspace(3) @l
}
exists (Q:%0 == -1 /\\ P0:@l == 1 /\\ Q:@l == 2 /\\ @Okay == 1)
`;
    const { test } = parse(text, 'odd.litmus');
    const r = runTestSync(test!, DEFAULT_RUN);
    const out = formatReport(r);
    expect(out).toMatch(/^Test odd_name__v2_ Allowed$/m);
    expect(out).toContain('Condition exists (1:r_0=255 /\\ l.0=1 /\\ l.1=2 /\\ l_Okay=1)');
    // %r-1 is respelled r_1, which %r_1 has already: the respelled one gives way.
    expect(r.herd.names['Q:r_1']).toBe('1:r_1');
    expect(r.herd.names['Q:r-1']).toBe('1:r_1_2');
    const [t] = readLog(out);
    expect(t!.states.length).toBe(r.states.length);
    expect(t!.validation).toBe(r.condition!.verdict === 'holds' ? 'Ok' : 'No');
    expect(revalidate(t!)).toBe(t!.validation);
    expect(t!.time).not.toBeNull();
  });

  it('counts witnesses as herd does: for ~exists the positive ones do not satisfy the proposition', () => {
    const mp = (q: 'exists' | 'not exists', c: ReturnType<typeof eq>) =>
      makeTest({
        locs: { x: 0, f: 0 },
        threads: threads([
          [st('x', 1, 'monotonic'), st('f', 1, 'release')],
          [ld('a', 'f', 'acquire'), ld('d', 'x', 'monotonic')],
        ]),
        cond: cond(q, c),
      });
    const prop = eq(reg('P1', 'a'), 1);
    const ex = runTestSync(mp('exists', prop));
    const nx = runTestSync(mp('not exists', prop));
    expect(ex.witnesses).toEqual(nx.witnesses);
    const [e] = readLog(formatReport(ex));
    const [n] = readLog(formatReport(nx));
    expect(e!.witnesses).toEqual([ex.witnesses.positive, ex.witnesses.negative]);
    expect(n!.witnesses).toEqual([nx.witnesses.negative, nx.witnesses.positive]);
    expect(n!.kind).toBe('Forbidden');
    // Observation counts stay those of the proposition.
    const obs = `Observation ${nx.herd.name} Sometimes ${nx.witnesses.positive} ${nx.witnesses.negative}`;
    expect(formatReport(nx)).toContain(obs);
    expect(formatReport(ex)).toContain(obs.replace(nx.herd.name, ex.herd.name));
    // not, !=, a disjunction inside a conjunction.
    const c = runTestSync(
      makeTest({
        locs: { x: 0 },
        threads: threads([[st('x', 1)], [ld('a', 'x', 'monotonic')]]),
        cond: cond('forall', not(or(ne(reg('P1', 'a'), 0), eq(mem('x'), 1)))),
      }),
    );
    expect(formatReport(c)).toContain('Condition forall (not (not (1:a=0) \\/ x=1))');
    const [ct] = readLog(formatReport(c));
    expect(revalidate(ct!)).toBe(ct!.validation);
  });

  it('a stopped run stays readable: ?? for the validation, no Observation', () => {
    const t = makeTest({
      locs: { x: 0 },
      threads: threads([
        [st('x', 1), st('x', 2)],
        [ld('a', 'x', 'monotonic'), ld('b', 'x', 'monotonic')],
      ]),
      cond: cond('exists', eq(reg('P1', 'a'), 2)),
    });
    // Stopped after its first execution (--max-states 1 let this small search finish: complete).
    const r = runTestSync(t, { ...DEFAULT_RUN, maxExecutions: 1 });
    expect(r.complete).toBe(false);
    const out = formatReport(r);
    const [l] = readLog(out);
    expect(l!.validation).toBe('??');
    expect(out).not.toContain('Observation');
    expect(out).toContain('Incomplete (max-executions)');
  });

  it('hashes memory, placement and code, not the name, expectations or condition', () => {
    const a = parse(
      'AMDGPU A\nexpect: condition holds\n@x = global i32 0\nP0 {\n  store i32 1, ptr @x\n}\nexists (@x == 1)\n',
    ).test!;
    const b = parse(
      'AMDGPU B\n"other words"\n@x = global i32 0\nP0 {\n  store i32 1, ptr @x\n}\nforall (@x == 0)\n',
    ).test!;
    const c = parse('AMDGPU A\n@x = global i32 0\nP0 {\n  store i32 2, ptr @x\n}\nexists (@x == 1)\n').test!;
    expect(testHash(a)).toBe(testHash(b));
    // What is hashed: the lines of `gpumm parse` from the first location to the last `}`.
    expect(testHash(a)).toBe(
      md5Hex(
        '@x = addrspace(1) global i32 0\n\nP0 @ agent 0, cluster 0, workgroup 0, wavefront 0 {\n  store i32 1, ptr @x\n}\n',
      ),
    );
    expect(testHash(a)).not.toBe(testHash(c));
  });
});
