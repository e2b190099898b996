/**
 * Front end for Dartagnan's herd-like Vulkan litmus syntax (hernanponcedeleon/Dat3M,
 * `LitmusVulkan.g4` and `VisitorLitmusVulkan.java`, read for the syntax; docs/vulkan-litmus.md
 * describes what gpumm accepts):
 *
 * ```
 * VULKAN MP
 * "description"
 * { x=0; y=0; P1:r0=0; }
 *  P0@sg 0, wg 0, qf 0            | P1@sg 0, wg 1, qf 0             ;
 *  st.av.dv.sc0 x, 1              | ld.atom.acq.dv.sc0.semsc0 r0, y ;
 *  st.atom.rel.dv.sc0.semsc0 y, 1 | ld.vis.dv.sc0 r1, x             ;
 * exists (P1:r0 == 1 /\ P1:r1 == 0)
 * ```
 *
 * Returns `{ test, diagnostics }` and never throws on bad input: an error skips to the end of its
 * declaration or row, so every error of a file is reported at once. gpumm's `expect:` lines may sit
 * between the header and the `{` (Dartagnan skips that text, so the file stays readable by it).
 * No Node APIs here: the web page imports this file.
 */

import { diag, hasErrors, type SourceDiagnostic } from '../core/diagnostics.ts';
import type { Expectation, Quantifier, Span } from '../core/types.ts';
import { EXPECTATIONS, MAX_NESTING } from '../syntax/parser.ts';
import type {
  VkBranchCond,
  VkCbar,
  VkCmpOp,
  VkCond,
  VkCondition,
  VkInstr,
  VkLocation,
  VkPlacement,
  VkRegInit,
  VkRmwOp,
  VkScope,
  VkSsw,
  VkTerm,
  VkThread,
  VkValue,
  VulkanTest,
} from './ast.ts';
import { VK_BRANCH_CONDS, VK_CMP_OPS, VK_LOCAL_OPS } from './ast.ts';
import { describeTok, insideFile, lexVulkan, Positions, type VkTok } from './lex.ts';
import { barrierFields, checkMods, checkTest, emptyMods, type Mods } from './validate.ts';

/** Thrown inside the parser to abandon the current declaration or row (the diagnostic is recorded). */
class Skip extends Error {}

const SCOPE_WORDS: Record<string, VkScope> = { sg: 'sg', wg: 'wg', qf: 'qf', dv: 'dv' };
const RMW_WORDS: Record<string, VkRmwOp> = { add: 'add', sub: 'sub', and: 'and', or: 'or', xor: 'xor' };
const REGISTER = /^r[0-9]+$/;
const THREAD = /^P([0-9]+)$/;

/**
 * The thread a token names: `P1`, or Dartagnan's bare number `1` (its grammar's `threadId`, as in
 * `ssw 0 1;` and `1:r0`), as `P1`; null for any other token.
 */
function threadOf(t: VkTok): string | null {
  if (t.kind === 'word' && THREAD.test(t.text)) return t.text;
  if (t.kind === 'int' && /^[0-9]+$/.test(t.text)) return `P${Number(t.text)}`;
  return null;
}
const ARCH = /^(VULKAN|Vulkan|vulkan)$/;

/** What each memory operation takes after its opcode (for VK2004's hint). */
const ALLOWED: Record<string, string> = {
  ld: '.atom, .acq, .vis, .nonpriv, a scope (.sg .wg .qf .dv), a storage class (.sc0 … .sc3), .semsc0 … .semsc3 and .semvis',
  st: '.atom, .rel, .av, .nonpriv, a scope (.sg .wg .qf .dv), a storage class (.sc0 … .sc3), .semsc0 … .semsc3 and .semav',
  rmw: '.atom, .acq, .rel, .acq_rel, a scope, a storage class, .semsc0 … .semsc3, .semav, .semvis and an operation (.add .sub .and .or .xor; none: exchange)',
  membar: '.acq, .rel, .acq_rel, a scope, .semsc0 … .semsc3, .semav and .semvis',
  cbar: '.acq, .rel, .acq_rel, a scope, .semsc0 … .semsc3, .semav and .semvis',
};

/** Parses a Vulkan litmus test in Dartagnan's syntax. */
export function parseDat3m(
  text: string,
  file: string,
): { test: VulkanTest | null; diagnostics: SourceDiagnostic[] } {
  const r = new Dat3mParser(text, file).parse();
  return { ...r, diagnostics: insideFile(r.diagnostics, text) };
}

class Dat3mParser {
  /** Brackets and negations open around the condition term being read. */
  private depth = 0;
  private readonly pos: Positions;
  private toks: VkTok[] = [];
  private i = 0;
  private readonly diagnostics: SourceDiagnostic[] = [];
  private name = '';
  private readonly description: string[] = [];
  private readonly expects: Expectation[] = [];
  private readonly locations: VkLocation[] = [];
  private readonly regInits: VkRegInit[] = [];
  private readonly threads: VkThread[] = [];
  private readonly ssw: VkSsw[] = [];
  private filter: VkCond | null = null;
  private condition: VkCondition | null = null;

  constructor(
    readonly text: string,
    readonly file: string,
  ) {
    this.pos = new Positions(text, file);
  }

  /** The current token (a method, not a getter: TypeScript would narrow a property across calls). */
  private tok(): VkTok {
    return this.toks[this.i]!;
  }

  private next(): VkTok {
    const t = this.toks[this.i]!;
    if (t.kind !== 'eof') this.i++;
    return t;
  }

  private fail(
    code: Parameters<typeof diag>[0],
    span: Span,
    args: Record<string, string | undefined> = {},
  ): never {
    this.diagnostics.push(diag(code, span, args));
    throw new Skip();
  }

  private expected(what: string, t: VkTok = this.tok(), hint?: string): never {
    return this.fail('VK2002', t.span, { expected: what, found: describeTok(t), hint });
  }

  private isPunct(p: string, t: VkTok = this.tok()): boolean {
    return t.kind === 'punct' && t.text === p;
  }

  private isWord(w: string, t: VkTok = this.tok()): boolean {
    return t.kind === 'word' && t.text === w;
  }

  private punct(p: string, what = `'${p}'`): VkTok {
    if (!this.isPunct(p)) this.expected(what);
    return this.next();
  }

  /** Skips to just after the next `stop` punctuation (or to `before`, left in place). */
  private recover(stop: string, before: readonly string[] = []): void {
    while (this.tok().kind !== 'eof') {
      if (this.tok().kind === 'punct' && before.includes(this.tok().text)) return;
      if (this.next().text === stop && this.toks[this.i - 1]!.kind === 'punct') return;
    }
  }

  parse(): { test: VulkanTest | null; diagnostics: SourceDiagnostic[] } {
    const start = this.header();
    if (start < 0) return { test: null, diagnostics: this.diagnostics };
    const lexed = lexVulkan(this.pos, start);
    this.toks = lexed.tokens;
    this.diagnostics.push(...lexed.diagnostics);
    this.preamble();
    if (!this.initBlock()) return { test: null, diagnostics: this.diagnostics };
    if (this.isPunct('{')) this.sswBlock();
    this.program();
    this.finalSection();
    const test: VulkanTest = {
      arch: 'VULKAN',
      format: 'dat3m',
      name: this.name,
      description: this.description,
      expects: this.expects,
      locations: this.locations,
      regInits: this.regInits,
      threads: this.threads,
      ssw: this.ssw,
      filter: this.filter,
      condition: this.condition,
      assertions: [],
      file: this.file,
    };
    if (!hasErrors(this.diagnostics)) this.diagnostics.push(...checkTest(test));
    return { test: hasErrors(this.diagnostics) ? null : test, diagnostics: this.diagnostics };
  }

  /** `VULKAN <name>`: returns the offset after the header line, or -1. */
  private header(): number {
    const text = this.text;
    let off = 0;
    // Blank lines before the header are allowed.
    while (off < text.length) {
      const end = this.pos.lineEnd(off);
      if (text.slice(off, end).trim() !== '') break;
      off = end + 1;
    }
    const line = this.pos.lineText(off);
    const m = /^(\s*)(\S+)(.*)$/.exec(line);
    if (!m || !ARCH.test(m[2]!)) {
      const at = off + (m ? m[1]!.length : 0);
      this.diagnostics.push(diag('VK2001', this.pos.span(at, m ? m[2]!.length : 0)));
      return -1;
    }
    let rest = m[3]!;
    const cut = rest.search(/\(\*|\/\//);
    if (cut >= 0) rest = rest.slice(0, cut);
    this.name = rest.trim();
    const afterArch = off + m[1]!.length + m[2]!.length;
    if (this.name === '') {
      this.diagnostics.push(
        diag('VK2002', this.pos.span(afterArch, 0), {
          expected: `a test name after ${m[2]}`,
          found: 'the end of the line',
        }),
      );
      return -1;
    }
    const bad = [...this.name].find((ch) => /[\x00-\x1f\x7f]/.test(ch));
    if (bad) {
      this.diagnostics.push(diag('VK1002', this.pos.span(afterArch + rest.indexOf(bad), 1), { char: bad }));
      return -1;
    }
    return Math.min(text.length, this.pos.lineEnd(off) + 1);
  }

  /** Descriptions and `expect:` lines before the initial state. */
  private preamble(): void {
    while (this.tok().kind !== 'eof' && !this.isPunct('{')) {
      const t = this.tok();
      if (t.kind === 'string') {
        // Dartagnan reads anything up to the initial state as the name and description, so a
        // description may hold double quotes of its own: a line's description runs from its first
        // quote to its last.
        const line = this.pos.lineText(t.span.offset);
        const lineStart = t.span.offset - (t.span.col - 1);
        const last = line.lastIndexOf('"');
        if (last > t.span.col - 1 + t.span.len - 1 && !line.slice(t.span.col - 1).includes('{')) {
          this.description.push(line.slice(t.span.col, last));
          while (this.tok().kind !== 'eof' && this.tok().span.offset < lineStart + last) this.next();
          continue;
        }
        this.description.push(this.next().text);
        continue;
      }
      if (this.isWord('expect')) {
        this.expectLine();
        continue;
      }
      this.diagnostics.push(
        diag('VK2002', t.span, {
          expected: 'a "description", an expect: line or the initial state { … }',
          found: describeTok(t),
        }),
      );
      // Skip the rest of the line.
      const line = t.span.line;
      while (this.tok().kind !== 'eof' && this.tok().span.line === line && !this.isPunct('{')) this.next();
    }
  }

  /** `expect: condition holds` (gpumm's own; the rest of the line is the expectation). */
  private expectLine(): void {
    const kw = this.next();
    const colon = this.tok();
    const end = this.pos.lineEnd(kw.span.offset);
    const skipLine = () => {
      while (this.tok().kind !== 'eof' && this.tok().span.offset < end) this.next();
    };
    if (!this.isPunct(':', colon)) {
      this.diagnostics.push(
        diag('LT2003', colon.span, { expected: "':' after expect", found: describeTok(colon) }),
      );
      skipLine();
      return;
    }
    const from = colon.span.offset + 1;
    let raw = this.text.slice(from, end);
    const cut = raw.search(/\(\*|\/\//);
    if (cut >= 0) raw = raw.slice(0, cut);
    const lead = raw.length - raw.trimStart().length;
    const body = raw.trim().replace(/\s+/g, ' ');
    const span = this.pos.span(from + lead, raw.trim().length);
    skipLine();
    const e = EXPECTATIONS[body];
    if (!e) {
      this.diagnostics.push(diag('LT2007', span, { text: body }));
      return;
    }
    const prior = this.expects.find((x) => x.key === e.key);
    if (prior) {
      this.diagnostics.push(diag('LT3019', span, { key: e.key, line: String(prior.span.line) }));
      return;
    }
    this.expects.push({ ...e, span } as Expectation);
  }

  private int(what: string): { value: number; tok: VkTok } {
    const t = this.tok();
    if (t.kind !== 'int') this.expected(what);
    this.next();
    const value = Number(t.text);
    if (!Number.isSafeInteger(value)) this.fail('VK3016', t.span, { text: t.text });
    return { value, tok: t };
  }

  /** `{ x = 0; P0:r0 = 0; y = x; … }`; false when there is none. */
  private initBlock(): boolean {
    if (!this.isPunct('{')) {
      this.diagnostics.push(
        diag('VK2002', this.tok().span, {
          expected: 'the initial state { … }',
          found: describeTok(this.tok()),
        }),
      );
      return false;
    }
    this.next();
    while (this.tok().kind !== 'eof' && !this.isPunct('}')) {
      if (this.isPunct(';')) {
        this.next();
        continue;
      }
      try {
        this.declaration();
        if (!this.isPunct('}')) this.punct(';', "';' or '}'");
      } catch (e) {
        if (!(e instanceof Skip)) throw e;
        this.recover(';', ['}']);
      }
    }
    if (this.isPunct('}')) this.next();
    else
      this.diagnostics.push(
        diag('VK2002', this.tok().span, { expected: "'}'", found: describeTok(this.tok()) }),
      );
    if (this.isPunct(';')) this.next();
    return true;
  }

  private declaration(): void {
    const first = this.tok();
    if (first.kind !== 'word' && !(first.kind === 'int' && this.isPunct(':', this.toks[this.i + 1])))
      this.expected('a declaration (x = 0 or P0:r0 = 0)');
    this.next();
    const thread = threadOf(first);
    if (thread !== null && this.isPunct(':')) {
      this.next();
      const reg = this.tok();
      if (reg.kind !== 'word' || !REGISTER.test(reg.text)) this.expected('a register (r0, r1, …)');
      this.next();
      this.punct('=');
      if (this.tok().kind === 'word')
        this.fail('VK3003', this.tok().span, {
          what: 'a register holding the address of a location',
          fix: 'gpumm has no computed addresses: give the register an integer',
        });
      const { value } = this.int('an integer');
      const span = spanJoin(first.span, this.toks[this.i - 1]!.span);
      const prior = this.regInits.find((r) => r.thread === thread && r.reg === reg.text);
      if (prior) this.fail('VK3013', span, { what: `${thread}:${reg.text}`, line: String(prior.span.line) });
      this.regInits.push({ thread, reg: reg.text, value, span });
      return;
    }
    if (REGISTER.test(first.text))
      this.fail('VK2002', first.span, {
        expected: 'a location name (r0, r1, … are register names)',
        found: `'${first.text}'`,
      });
    this.punct('=', "'=' after the location name");
    if (this.isPunct('&')) this.next();
    let init = 0;
    let sameAs: string | null = null;
    if (this.tok().kind === 'word') sameAs = this.next().text;
    else init = this.int('an integer or a location').value;
    // `x = 0 @ sc0`: Dartagnan's storage-class annotation of a declaration is accepted and unused (each
    // access names its storage class).
    if (this.isPunct('@')) {
      this.next();
      const sc = this.tok();
      if (sc.kind !== 'word' || !/^sc[0-3]$/.test(sc.text)) this.expected('a storage class (sc0 … sc3)');
      this.next();
    }
    const span = spanJoin(first.span, this.toks[this.i - 1]!.span);
    const prior = this.locations.find((l) => l.name === first.text);
    if (prior) this.fail('VK3013', span, { what: `location ${first.text}`, line: String(prior.span.line) });
    this.locations.push({ name: first.text, init, sameAs, span });
  }

  /** `{ ssw P0 P1; … }` */
  private sswBlock(): void {
    this.next();
    while (this.tok().kind !== 'eof' && !this.isPunct('}')) {
      if (this.isPunct(';')) {
        this.next();
        continue;
      }
      try {
        const kw = this.tok();
        if (!this.isWord('ssw')) this.expected('ssw P0 P1');
        this.next();
        const a = this.tok();
        if (threadOf(a) === null) this.expected('a thread name (P0, or its number)');
        this.next();
        const b = this.tok();
        if (threadOf(b) === null) this.expected('a thread name (P1, or its number)');
        this.next();
        this.ssw.push({ from: threadOf(a)!, to: threadOf(b)!, span: spanJoin(kw.span, b.span) });
        if (!this.isPunct('}')) this.punct(';', "';' or '}'");
      } catch (e) {
        if (!(e instanceof Skip)) throw e;
        this.recover(';', ['}']);
      }
    }
    if (this.isPunct('}')) this.next();
    if (this.isPunct(';')) this.next();
  }

  /** The placement row, then instruction rows up to the final section. */
  private program(): void {
    try {
      this.placementRow();
    } catch (e) {
      if (!(e instanceof Skip)) throw e;
      this.recover(';');
    }
    while (this.tok().kind !== 'eof' && !this.atFinalSection()) {
      try {
        this.instructionRow();
      } catch (e) {
        if (!(e instanceof Skip)) throw e;
        this.recover(';');
      }
    }
  }

  private atFinalSection(): boolean {
    const t = this.tok();
    return (
      (t.kind === 'word' && ['exists', 'forall', 'filter', 'locations'].includes(t.text)) ||
      (t.kind === 'punct' && t.text === '~')
    );
  }

  /** `P0@sg 0, wg 0, qf 0 | P1@sg 1, wg 0, qf 0 ;` */
  private placementRow(): void {
    for (;;) {
      const nameTok = this.tok();
      if (nameTok.kind !== 'word' || !THREAD.test(nameTok.text))
        this.expected('a thread placement (P0@sg 0, wg 0, qf 0)');
      this.next();
      this.punct('@', "'@' after the thread name");
      const coords: Record<string, number> = {};
      for (const [k, word] of ['sg', 'wg', 'qf'].entries()) {
        if (k > 0) this.punct(',', `',' before ${word}`);
        const w = this.tok();
        if (!this.isWord(word)) this.expected(`'${word}'`, w, 'a placement is: P0@sg 0, wg 0, qf 0');
        this.next();
        coords[word] = this.int(`a ${word} number`).value;
      }
      if (this.threads.some((th) => th.name === nameTok.text))
        this.fail('VK2007', nameTok.span, { name: nameTok.text, why: 'is used twice' });
      const placement: VkPlacement = { subgroup: coords.sg!, workgroup: coords.wg!, queueFamily: coords.qf! };
      this.threads.push({
        name: nameTok.text,
        number: Number(THREAD.exec(nameTok.text)![1]),
        placement,
        body: [],
        span: nameTok.span,
      });
      if (this.isPunct('|')) {
        this.next();
        continue;
      }
      this.punct(';', "'|' or ';'");
      return;
    }
  }

  /** One row: a cell per thread, separated by `|`, ended by `;`. */
  private instructionRow(): void {
    const first = this.tok();
    const cells: VkTok[][] = [[]];
    while (this.tok().kind !== 'eof' && !this.isPunct(';')) {
      if (this.atFinalSection() && cells.length === 1 && cells[0]!.length === 0) return;
      const t = this.next();
      if (t.kind === 'punct' && t.text === '|') cells.push([]);
      else cells[cells.length - 1]!.push(t);
    }
    if (!this.isPunct(';')) this.expected("';' at the end of the row");
    const semi = this.next();
    // No thread was placed: the placement row's error stands for the rows too.
    if (this.threads.length === 0) return;
    if (cells.length !== this.threads.length) {
      this.diagnostics.push(
        diag('VK2006', spanJoin(first.span, semi.span), {
          cells: String(cells.length),
          threads: String(this.threads.length),
        }),
      );
      return;
    }
    cells.forEach((cell, k) => {
      if (cell.length === 0) return;
      const th = this.threads[k]!;
      try {
        th.body.push(this.instruction(cell));
      } catch (e) {
        if (!(e instanceof Skip)) throw e;
      }
    });
  }

  /** One cell's instruction. */
  private instruction(cell: VkTok[]): VkInstr {
    const c = new CellCursor(cell, this);
    const head = c.next();
    const span = spanJoin(cell[0]!.span, cell[cell.length - 1]!.span);
    if (head.kind !== 'word') return this.expected('an instruction', head);
    // `LC00:`
    if (c.atPunct(':')) {
      c.next();
      c.end();
      return { kind: 'label', name: head.text, span };
    }
    const parts = head.text.split('.');
    const op = parts[0]!;
    switch (op) {
      case 'ld':
      case 'st':
      case 'rmw':
      case 'membar':
      case 'cbar':
        return this.memory(op, parts.slice(1), head, c, span);
      case 'avdevice':
      case 'visdevice':
        if (parts.length > 1) this.modifierError(op, parts[1]!, head);
        c.end();
        return { kind: op, span };
      case 'goto': {
        const l = c.word('a label');
        c.end();
        return { kind: 'goto', label: l.text, span };
      }
      default:
    }
    if ((VK_BRANCH_CONDS as readonly string[]).includes(op) && parts.length === 1) {
      const a = c.value();
      c.punct(',');
      const b = c.value();
      c.punct(',');
      const l = c.word('a label');
      c.end();
      return { kind: 'branch', cond: op as VkBranchCond, a, b, label: l.text, span };
    }
    if ((VK_LOCAL_OPS as readonly string[]).includes(op) && parts.length === 1) {
      const dst = c.register();
      c.punct(',');
      const a = c.value();
      c.punct(',');
      const b = c.value();
      c.end();
      return { kind: 'local', op: op as (typeof VK_LOCAL_OPS)[number], dst: dst.text, a, b, span };
    }
    return this.fail('VK2003', head.span, { name: op });
  }

  private modifierError(op: string, name: string, head: VkTok): never {
    return this.fail('VK2004', modSpan(head, name), { name, op, allowed: ALLOWED[op] ?? 'no modifiers' });
  }

  /** ld / st / rmw / membar / cbar with their modifiers and operands. */
  private memory(
    op: 'ld' | 'st' | 'rmw' | 'membar' | 'cbar',
    parts: string[],
    head: VkTok,
    c: CellCursor,
    span: Span,
  ): VkInstr {
    const m: Mods = emptyMods();
    const seen = new Map<string, string>();
    const once = (group: string, name: string, why?: string) => {
      const prior = seen.get(group);
      if (prior !== undefined) this.fail('VK2005', modSpan(head, name), { name, other: prior, why });
      seen.set(group, name);
    };
    const access = op === 'ld' || op === 'st' || op === 'rmw';
    for (const p of parts) {
      const sc = /^sc([0-3])$/.exec(p);
      const semsc = /^semsc([0-3])$/.exec(p);
      if (p === 'atom' && access) {
        once('atom', p);
        m.atomic = true;
      } else if (
        (p === 'acq' && op !== 'st') ||
        (p === 'rel' && op !== 'ld') ||
        (p === 'acq_rel' && (op === 'rmw' || op === 'membar' || op === 'cbar'))
      ) {
        once('mo', p, 'an instruction has one memory order');
        m.mo = p;
      } else if (p === 'av' && op === 'st') {
        once('avvis', p, 'one of .av, .nonpriv');
        m.av = true;
      } else if (p === 'vis' && op === 'ld') {
        once('avvis', p, 'one of .vis, .nonpriv');
        m.vis = true;
      } else if (p === 'nonpriv' && (op === 'ld' || op === 'st')) {
        once('avvis', p, 'one of .av/.vis, .nonpriv');
        m.nonpriv = true;
      } else if (SCOPE_WORDS[p]) {
        once('scope', p, 'an instruction has one scope');
        m.scope = SCOPE_WORDS[p]!;
      } else if (sc && access) {
        once('sc', p, 'an access is to one storage class');
        m.sc = Number(sc[1]);
      } else if (semsc) {
        const bit = 1 << Number(semsc[1]);
        if (m.semsc & bit)
          this.fail('VK2005', modSpan(head, p), { name: p, other: p, why: 'name each storage class once' });
        m.semsc |= bit;
      } else if (p === 'semav' && op !== 'ld') {
        once('semav', p);
        m.semav = true;
      } else if (p === 'semvis' && op !== 'st') {
        once('semvis', p);
        m.semvis = true;
      } else if (RMW_WORDS[p] && op === 'rmw') {
        once('op', p, 'an rmw has one operation');
        m.op = RMW_WORDS[p]!;
      } else this.modifierError(op, p, head);
    }
    const problems = checkMods(op, m, (name) => modSpan(head, name), head.span);
    this.diagnostics.push(...problems);
    if (hasErrors(problems)) throw new Skip();
    const acquire = m.mo === 'acq' || m.mo === 'acq_rel';
    const release = m.mo === 'rel' || m.mo === 'acq_rel';
    switch (op) {
      case 'ld': {
        const dst = c.register();
        c.punct(',');
        const loc = c.location();
        c.end();
        return {
          kind: 'ld',
          dst: dst.text,
          loc: loc.text,
          sc: m.sc,
          atomic: m.atomic,
          nonpriv: m.nonpriv,
          scope: m.scope,
          semsc: m.semsc,
          acquire,
          vis: m.vis,
          semvis: m.semvis,
          span,
        };
      }
      case 'st': {
        const loc = c.location();
        c.punct(',');
        const value = c.value();
        c.end();
        return {
          kind: 'st',
          loc: loc.text,
          value,
          fresh: false,
          sc: m.sc,
          atomic: m.atomic,
          nonpriv: m.nonpriv,
          scope: m.scope,
          semsc: m.semsc,
          release,
          av: m.av,
          semav: m.semav,
          span,
        };
      }
      case 'rmw': {
        const dst = c.register();
        c.punct(',');
        const loc = c.location();
        c.punct(',');
        const value = c.value();
        c.end();
        return {
          kind: 'rmw',
          dst: dst.text,
          loc: loc.text,
          op: m.op ?? 'xchg',
          value,
          fresh: false,
          sc: m.sc,
          // An RMW is atomic whether or not `.atom` is written.
          atomic: true,
          nonpriv: false,
          scope: m.scope,
          semsc: m.semsc,
          acquire,
          release,
          semav: m.semav,
          semvis: m.semvis,
          span,
        };
      }
      case 'membar':
        c.end();
        return { kind: 'membar', ...barrierFields(m), span };
      case 'cbar': {
        const id = c.next();
        if (id.kind !== 'int' || id.text.startsWith('-'))
          this.expected('a barrier instance id (an integer)', id);
        let resource: number | null = null;
        let quorum: number | null = null;
        if (c.atPunct(',')) {
          c.next();
          resource = c.int('a barrier resource id');
          if (c.atPunct(',')) {
            c.next();
            const q = c.peek();
            quorum = c.int('a quorum');
            if (quorum < 1)
              this.fail('VK3015', q.span, {
                what: `a quorum of ${quorum}: no barrier completes with fewer than one thread`,
              });
          }
        }
        c.end();
        const bar: VkCbar = {
          kind: 'cbar',
          ...barrierFields(m),
          // Dartagnan's control barriers meet across the workgroup (ProgramEncoder groups them by
          // workgroup id); the written scope is the memory scope.
          execScope: 'wg',
          id: id.text,
          resource,
          quorum,
          span,
        };
        return bar;
      }
    }
  }

  /** `locations [ … ]`, `filter …`, then the condition. */
  private finalSection(): void {
    try {
      if (this.isWord('locations')) {
        // herd's list of extra observables: gpumm observes every register anyway.
        this.next();
        this.punct('[');
        while (this.tok().kind !== 'eof' && !this.isPunct(']')) this.next();
        this.punct(']');
      }
      if (this.isWord('filter')) {
        this.next();
        this.filter = this.disjunction();
      }
      if (this.tok().kind === 'eof') return;
      const q = this.quantifier();
      const cond = this.disjunction();
      this.condition = {
        quantifier: q.quantifier,
        cond,
        span: spanJoin(q.span, this.toks[this.i - 1]!.span),
      };
      if (this.tok().kind !== 'eof') this.expected('the end of the file');
    } catch (e) {
      if (!(e instanceof Skip)) throw e;
    }
  }

  private quantifier(): { quantifier: Quantifier; span: Span } {
    const t = this.tok();
    if (this.isPunct('~')) {
      this.next();
      const e = this.tok();
      if (!this.isWord('exists')) this.expected("'exists' after '~'");
      this.next();
      return { quantifier: 'not exists', span: spanJoin(t.span, e.span) };
    }
    if (this.isWord('exists') || this.isWord('forall')) {
      this.next();
      return { quantifier: t.text === 'exists' ? 'exists' : 'forall', span: t.span };
    }
    return this.expected('a condition: exists, ~exists or forall');
  }

  private disjunction(): VkCond {
    const args = [this.conjunction()];
    while (this.tok().kind === 'op' && this.tok().text === '\\/') {
      this.next();
      args.push(this.conjunction());
    }
    return args.length === 1 ? args[0]! : { kind: 'or', args };
  }

  private conjunction(): VkCond {
    const args = [this.unary()];
    while (this.tok().kind === 'op' && this.tok().text === '/\\') {
      this.next();
      args.push(this.unary());
    }
    return args.length === 1 ? args[0]! : { kind: 'and', args };
  }

  private unary(): VkCond {
    if (this.isWord('not') || this.isPunct('~') || this.isPunct('(')) {
      // The condition's only recursion: past MAX_NESTING levels a diagnostic, not a stack overflow.
      if (this.depth >= MAX_NESTING) this.fail('VK2008', this.tok().span, { limit: String(MAX_NESTING) });
      this.depth++;
      try {
        if (!this.isPunct('(')) {
          this.next();
          return { kind: 'not', arg: this.unary() };
        }
        this.next();
        const c = this.disjunction();
        this.punct(')', "')'");
        return c;
      } finally {
        this.depth--;
      }
    }
    if (this.isWord('true') || this.isWord('false')) return { kind: this.next().text as 'true' | 'false' };
    const lhs = this.term();
    const op = this.tok();
    let cmp: VkCmpOp;
    if (this.isPunct('=')) cmp = '==';
    else if (op.kind === 'op' && (VK_CMP_OPS as readonly string[]).includes(op.text))
      cmp = op.text as VkCmpOp;
    else return this.expected('a comparison (==, !=, <, <=, >, >=)');
    this.next();
    const rhs = this.term();
    return { kind: 'cmp', op: cmp, lhs, rhs };
  }

  /** `P0:r0`, `x`, or an integer. */
  private term(): VkTerm {
    const t = this.tok();
    if (t.kind === 'int' && !this.isPunct(':', this.toks[this.i + 1])) {
      const { value } = this.int('an integer');
      return { kind: 'const', value, span: t.span };
    }
    if (t.kind !== 'word' && t.kind !== 'int')
      return this.expected('a register (P0:r0), a location or an integer');
    this.next();
    const thread = threadOf(t);
    if (thread !== null && this.isPunct(':')) {
      this.next();
      const r = this.tok();
      if (r.kind !== 'word') this.expected('a register after the thread');
      this.next();
      return { kind: 'reg', thread, reg: r.text, span: spanJoin(t.span, r.span) };
    }
    return { kind: 'mem', loc: t.text, span: t.span };
  }

  /** Records a diagnostic from a cell cursor and abandons the cell. */
  failFromCell(
    code: Parameters<typeof diag>[0],
    span: Span,
    args: Record<string, string | undefined>,
  ): never {
    return this.fail(code, span, args);
  }
}

/** The tokens of one cell, consumed by an instruction's operand parsing. */
class CellCursor {
  private k = 0;
  constructor(
    private readonly toks: VkTok[],
    private readonly p: Dat3mParser,
  ) {}

  peek(): VkTok {
    return this.toks[this.k] ?? this.endTok();
  }

  private endTok(): VkTok {
    const last = this.toks[this.toks.length - 1]!;
    return {
      kind: 'eof',
      text: '',
      span: {
        ...last.span,
        offset: last.span.offset + last.span.len,
        col: last.span.col + last.span.len,
        len: 0,
      },
    };
  }

  next(): VkTok {
    const t = this.peek();
    if (this.k < this.toks.length) this.k++;
    return t;
  }

  atPunct(p: string): boolean {
    const t = this.peek();
    return t.kind === 'punct' && t.text === p;
  }

  private expected(what: string, t = this.peek()): never {
    const found = t.kind === 'eof' ? 'the end of the cell' : describeTok(t);
    return this.p.failFromCell('VK2002', t.span, { expected: what, found });
  }

  punct(p: string): void {
    if (!this.atPunct(p)) this.expected(`'${p}'`);
    this.next();
  }

  end(): void {
    if (this.k < this.toks.length) this.expected("'|' or ';' (the end of the cell)");
  }

  word(what: string): VkTok {
    const t = this.peek();
    if (t.kind !== 'word') this.expected(what);
    return this.next();
  }

  register(): VkTok {
    const t = this.peek();
    if (t.kind !== 'word' || !REGISTER.test(t.text)) this.expected('a register (r0, r1, …)');
    return this.next();
  }

  location(): VkTok {
    const t = this.peek();
    if (t.kind !== 'word' || REGISTER.test(t.text) || t.text.includes('.')) this.expected('a location name');
    return this.next();
  }

  int(what: string): number {
    const t = this.peek();
    if (t.kind !== 'int') this.expected(what);
    this.next();
    const v = Number(t.text);
    if (!Number.isSafeInteger(v)) this.p.failFromCell('VK3016', t.span, { text: t.text });
    return v;
  }

  value(): VkValue {
    const t = this.peek();
    if (t.kind === 'int') return { kind: 'const', value: this.int('an integer') };
    if (t.kind === 'word' && REGISTER.test(t.text)) return { kind: 'reg', name: this.next().text };
    return this.expected('an integer or a register');
  }
}

/** The span from the start of `a` to the end of `b`. */
export function spanJoin(a: Span, b: Span): Span {
  return { ...a, len: Math.max(a.len, b.offset + b.len - a.offset) };
}

/** The span of modifier `.name` inside an opcode token. */
function modSpan(head: VkTok, name: string): Span {
  const at = head.text.split('.').indexOf(name);
  if (at <= 0) return head.span;
  const off = head.text.split('.').slice(0, at).join('.').length + 1;
  return { ...head.span, offset: head.span.offset + off, col: head.span.col + off, len: name.length };
}

export { VK_CMP_OPS };
