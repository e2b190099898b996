/**
 * Front end for the Khronos Vulkan-MemoryModel `.test` format (KhronosGroup/Vulkan-MemoryModel,
 * `alloy/litmus.cpp`, read for the format; docs/vulkan-litmus.md describes what gpumm accepts):
 *
 * ```
 * NEWWG
 * NEWSG
 * NEWTHREAD
 * st.av.scopedev.sc0 x = 1
 * st.atom.rel.scopedev.sc0.semsc0 y = 1
 * NEWWG
 * NEWSG
 * NEWTHREAD
 * ld.atom.acq.scopedev.sc0.semsc0 y = 1
 * ld.vis.scopedev.sc0 x
 * SATISFIABLE consistent[X] && #dr=0
 * NOSOLUTION consistent[X] && #dr>0
 * ```
 *
 * A load `x = v` reads value v (`= 0`: the initial value); the values become the test's filter over
 * registers gpumm names `r0`, `r1`, … per thread in program order. A store without a value writes
 * a value of its own that no valued load reads, as in the Alloy model (its rf edges are fixed by
 * matching values). Line-oriented: an error skips its line. No Node APIs here.
 */

import { diag, hasErrors, type SourceDiagnostic } from '../core/diagnostics.ts';
import type { Span } from '../core/types.ts';
import type {
  KhronosAssertion,
  KhronosPred,
  VkCond,
  VkInstr,
  VkLocation,
  VkScope,
  VkSsw,
  VkThread,
  VulkanTest,
} from './ast.ts';
import { insideFile } from './lex.ts';
import { barrierFields, checkMods, checkTest, emptyMods, type Mods } from './validate.ts';

class Skip extends Error {}

const SCOPES: Record<string, VkScope> = { scopesg: 'sg', scopewg: 'wg', scopeqf: 'qf', scopedev: 'dv' };

/** The test name of a `.test` file: its base name without the extension. */
export function khronosTestName(file: string): string {
  const base = file.split(/[\\/]/).pop() ?? file;
  return base.replace(/\.test$/, '') || base;
}

/** Parses a Khronos `.test` file. */
export function parseKhronos(
  text: string,
  file: string,
): { test: VulkanTest | null; diagnostics: SourceDiagnostic[] } {
  const r = readKhronos(text, file);
  return { ...r, diagnostics: insideFile(r.diagnostics, text) };
}

function readKhronos(
  text: string,
  file: string,
): { test: VulkanTest | null; diagnostics: SourceDiagnostic[] } {
  const diagnostics: SourceDiagnostic[] = [];
  const lines = text.split('\n');
  const description: string[] = [];
  const threads: VkThread[] = [];
  const ssw: VkSsw[] = [];
  const slocs: { a: string; b: string; span: Span }[] = [];
  const assertions: KhronosAssertion[] = [];
  const filter: VkCond[] = [];
  /** Stores and RMWs without a written value, filled with fresh values at the end. */
  const unvalued: { instr: VkInstr & { kind: 'st' | 'rmw' } }[] = [];
  const written = new Set<number>();
  const varsInOrder: string[] = [];
  let seenCode = false;
  let qf = 0;
  let wg = 0;
  let sg = 0;
  let qfUsed = false;
  let wgUsed = false;
  let sgUsed = false;
  let nextNumber = 0;
  let cur: VkThread | null = null;
  let regCount = 0;
  let offset = 0;
  const numberLines = new Map<number, number>();

  lines.forEach((raw0, k) => {
    const lineOffset = offset;
    offset += raw0.length + 1;
    const raw = raw0.replace(/\r$/, '');
    const lineNo = k + 1;
    const span = (col: number, len: number): Span => ({
      file,
      offset: lineOffset + col,
      line: lineNo,
      col: col + 1,
      len,
    });
    const trimmed = raw.trim();
    const lead = raw.length - raw.trimStart().length;
    try {
      const ctl = [...raw].findIndex((ch) => ch !== '\t' && /[\x00-\x1f\x7f]/.test(ch));
      if (ctl >= 0) throw failAt(diagnostics, diag('VK1002', span(ctl, 1), { char: raw[ctl]! }));
      if (trimmed === '') return;
      if (trimmed.startsWith('//')) {
        if (!seenCode) description.push(trimmed.slice(2).replace(/^ /, ''));
        return;
      }
      seenCode = true;
      const words = trimmed.split(/\s+/);
      const head = words[0]!;
      const wordSpan = (w: number): Span => {
        let at = lead;
        for (let j = 0; j < w; j++) at = raw.indexOf(words[j]!, at) + words[j]!.length;
        at = raw.indexOf(words[w]!, at);
        return span(at, words[w]!.length);
      };
      if (head === 'NEWQF' || head === 'NEWWG' || head === 'NEWSG') {
        if (words.length > 1)
          throw failAt(
            diagnostics,
            diag('VK4004', wordSpan(1), { directive: head, takes: 'nothing', example: head }),
          );
        // A new queue family starts a new workgroup and subgroup too (the instances nest).
        if (head === 'NEWQF' && qfUsed) {
          qf++;
          qfUsed = false;
        }
        if ((head === 'NEWQF' || head === 'NEWWG') && wgUsed) {
          wg++;
          wgUsed = false;
        }
        if (sgUsed) {
          sg++;
          sgUsed = false;
        }
        return;
      }
      if (head === 'NEWTHREAD') {
        let number = nextNumber;
        if (words.length > 1) {
          if (!/^[0-9]+$/.test(words[1]!) || words.length > 2)
            throw failAt(
              diagnostics,
              diag('VK4004', wordSpan(1), {
                directive: 'NEWTHREAD',
                takes: 'an optional thread number',
                example: 'NEWTHREAD 1',
              }),
            );
          number = Number(words[1]);
        }
        const prior = numberLines.get(number);
        if (prior !== undefined)
          throw failAt(
            diagnostics,
            diag('VK4005', span(lead, trimmed.length), { number: String(number), line: String(prior) }),
          );
        numberLines.set(number, lineNo);
        nextNumber = number + 1;
        qfUsed = wgUsed = sgUsed = true;
        cur = {
          name: `P${number}`,
          number,
          placement: { queueFamily: qf, workgroup: wg, subgroup: sg },
          body: [],
          span: span(lead, trimmed.length),
        };
        // A thread is one invocation: a NEWTHREAD without NEWSG stays in the same subgroup.
        threads.push(cur);
        regCount = 0;
        return;
      }
      if (head === 'SSW' || head === 'SLOC') {
        if (words.length !== 3 || (head === 'SSW' && !words.slice(1).every((w) => /^[0-9]+$/.test(w))))
          throw failAt(
            diagnostics,
            diag('VK4004', span(lead, trimmed.length), {
              directive: head,
              takes: head === 'SSW' ? 'two thread numbers' : 'two variable names',
              example: head === 'SSW' ? 'SSW 0 1' : 'SLOC x y',
            }),
          );
        if (head === 'SSW')
          ssw.push({ from: `P${words[1]}`, to: `P${words[2]}`, span: span(lead, trimmed.length) });
        else slocs.push({ a: words[1]!, b: words[2]!, span: span(lead, trimmed.length) });
        return;
      }
      if (head === 'SATISFIABLE' || head === 'NOSOLUTION') {
        let rest = trimmed.slice(head.length).trim();
        let nochains = false;
        if (rest.startsWith('NOCHAINS')) {
          nochains = true;
          rest = rest.slice('NOCHAINS'.length).trim();
        }
        const at = raw.indexOf(rest, lead + head.length);
        const pred = parsePred(rest, (c, l) => span(at + c, l), diagnostics);
        assertions.push({ expect: head, nochains, pred, text: rest, span: span(lead, trimmed.length) });
        return;
      }
      // An instruction.
      if (!cur) throw failAt(diagnostics, diag('VK4002', span(lead, trimmed.length)));
      const th: VkThread = cur;
      const instr = parseInstr(words, wordSpan, span(lead, trimmed.length), diagnostics);
      if (instr === null) return;
      if (instr.kind === 'ld' || instr.kind === 'rmw') {
        const dst = `r${regCount++}`;
        instr.i.dst = dst;
        if (instr.read !== null)
          filter.push({
            kind: 'cmp',
            op: '==',
            lhs: { kind: 'reg', thread: th.name, reg: dst, span: instr.i.span },
            rhs: { kind: 'const', value: instr.read, span: instr.i.span },
          });
      }
      if ('loc' in instr.i && !varsInOrder.includes(instr.i.loc)) varsInOrder.push(instr.i.loc);
      if (instr.kind === 'st' || instr.kind === 'rmw') {
        if (instr.write === null) unvalued.push({ instr: instr.i });
        else written.add(instr.write);
      }
      th.body.push(instr.i);
    } catch (e) {
      if (!(e instanceof Skip)) throw e;
    }
  });
  // Fresh values for stores written without one: above every value the test names.
  let fresh =
    Math.max(
      0,
      ...written,
      ...filter.map((f) => (f.kind === 'cmp' && f.rhs.kind === 'const' ? f.rhs.value : 0)),
    ) + 1;
  for (const u of unvalued) u.instr.value = { kind: 'const', value: fresh++ };
  // Every variable is a reference; SLOC makes two references name one location (initially 0).
  const locations: VkLocation[] = [];
  const root = (name: string): string => {
    let cur2 = name;
    for (let guard = 0; guard < 1000; guard++) {
      const s = slocs.find((x) => x.b === cur2 && x.a !== cur2);
      if (!s) return cur2;
      cur2 = s.a;
    }
    return cur2;
  };
  for (const s of slocs) for (const v of [s.a, s.b]) if (!varsInOrder.includes(v)) varsInOrder.push(v);
  for (const v of varsInOrder) {
    const r = root(v);
    const sl = slocs.find((x) => x.b === v || x.a === v);
    locations.push({
      name: v,
      init: 0,
      sameAs: r === v ? null : r,
      span: sl?.span ?? { file, offset: 0, line: 1, col: 1, len: 0 },
    });
  }
  const test: VulkanTest = {
    arch: 'VULKAN',
    format: 'khronos',
    name: khronosTestName(file),
    description,
    expects: [],
    locations,
    regInits: [],
    threads,
    ssw,
    filter: filter.length === 0 ? null : filter.length === 1 ? filter[0]! : { kind: 'and', args: filter },
    condition: null,
    assertions,
    file,
  };
  if (!hasErrors(diagnostics)) diagnostics.push(...checkTest(test));
  return { test: hasErrors(diagnostics) ? null : test, diagnostics };
}

function failAt(ds: SourceDiagnostic[], d: SourceDiagnostic): Skip {
  ds.push(d);
  return new Skip();
}

type Parsed =
  | { kind: 'ld'; i: VkInstr & { kind: 'ld' }; read: number | null }
  | { kind: 'rmw'; i: VkInstr & { kind: 'rmw' }; read: number | null; write: number | null }
  | { kind: 'st'; i: VkInstr & { kind: 'st' }; write: number | null }
  | { kind: 'other'; i: VkInstr };

/** One instruction line: `tok.tok… [var [= v [v2]]]` or `cbar… N`. */
function parseInstr(
  words: string[],
  wordSpan: (w: number) => Span,
  whole: Span,
  diagnostics: SourceDiagnostic[],
): Parsed | null {
  const head = words[0]!;
  const headSpan = wordSpan(0);
  const toks = head.split('.');
  const tokSpan = (name: string): Span => {
    const at = toks.indexOf(name);
    if (at < 0) return headSpan;
    const off = toks.slice(0, at).join('.').length + (at > 0 ? 1 : 0);
    return { ...headSpan, offset: headSpan.offset + off, col: headSpan.col + off, len: name.length };
  };
  const m: Mods = emptyMods();
  let ld = false;
  let st = false;
  let membar = false;
  let cbar = false;
  let acq = false;
  let rel = false;
  let device: 'avdevice' | 'visdevice' | null = null;
  for (const t of toks) {
    const sc = /^sc([0-3])$/.exec(t);
    const semsc = /^semsc([0-3])$/.exec(t);
    if (t === 'st') st = true;
    else if (t === 'ld') ld = true;
    else if (t === 'rmw') {
      st = ld = true;
      m.atomic = true;
    } else if (t === 'membar') membar = true;
    else if (t === 'cbar') cbar = true;
    else if (t === 'atom') m.atomic = true;
    else if (t === 'acq') acq = true;
    else if (t === 'rel') rel = true;
    else if (sc) m.sc = Number(sc[1]);
    else if (semsc) m.semsc |= 1 << Number(semsc[1]);
    else if (SCOPES[t]) {
      if (m.scope !== null && m.scope !== SCOPES[t])
        throw failAt(
          diagnostics,
          diag('VK2005', tokSpan(t), {
            name: t,
            other: `scope${m.scope}`,
            why: 'an instruction has one scope',
          }),
        );
      m.scope = SCOPES[t]!;
    } else if (t === 'avdevice' || t === 'visdevice') device = t;
    else if (t === 'semav') m.semav = true;
    else if (t === 'semvis') m.semvis = true;
    else if (t === 'av') m.av = true;
    else if (t === 'vis') m.vis = true;
    else if (t === 'nonpriv') m.nonpriv = true;
    else throw failAt(diagnostics, diag('VK4001', tokSpan(t), { name: t }));
  }
  m.mo = acq && rel ? 'acq_rel' : acq ? 'acq' : rel ? 'rel' : null;
  const ops = [ld || st ? 'access' : null, membar ? 'membar' : null, cbar ? 'cbar' : null, device].filter(
    Boolean,
  );
  if (ops.length === 0) throw failAt(diagnostics, diag('VK4006', headSpan));
  if (ops.length > 1)
    throw failAt(
      diagnostics,
      diag('VK2005', headSpan, {
        name: String(ops[1]),
        other: String(ops[0]),
        why: 'one operation per line',
      }),
    );
  if (device) {
    if (words.length > 1 || toks.length > 1)
      throw failAt(
        diagnostics,
        diag('VK2002', words.length > 1 ? wordSpan(1) : headSpan, {
          expected: `${device} alone`,
          found: `'${words.length > 1 ? words[1] : head}'`,
        }),
      );
    return { kind: 'other', i: { kind: device, span: whole } };
  }
  const op = ld && st ? 'rmw' : ld ? 'ld' : st ? 'st' : membar ? 'membar' : 'cbar';
  // litmus.cpp: "AV, VIS, and atomics are all implicitly nonpriv"; an atomic's av/vis is implicit.
  if (m.atomic) {
    m.av = false;
    m.vis = false;
    m.nonpriv = false;
  }
  if (m.av && op !== 'st') throw failAt(diagnostics, diag('VK4001', tokSpan('av'), { name: 'av' }));
  if (m.vis && op !== 'ld') throw failAt(diagnostics, diag('VK4001', tokSpan('vis'), { name: 'vis' }));
  const problems = checkMods(op, m, tokSpan, headSpan);
  diagnostics.push(...problems);
  if (hasErrors(problems)) return null;
  const acquire = m.mo === 'acq' || m.mo === 'acq_rel';
  const release = m.mo === 'rel' || m.mo === 'acq_rel';
  if (op === 'membar' || op === 'cbar') {
    if (op === 'membar') {
      if (words.length > 1)
        throw failAt(
          diagnostics,
          diag('VK2002', wordSpan(1), { expected: 'the end of the line', found: `'${words[1]}'` }),
        );
      return {
        kind: 'other',
        i: { kind: 'membar', ...barrierFields(m), span: whole },
      };
    }
    if (words.length !== 2 || !/^[0-9]+$/.test(words[1]!))
      throw failAt(
        diagnostics,
        diag('VK2002', words.length > 1 ? wordSpan(1) : headSpan, {
          expected: 'a control barrier instance number',
          found: words.length > 1 ? `'${words.slice(1).join(' ')}'` : 'the end of the line',
        }),
      );
    return {
      kind: 'other',
      i: {
        kind: 'cbar',
        ...barrierFields(m),
        execScope: m.scope!,
        id: String(Number(words[1])),
        resource: null,
        quorum: null,
        span: whole,
      },
    };
  }
  // `var`, `var = v`, `var = v v2` (spaces around = optional).
  const rest = words.slice(1).join(' ');
  const mm = /^([^\s=]+)\s*(?:=\s*(-?[0-9]+)(?:\s+(-?[0-9]+))?)?$/.exec(rest);
  if (!mm)
    throw failAt(
      diagnostics,
      diag('VK2002', words.length > 1 ? wordSpan(1) : headSpan, {
        expected: op === 'rmw' ? 'a variable, then = read-value write-value' : 'a variable, then = value',
        found: words.length > 1 ? `'${rest}'` : 'the end of the line',
      }),
    );
  const loc = mm[1]!;
  const v1 = mm[2] === undefined ? null : Number(mm[2]);
  const v2 = mm[3] === undefined ? null : Number(mm[3]);
  for (const v of [v1, v2])
    if (v !== null && !Number.isSafeInteger(v))
      throw failAt(diagnostics, diag('VK3016', wordSpan(1), { text: String(v) }));
  if (v2 !== null && op !== 'rmw')
    throw failAt(
      diagnostics,
      diag('VK2002', wordSpan(words.length - 1), {
        expected: 'one value (two are for an rmw)',
        found: `'${mm[3]}'`,
      }),
    );
  const base = {
    loc,
    sc: m.sc,
    atomic: m.atomic,
    nonpriv: m.nonpriv,
    scope: m.scope,
    semsc: m.semsc,
    span: whole,
  };
  if (op === 'ld')
    return {
      kind: 'ld',
      i: { kind: 'ld', dst: '', ...base, acquire, vis: m.vis, semvis: m.semvis },
      read: v1,
    };
  if (op === 'st')
    return {
      kind: 'st',
      i: {
        kind: 'st',
        ...base,
        value: { kind: 'const', value: v1 ?? 0 },
        fresh: v1 === null,
        release,
        av: m.av,
        semav: m.semav,
      },
      write: v1,
    };
  return {
    kind: 'rmw',
    i: {
      kind: 'rmw',
      dst: '',
      ...base,
      nonpriv: false,
      op: 'xchg',
      value: { kind: 'const', value: v2 ?? 0 },
      fresh: v2 === null,
      acquire,
      release,
      semav: m.semav,
      semvis: m.semvis,
    },
    read: v1,
    write: v2,
  };
}

/** `consistent[X] && #dr=0`, … */
function parsePred(
  text: string,
  at: (col: number, len: number) => Span,
  diagnostics: SourceDiagnostic[],
): KhronosPred {
  const toks: { text: string; col: number }[] = [];
  const re =
    /\s*(consistent\s*\[\s*X\s*\]|racefree\s*\[\s*X\s*\]|#\s*(?:X\.)?dr\s*(?:=|>|!=)\s*0|no\s+X\.dr|some\s+X\.dr|&&|\|\||!|\(|\)|[^\s()!&|]+)/y;
  let m: RegExpExecArray | null;
  let pos = 0;
  for (;;) {
    re.lastIndex = pos;
    m = re.exec(text);
    if (!m) break;
    toks.push({ text: m[1]!, col: m.index + (m[0].length - m[1]!.length) });
    pos = re.lastIndex;
    if (pos >= text.length) break;
  }
  let k = 0;
  const fail = (t: { text: string; col: number } | undefined): never => {
    if (!t) {
      diagnostics.push(
        diag('VK4003', at(text.length, 0), {
          name: text.trim() === '' ? '(nothing)' : 'the end of the line',
        }),
      );
      throw new Skip();
    }
    diagnostics.push(diag('VK4003', at(t.col, t.text.length), { name: t.text }));
    throw new Skip();
  };
  const or = (): KhronosPred => {
    const args = [and()];
    while (toks[k]?.text === '||') {
      k++;
      args.push(and());
    }
    return args.length === 1 ? args[0]! : { kind: 'or', args };
  };
  const and = (): KhronosPred => {
    const args = [unary()];
    while (toks[k]?.text === '&&') {
      k++;
      args.push(unary());
    }
    return args.length === 1 ? args[0]! : { kind: 'and', args };
  };
  const unary = (): KhronosPred => {
    const t = toks[k];
    if (!t) return fail(t);
    if (t.text === '!') {
      k++;
      const arg = unary();
      if (arg.kind === 'consistent') {
        diagnostics.push(diag('VK4007', at(t.col, 1)));
        throw new Skip();
      }
      return { kind: 'not', arg };
    }
    if (t.text === '(') {
      k++;
      const p = or();
      if (toks[k]?.text !== ')') fail(toks[k]);
      k++;
      return p;
    }
    k++;
    const s = t.text.replace(/\s+/g, '');
    if (s === 'consistent[X]') return { kind: 'consistent' };
    if (s === 'racefree[X]' || s === '#dr=0' || s === '#X.dr=0' || s === 'noX.dr')
      return { kind: 'racefree' };
    if (s === '#dr>0' || s === '#dr!=0' || s === '#X.dr>0' || s === '#X.dr!=0' || s === 'someX.dr')
      return { kind: 'racy' };
    return fail(t);
  };
  const p = or();
  if (k < toks.length) fail(toks[k]);
  return p;
}
