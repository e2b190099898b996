/**
 * Parser for gpumm litmus files (grammar: docs/litmus.md). Returns `{ test, diagnostics }` and
 * never throws on bad input: each line is parsed on its own and an error skips to the next line,
 * so an editor shows every error in a file at once. `test` is null when any error was found.
 */

import { diag, hasErrors, type SourceDiagnostic } from '../core/diagnostics.ts';
import {
  type AddressSpace,
  type BarrierInstr,
  BIN_OPS,
  type BinOp,
  type Cond,
  type Condition,
  type CondTerm,
  type CondValue,
  type Expectation,
  ICMP_PREDS,
  type IcmpPred,
  type Instr,
  type IrType,
  type Location,
  type LocationSpace,
  type Operand,
  ORDERINGS,
  type Ordering,
  type Placement,
  type PtrRef,
  type Quantifier,
  RMW_OPS,
  type RmwOp,
  SCOPES,
  type Scope,
  type Span,
  SYNC_AS,
  type SyncAs,
  type SyncScope,
  type Test,
  type Thread,
} from '../core/types.ts';
import { type Line, lex, type Token } from './lexer.ts';
import { checkTest, type LocUse } from './validate.ts';

export interface ParseResult {
  test: Test | null;
  diagnostics: SourceDiagnostic[];
}

/** Thrown inside one line's parse to abandon that line; never escapes `parse`. */
class LineError {
  constructor(readonly diagnostic: SourceDiagnostic) {}
}

/**
 * How deeply brackets and negations may nest in a condition or a type. Like clang's
 * -fbracket-depth (256): far beyond any real test, far below the JavaScript stack.
 */
export const MAX_NESTING = 256;

const SPACE_BY_NUMBER: Record<number, AddressSpace> = {
  0: 'generic',
  1: 'global',
  3: 'local',
  4: 'constant',
  5: 'private',
};

/**
 * The region (GDS) address space. spec: amdgpu-usage-2018.rst "Memory Model": "The memory model
 * does not support the region address space which is treated as non-atomic"; "Address Spaces":
 * Region is "not implemented for AMDHSA". gpumm refuses it (LT2023) rather than guess.
 */
const REGION_ADDRSPACE = 2;

/** Orderings each instruction accepts (LLVM LangRef: load/store atomic, atomicrmw, cmpxchg, fence). */
export const ALLOWED_ORDERINGS = {
  load: ['unordered', 'monotonic', 'acquire', 'seq_cst'],
  store: ['unordered', 'monotonic', 'release', 'seq_cst'],
  atomicrmw: ['monotonic', 'acquire', 'release', 'acq_rel', 'seq_cst'],
  'cmpxchg success': ['monotonic', 'acquire', 'release', 'acq_rel', 'seq_cst'],
  'cmpxchg failure': ['monotonic', 'acquire', 'seq_cst'],
  fence: ['acquire', 'release', 'acq_rel', 'seq_cst'],
} as const satisfies Record<string, readonly Ordering[]>;

type OrderingSite = keyof typeof ALLOWED_ORDERINGS;

/** The `expect:` lines every gpumm test syntax accepts (docs/litmus.md, "Header and expectations"). */
export const EXPECTATIONS: Record<string, Omit<Expectation, 'span'>> = {
  'condition holds': { key: 'condition', value: 'holds' },
  'condition fails': { key: 'condition', value: 'fails' },
  'condition unknown': { key: 'condition', value: 'unknown' },
  'race-free': { key: 'race', value: 'race-free' },
  racy: { key: 'race', value: 'racy' },
  undef: { key: 'undef', value: 'undef' },
  'no-undef': { key: 'undef', value: 'no-undef' },
  ub: { key: 'ub', value: 'ub' },
  'no-ub': { key: 'ub', value: 'no-ub' },
};

const COORDS: Record<string, 'agent' | 'cluster' | 'workgroup' | 'wavefront'> = {
  agent: 'agent',
  cluster: 'cluster',
  workgroup: 'workgroup',
  wg: 'workgroup',
  wavefront: 'wavefront',
  wave: 'wavefront',
  wf: 'wavefront',
};

/** A metadata reference on an instruction, resolved once every `!N = …` line has been read. */
interface PendingMeta {
  instr: { kind: Instr['kind']; nontemporal?: boolean; avNone: boolean; syncAs?: SyncAs[] };
  kind: 'nontemporal' | 'mmra';
  ref: string;
  span: Span;
}

/** A metadata node: the strings it holds (those of nodes it names included), and the names it refers to. */
type MetaNode = { strings: string[]; refs: string[]; elems: number; text: string; span: Span };

/**
 * Strings kept per metadata node. Meaning needs at most two (an MMRA pair), and a node that nests
 * others (`!2 = !{!1, !1}`) would otherwise double its strings at each level.
 */
const MAX_META_STRINGS = 8;

/** Parses a litmus file. `file` names the source in diagnostics. */
export function parse(text: string, file = '<input>'): ParseResult {
  return new Parser(text, file).run();
}

class Parser {
  private readonly diagnostics: SourceDiagnostic[] = [];
  private readonly lines: Line[];
  private name = '';
  private description = '';
  private headerSeen = false;
  private readonly expects: Expectation[] = [];
  private readonly locations: Location[] = [];
  private readonly threads: Thread[] = [];
  /** Lookups by name, so that a file of 100,000 threads or locations does not parse in quadratic time. */
  private readonly threadByName = new Map<string, Thread>();
  private readonly locationByName = new Map<string, Location>();
  private condition: Condition | null = null;
  private readonly metaDefs = new Map<string, MetaNode>();
  private readonly pendingMeta: PendingMeta[] = [];
  private readonly uses: LocUse[] = [];
  /** Registers of the thread being parsed: name → line of definition and whether it holds a cmpxchg pair. */
  private regs = new Map<string, { line: number; pair: boolean }>();
  private threadName = '';
  /**
   * `thread:%reg` for registers whose defining line had an error: later uses of them are not
   * reported again (one mistake, one diagnostic).
   */
  private readonly brokenRegs = new Set<string>();
  /** Locations whose declaration line has an error (`noteBrokenLocation`). */
  private readonly brokenLocs = new Set<string>();
  /** Open brackets and negations around the point being parsed (see `nested`). */
  private depth = 0;

  constructor(
    private readonly text: string,
    private readonly file: string,
  ) {
    const lexed = lex(text, file);
    this.lines = lexed.lines;
    // A loop, not push(...xs): spreading 100,000 diagnostics as arguments overflows the stack.
    for (const d of lexed.diagnostics) this.diagnostics.push(d);
  }

  run(): ParseResult {
    let li = 0;
    let current: Thread | null = null;
    let descriptionAllowed = false;
    while (li < this.lines.length) {
      const line = this.lines[li]!;
      li++;
      const toks = line.tokens;
      if (toks.length === 0) continue;
      try {
        if (!this.headerSeen) {
          this.headerSeen = true;
          if (this.parseHeader(line)) {
            descriptionAllowed = true;
            continue;
          }
        }
        if (descriptionAllowed) {
          descriptionAllowed = false;
          if (toks[0]!.kind === 'string') {
            this.description = toks[0]!.text;
            if (toks.length > 1) this.trailing(toks[1]!);
            continue;
          }
        }
        const first = toks[0]!;
        if (current) {
          if (first.kind === 'punct' && first.text === '}') {
            if (toks.length > 1) this.trailing(toks[1]!);
            current = null;
            continue;
          }
          if (isPastedNoise(toks, 'body')) continue;
          const instr = this.parseInstrLine(new Cursor(toks, line, this.file));
          current.body.push(instr);
          continue;
        }
        if (isPastedNoise(toks, 'top')) continue;
        if (first.kind === 'ident' && first.text === 'expect') {
          this.parseExpect(line);
          continue;
        }
        if (first.kind === 'global') {
          this.parseLocation(new Cursor(toks, line, this.file));
          continue;
        }
        if (first.kind === 'meta') {
          this.parseMetaDef(new Cursor(toks, line, this.file));
          continue;
        }
        if (this.startsCondition(toks)) {
          const rest = [toks, ...this.lines.slice(li).map((l) => l.tokens)].flat();
          li = this.lines.length;
          this.parseCondition(rest, line);
          continue;
        }
        if (first.kind === 'ident' && toks[toks.length - 1]!.text === '{') {
          current = this.parseThreadHeader(new Cursor(toks, line, this.file));
          continue;
        }
        if (first.kind === 'local' || (first.kind === 'ident' && isInstrWord(first.text))) {
          throw new LineError(diag('LT2015', first.span));
        }
        throw new LineError(
          diag('LT2003', first.span, {
            expected: 'a location (@x = …), metadata (!0 = …), expect:, a thread (P0 @ … {) or a condition',
            found: describe(first),
          }),
        );
      } catch (e) {
        if (!(e instanceof LineError)) throw e;
        this.diagnostics.push(e.diagnostic);
        if (current) this.noteBrokenDefinition(toks);
        else this.noteBrokenLocation(toks);
      }
    }
    if (!this.headerSeen) {
      this.diagnostics.push(diag('LT2001', { file: this.file, offset: 0, line: 1, col: 1, len: 0 }));
    }
    if (current) {
      this.diagnostics.push(diag('LT2013', current.span, { thread: current.name }));
    }
    this.resolveMeta();
    const test: Test = {
      arch: 'AMDGPU',
      name: this.name,
      description: this.description,
      expects: this.expects,
      locations: this.locations,
      threads: this.threads,
      condition: this.condition,
      file: this.file,
    };
    for (const d of checkTest(test, this.uses, this.eofSpan(), this.brokenRegs, this.brokenLocs))
      this.diagnostics.push(d);
    // "Expected …, found the end of the line" on a last line without a line break points one past
    // the file; such a span moves onto the file's last character, so every span lies inside the file.
    if (this.text.length > 0) {
      for (const d of this.diagnostics)
        if (d.span.offset >= this.text.length) d.span = this.spanAt(this.text.length - 1, 0);
    }
    this.diagnostics.sort((a, b) => a.span.offset - b.span.offset);
    return { test: hasErrors(this.diagnostics) ? null : test, diagnostics: this.diagnostics };
  }

  /**
   * Where a diagnostic about the file as a whole points: its last non-blank character (the caret
   * then sits under text), or its start when the file is blank.
   */
  private eofSpan(): Span {
    let at = this.text.length - 1;
    while (at >= 0 && /\s/.test(this.text[at]!)) at--;
    return at < 0 ? { file: this.file, offset: 0, line: 1, col: 1, len: 0 } : this.spanAt(at, 1);
  }

  /** The span of `len` characters at `offset`, with its line and column found from the lexer's lines. */
  private spanAt(offset: number, len: number): Span {
    let lo = 0;
    let hi = this.lines.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lines[mid]!.offset <= offset) lo = mid;
      else hi = mid - 1;
    }
    const line = this.lines[lo]!;
    return { file: this.file, offset, line: line.line, col: offset - line.offset + 1, len };
  }

  /**
   * Parses something inside a bracket or negation opened by `open`. Conditions and types are the
   * parser's only recursion; past MAX_NESTING levels the line gets LT2024 instead of a stack
   * overflow, and so every later walk over the tree (validation, printing, evaluation) stays
   * shallow too.
   */
  private nested<T>(open: Token, parse: () => T): T {
    if (this.depth >= MAX_NESTING)
      throw new LineError(diag('LT2024', open.span, { limit: String(MAX_NESTING) }));
    this.depth++;
    try {
      return parse();
    } finally {
      this.depth--;
    }
  }

  private trailing(t: Token): never {
    throw new LineError(diag('LT2010', t.span, { found: describe(t) }));
  }

  /** `AMDGPU <name>`; the name is the rest of the line as written (herd allows + . - in names). */
  private parseHeader(line: Line): boolean {
    const first = line.tokens[0]!;
    if (first.kind !== 'ident') {
      this.diagnostics.push(diag('LT2001', first.span));
      return false;
    }
    if (first.text !== 'AMDGPU') {
      if (/^(C|PTX|VULKAN|X86|AArch64|ARM|PPC|RISCV|LISA|OpenCL|HSA|GPU_PTX|Vulkan)$/i.test(first.text)) {
        throw new LineError(diag('LT2002', first.span, { arch: first.text }));
      }
      this.diagnostics.push(diag('LT2001', first.span));
      return false;
    }
    const afterArch = first.span.col - 1 + first.span.len;
    let rest = line.text.slice(afterArch);
    const semi = rest.search(/;|\/\//);
    if (semi >= 0) rest = rest.slice(0, semi);
    this.name = rest.trim();
    if (this.name === '') {
      throw new LineError(
        diag(
          'LT2003',
          { ...first.span, col: afterArch + 1, offset: line.offset + afterArch, len: 0 },
          {
            expected: 'a test name after AMDGPU',
            found: 'the end of the line',
          },
        ),
      );
    }
    return true;
  }

  private parseExpect(line: Line): void {
    const toks = line.tokens;
    const colon = toks[1];
    if (colon?.text !== ':') {
      throw new LineError(
        diag('LT2003', (colon ?? toks[0]!).span, { expected: "':' after expect", found: describe(colon) }),
      );
    }
    const startCol = colon.span.col;
    let raw = line.text.slice(startCol);
    const semi = raw.search(/;|\/\//);
    if (semi >= 0) raw = raw.slice(0, semi);
    const text = raw.trim().replace(/\s+/g, ' ');
    const span: Span = {
      ...colon.span,
      offset: line.offset + startCol + (raw.length - raw.trimStart().length),
      col: startCol + 1 + (raw.length - raw.trimStart().length),
      len: text.length,
    };
    const e = EXPECTATIONS[text];
    if (!e) throw new LineError(diag('LT2007', span, { text }));
    const prior = this.expects.find((x) => x.key === e.key);
    if (prior) throw new LineError(diag('LT3019', span, { key: e.key, line: String(prior.span.line) }));
    this.expects.push({ ...e, span } as Expectation);
  }

  /** `@x = [addrspace(N)] global|constant <type> <init>` */
  private parseLocation(c: Cursor): void {
    const nameTok = c.next();
    c.expectPunct('=');
    let spaceNum = 1;
    if (c.isIdent('addrspace')) spaceNum = this.parseAddrspace(c);
    // Linkage and attribute words LLVM allows before `global` are accepted and dropped.
    while (
      c.peekIdentIn([
        'internal',
        'external',
        'private',
        'dso_local',
        'unnamed_addr',
        'local_unnamed_addr',
        'hidden',
        'protected',
      ])
    ) {
      c.next();
    }
    if (c.isIdent('addrspace')) spaceNum = this.parseAddrspace(c);
    const kw = c.next();
    if (kw.kind !== 'ident' || (kw.text !== 'global' && kw.text !== 'constant')) {
      throw new LineError(
        diag('LT2003', kw.span, { expected: "'global' or 'constant'", found: describe(kw) }),
      );
    }
    const spaceTok = c.prevSpan();
    const space = SPACE_BY_NUMBER[spaceNum];
    if (spaceNum === REGION_ADDRSPACE) throw new LineError(diag('LT2023', spaceTok, {}));
    if (space === undefined || space === 'generic') {
      throw new LineError(diag('LT2016', spaceTok, { n: String(spaceNum) }));
    }
    const locSpace: LocationSpace = kw.text === 'constant' && spaceNum === 1 ? 'constant' : space;
    const typeStart = c.peek();
    const type = this.parseType(c);
    const barrier = type.startsWith('target(');
    if (barrier && locSpace !== 'local') {
      throw new LineError(
        diag('LT3015', typeStart.span, { what: 'a named-barrier object must be in addrspace(3)' }),
      );
    }
    let init: number | 'undef' = 0;
    if (!c.atEnd() && c.peek().text !== ',') {
      const t = c.next();
      if (t.kind === 'ident' && (t.text === 'undef' || t.text === 'poison')) init = 'undef';
      else if (t.kind === 'ident' && t.text === 'zeroinitializer') init = 0;
      else if (t.kind === 'int') init = this.intValue(t);
      else if (t.kind === 'ident' && (t.text === 'true' || t.text === 'false'))
        init = t.text === 'true' ? 1 : 0;
      else
        throw new LineError(
          diag('LT2003', t.span, {
            expected: 'an initial value (integer, undef, zeroinitializer)',
            found: describe(t),
          }),
        );
    }
    if (barrier) init = 'undef';
    this.skipAttachments(c, null);
    const prior = this.locationByName.get(nameTok.text);
    if (prior)
      throw new LineError(
        diag('LT3004', nameTok.span, { name: nameTok.text, line: String(prior.span.line) }),
      );
    const location: Location = {
      name: nameTok.text,
      space: locSpace,
      type,
      init,
      barrier,
      span: nameTok.span,
    };
    this.locations.push(location);
    this.locationByName.set(location.name, location);
  }

  /** `!N = !{…}` metadata definitions, referenced by `!nontemporal !N` / `!mmra !N`. */
  private parseMetaDef(c: Cursor): void {
    const nameTok = c.next();
    c.expectPunct('=');
    const node = this.parseMetaNode(c);
    c.expectEnd();
    if (this.metaDefs.has(nameTok.text))
      throw new LineError(diag('LT3016', nameTok.span, { name: nameTok.text }));
    this.metaDefs.set(nameTok.text, node);
  }

  /** `!{ elem, … }` where elements are `!"str"`, `i32 1`, or `!N`; returns the strings it holds. */
  private parseMetaNode(c: Cursor, nested = false): MetaNode {
    const open = c.next();
    if (open.kind !== 'metaOpen') {
      throw new LineError(
        diag('LT2003', open.span, { expected: 'a metadata node !{…}', found: describe(open) }),
      );
    }
    const strings: string[] = [];
    const refs: string[] = [];
    const parts: string[] = [];
    if (c.peek().text !== '}') {
      for (;;) {
        if (c.peek().kind === 'metaOpen' && !nested) {
          // An inline node inside a node (a tuple of MMRA tags written inline): one level only.
          const inner = this.parseMetaNode(c, true);
          const name = `inline:${inner.span.offset}`;
          this.metaDefs.set(name, inner);
          strings.push(...inner.strings);
          refs.push(name);
          parts.push(inner.text);
          if (this.metaSeparator(c)) break;
          continue;
        }
        const t = c.next();
        if (t.kind === 'metaString') {
          if (strings.length < MAX_META_STRINGS) strings.push(t.text);
          parts.push(`!"${t.text}"`);
        } else if (t.kind === 'meta') {
          const def = this.metaDefs.get(t.text);
          if (def) for (const x of def.strings) if (strings.length < MAX_META_STRINGS) strings.push(x);
          refs.push(t.text);
          parts.push(`!${t.text}`);
        } else if (t.kind === 'ident' && /^i\d+$/.test(t.text)) {
          const v = c.next();
          if (v.kind !== 'int')
            throw new LineError(diag('LT2003', v.span, { expected: 'an integer', found: describe(v) }));
          parts.push(`${t.text} ${v.text}`);
        } else {
          throw new LineError(
            diag('LT2003', t.span, { expected: 'a metadata element (!"…", i32 N, !N)', found: describe(t) }),
          );
        }
        if (this.metaSeparator(c)) break;
      }
    } else c.next();
    return { strings, refs, elems: parts.length, text: `!{${parts.join(', ')}}`, span: open.span };
  }

  /** Reads the `,` or `}` after a metadata element; true at the `}`. */
  private metaSeparator(c: Cursor): boolean {
    const sep = c.next();
    if (sep.text === '}') return true;
    if (sep.text !== ',')
      throw new LineError(diag('LT2003', sep.span, { expected: "',' or '}'", found: describe(sep) }));
    return false;
  }

  private resolveMeta(): void {
    for (const p of this.pendingMeta) {
      const node = this.metaDefs.get(p.ref);
      if (!node) {
        this.diagnostics.push(diag('LT3013', p.span, { name: p.ref }));
        continue;
      }
      this.applyMeta(p.instr, p.kind, node, p.span);
    }
  }

  private applyMeta(
    instr: PendingMeta['instr'],
    kind: PendingMeta['kind'],
    node: MetaNode,
    span: Span,
  ): void {
    if (kind === 'nontemporal') {
      instr.nontemporal = true;
      return;
    }
    const tags = this.mmraTags(node);
    if (tags === null) {
      this.diagnostics.push(diag('LT2020', span, { text: node.text }));
      return;
    }
    for (const [prefix, suffix] of tags) {
      if (prefix === 'amdgcn-av' && suffix === 'none') instr.avNone = true;
      else if (prefix === 'amdgpu-synchronize-as') {
        // LLVM SIMemoryLegalizer.cpp reads this tag on fences only (`getAtomicFenceInfo`, names in
        // `ASNames`); on other instructions it has no effect, an unknown name is warned about and dropped.
        const as = SYNC_AS.find((a) => a === suffix);
        if (as === undefined) this.diagnostics.push(diag('LT2021', span, { name: suffix }));
        else if (!instr.syncAs) this.diagnostics.push(diag('LT2022', span, { instr: instr.kind }));
        else if (!instr.syncAs.includes(as)) {
          instr.syncAs.push(as);
          instr.syncAs.sort((a, b) => SYNC_AS.indexOf(a) - SYNC_AS.indexOf(b));
        }
      } else this.diagnostics.push(diag('LT2020', span, { text: node.text }));
    }
  }

  /**
   * The tags of an `!mmra` node (LLVM MemoryModelRelaxationAnnotations.rst: a tag is a pair of
   * strings `!{!"prefix", !"suffix"}`; several tags are a tuple of tags), or null when it is neither.
   */
  private mmraTags(node: MetaNode): [string, string][] | null {
    if (node.refs.length === 0)
      return node.elems === 2 && node.strings.length === 2 ? [[node.strings[0]!, node.strings[1]!]] : null;
    if (node.refs.length !== node.elems) return null;
    const tags: [string, string][] = [];
    for (const r of node.refs) {
      const def = this.metaDefs.get(r);
      if (!def) {
        this.diagnostics.push(diag('LT3013', node.span, { name: r }));
        return [];
      }
      if (def.refs.length > 0 || def.elems !== 2 || def.strings.length !== 2) return null;
      tags.push([def.strings[0]!, def.strings[1]!]);
    }
    return tags;
  }

  private startsCondition(toks: Token[]): boolean {
    const f = toks[0]!;
    if (f.kind === 'ident') return f.text === 'exists' || f.text === 'forall' || f.text === '~exists';
    if (f.kind === 'punct' && f.text === '~') return toks[1]?.kind === 'ident' && toks[1].text === 'exists';
    return false;
  }

  /** `P0 [@ host | @ coord N, …] {` */
  private parseThreadHeader(c: Cursor): Thread {
    const nameTok = c.next();
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(nameTok.text)) {
      throw new LineError(
        diag('LT2003', nameTok.span, { expected: 'a thread name such as P0', found: describe(nameTok) }),
      );
    }
    let placement: Placement = { kind: 'device', agent: 0, cluster: 0, workgroup: 0, wavefront: 0 };
    if (c.peek().text === '@') {
      c.next();
      placement = this.parsePlacement(c, nameTok.text);
    }
    c.expectPunct('{');
    c.expectEnd();
    const prior = this.threadByName.get(nameTok.text);
    if (prior)
      throw new LineError(
        diag('LT3007', nameTok.span, { name: nameTok.text, line: String(prior.span.line) }),
      );
    const thread: Thread = { name: nameTok.text, placement, body: [], span: nameTok.span };
    this.threads.push(thread);
    this.threadByName.set(thread.name, thread);
    this.regs = new Map();
    this.threadName = thread.name;
    return thread;
  }

  private parsePlacement(c: Cursor, thread: string): Placement {
    if (c.isIdent('host')) {
      const h = c.next();
      if (c.peek().text !== '{') {
        throw new LineError(
          diag('LT3008', c.peek().span, { thread, why: 'a host thread has no GPU coordinates' }),
        );
      }
      void h;
      return { kind: 'host' };
    }
    const p = { kind: 'device' as const, agent: 0, cluster: 0, workgroup: 0, wavefront: 0 };
    const seen = new Map<string, number>();
    for (;;) {
      const t = c.next();
      if (t.kind === 'ident' && t.text === 'host') {
        throw new LineError(diag('LT3008', t.span, { thread, why: 'a host thread has no GPU coordinates' }));
      }
      const coord = t.kind === 'ident' ? COORDS[t.text] : undefined;
      if (!coord) throw new LineError(diag('LT2014', t.span, { name: t.text }));
      const v = c.next();
      if (v.kind !== 'int' || v.text.startsWith('-')) {
        throw new LineError(
          diag('LT2003', v.span, { expected: `a non-negative integer after ${t.text}`, found: describe(v) }),
        );
      }
      const n = this.intValue(v);
      const before = seen.get(coord);
      if (before !== undefined) {
        const why = before === n ? `${coord} is given twice` : `${coord} is both ${before} and ${n}`;
        throw new LineError(diag('LT3008', t.span, { thread, why }));
      }
      seen.set(coord, n);
      p[coord] = n;
      if (c.peek().text !== ',') break;
      c.next();
    }
    return p;
  }

  // ---------------------------------------------------------------- instructions

  private parseInstrLine(c: Cursor): Instr {
    let dst: Token | null = null;
    if (c.peek().kind === 'local') {
      dst = c.next();
      c.expectPunct('=');
    }
    for (const w of ['tail', 'notail', 'musttail']) if (c.isIdent(w)) c.next();
    const op = c.next();
    if (op.kind !== 'ident') {
      throw new LineError(diag('LT2003', op.span, { expected: 'an instruction', found: describe(op) }));
    }
    const span = { ...op.span };
    const instr = this.parseInstrBody(c, op, dst, span);
    const last = c.prevSpan();
    span.len = last.offset + last.len - span.offset;
    if (dst) {
      span.len += span.offset - dst.span.offset;
      span.offset = dst.span.offset;
      span.col = dst.span.col;
      this.define(dst, instr.kind === 'cmpxchg');
    }
    return instr;
  }

  /**
   * After an error on `@x = …` (a refused address space, a bad type), `@x` counts as declared for
   * its uses, which are not errors too (the test is refused already).
   */
  private noteBrokenLocation(toks: readonly Token[]): void {
    const [name, eq] = toks;
    if (name?.kind === 'global' && eq?.text === '=') this.brokenLocs.add(name.text);
  }

  /** After an error on `%r = …`, `%r` counts as defined so that its uses are not errors too. */
  private noteBrokenDefinition(toks: readonly Token[]): void {
    const [dst, eq] = toks;
    if (dst?.kind !== 'local' || eq?.text !== '=' || this.regs.has(dst.text)) return;
    this.regs.set(dst.text, { line: dst.span.line, pair: true });
    this.brokenRegs.add(`${this.threadName}:${dst.text}`);
  }

  private define(dst: Token, pair: boolean): void {
    const prior = this.regs.get(dst.text);
    if (prior) {
      throw new LineError(
        diag('LT3006', dst.span, { name: dst.text, thread: this.threadName, line: String(prior.line) }),
      );
    }
    this.regs.set(dst.text, { line: dst.span.line, pair });
  }

  private needDst(dst: Token | null, op: Token): string {
    if (!dst) {
      throw new LineError(
        diag('LT2003', op.span, { expected: `a result register (%r = ${op.text} …)`, found: op.text }),
      );
    }
    return dst.text;
  }

  private noDst(dst: Token | null, what: string): void {
    if (dst)
      throw new LineError(
        diag('LT2003', dst.span, { expected: `${what} (it has no result)`, found: `%${dst.text}` }),
      );
  }

  private parseInstrBody(c: Cursor, op: Token, dst: Token | null, span: Span): Instr {
    switch (op.text) {
      case 'load': {
        const name = this.needDst(dst, op);
        const atomic = c.eatIdent('atomic');
        const vol = c.eatIdent('volatile');
        const type = this.parseType(c);
        c.expectPunct(',');
        const ptr = this.parsePtr(c, 'read');
        const { syncscope, ordering } = this.parseAtomicSuffix(c, atomic, 'load');
        const instr: Instr = {
          kind: 'load',
          dst: name,
          type,
          ptr,
          ordering,
          syncscope,
          volatile: vol,
          nontemporal: false,
          avNone: false,
          span,
        };
        this.skipAttachments(c, instr);
        return instr;
      }
      case 'store': {
        this.noDst(dst, 'store');
        const atomic = c.eatIdent('atomic');
        const vol = c.eatIdent('volatile');
        const type = this.parseType(c);
        const value = this.parseOperand(c);
        c.expectPunct(',');
        const ptr = this.parsePtr(c, 'write');
        const { syncscope, ordering } = this.parseAtomicSuffix(c, atomic, 'store');
        const instr: Instr = {
          kind: 'store',
          type,
          value,
          ptr,
          ordering,
          syncscope,
          volatile: vol,
          nontemporal: false,
          avNone: false,
          span,
        };
        this.skipAttachments(c, instr);
        return instr;
      }
      case 'atomicrmw': {
        const vol = c.eatIdent('volatile');
        const opTok = c.next();
        if (opTok.kind !== 'ident' || !(RMW_OPS as readonly string[]).includes(opTok.text)) {
          throw new LineError(diag('LT2008', opTok.span, { name: opTok.text }));
        }
        const ptr = this.parsePtr(c, 'rmw');
        c.expectPunct(',');
        const type = this.parseType(c);
        const value = this.parseOperand(c);
        const syncscope = this.parseSyncScope(c);
        const ordering = this.parseOrdering(c, 'atomicrmw');
        const instr: Instr = {
          kind: 'rmw',
          dst: dst?.text ?? null,
          op: opTok.text as RmwOp,
          type,
          ptr,
          value,
          ordering,
          syncscope,
          volatile: vol,
          nontemporal: false,
          avNone: false,
          span,
        };
        this.skipAttachments(c, instr);
        return instr;
      }
      case 'cmpxchg': {
        const weak = c.eatIdent('weak');
        const vol = c.eatIdent('volatile');
        const ptr = this.parsePtr(c, 'rmw');
        c.expectPunct(',');
        const type = this.parseType(c);
        const expected = this.parseOperand(c);
        c.expectPunct(',');
        this.parseType(c);
        const desired = this.parseOperand(c);
        const syncscope = this.parseSyncScope(c);
        const success = this.parseOrdering(c, 'cmpxchg success');
        const failure = this.parseOrdering(c, 'cmpxchg failure');
        const instr: Instr = {
          kind: 'cmpxchg',
          dst: dst?.text ?? null,
          weak,
          type,
          ptr,
          expected,
          desired,
          success,
          failure,
          syncscope,
          volatile: vol,
          nontemporal: false,
          avNone: false,
          span,
        };
        this.skipAttachments(c, instr);
        return instr;
      }
      case 'fence': {
        this.noDst(dst, 'fence');
        const syncscope = this.parseSyncScope(c);
        const ordering = this.parseOrdering(c, 'fence');
        const instr: Instr = { kind: 'fence', ordering, syncscope, avNone: false, syncAs: [], span };
        this.skipAttachments(c, instr);
        return instr;
      }
      case 'call':
        return this.parseCall(c, op, dst, span);
      case 'icmp': {
        const name = this.needDst(dst, op);
        const p = c.next();
        if (!(ICMP_PREDS as readonly string[]).includes(p.text))
          throw new LineError(diag('LT2018', p.span, { name: p.text }));
        const type = this.parseType(c);
        const a = this.parseOperand(c);
        c.expectPunct(',');
        const b = this.parseOperand(c);
        c.expectEnd();
        return { kind: 'icmp', dst: name, pred: p.text as IcmpPred, type, a, b, span };
      }
      case 'select': {
        const name = this.needDst(dst, op);
        this.parseType(c);
        const cond = this.parseOperand(c);
        c.expectPunct(',');
        const type = this.parseType(c);
        const a = this.parseOperand(c);
        c.expectPunct(',');
        this.parseType(c);
        const b = this.parseOperand(c);
        c.expectEnd();
        return { kind: 'select', dst: name, type, cond, a, b, span };
      }
      case 'extractvalue': {
        const name = this.needDst(dst, op);
        const type = this.parseType(c);
        const src = c.next();
        if (src.kind !== 'local') {
          throw new LineError(
            diag('LT2003', src.span, {
              expected: 'a register holding a cmpxchg result',
              found: describe(src),
            }),
          );
        }
        const reg = this.regs.get(src.text);
        if (!reg) throw new LineError(diag('LT3005', src.span, { name: src.text, thread: this.threadName }));
        if (!reg.pair) throw new LineError(diag('LT3018', src.span, { name: src.text }));
        c.expectPunct(',');
        const idx = c.next();
        if (idx.kind !== 'int' || (idx.text !== '0' && idx.text !== '1')) {
          throw new LineError(
            diag('LT2003', idx.span, {
              expected: 'index 0 (old value) or 1 (success flag)',
              found: describe(idx),
            }),
          );
        }
        c.expectEnd();
        return { kind: 'extract', dst: name, type, src: src.text, index: idx.text === '0' ? 0 : 1, span };
      }
      default: {
        if ((BIN_OPS as readonly string[]).includes(op.text)) {
          const name = this.needDst(dst, op);
          while (c.peekIdentIn(['nuw', 'nsw', 'exact'])) c.next();
          const type = this.parseType(c);
          const a = this.parseOperand(c);
          c.expectPunct(',');
          const b = this.parseOperand(c);
          c.expectEnd();
          return { kind: 'bin', dst: name, op: op.text as BinOp, type, a, b, span };
        }
        throw new LineError(diag('LT2004', op.span, { name: op.text }));
      }
    }
  }

  /** After the pointer of a load/store: `[syncscope("…")] <ordering>` when atomic, nothing otherwise. */
  private parseAtomicSuffix(
    c: Cursor,
    atomic: boolean,
    site: 'load' | 'store',
  ): { syncscope: SyncScope; ordering: Ordering } {
    if (atomic) {
      const syncscope = this.parseSyncScope(c);
      return { syncscope, ordering: this.parseOrdering(c, site) };
    }
    const t = c.peek();
    if (t.kind === 'ident' && (t.text === 'syncscope' || (ORDERINGS as readonly string[]).includes(t.text))) {
      throw new LineError(
        diag('LT3002', t.span, {
          what: `a plain ${site} has no ${t.text === 'syncscope' ? 'syncscope' : 'ordering'}`,
          fix: `write "${site} atomic …" for an atomic ${site}`,
        }),
      );
    }
    return { syncscope: { scope: 'system', oneAs: false }, ordering: 'notatomic' };
  }

  private parseSyncScope(c: Cursor): SyncScope {
    if (!c.isIdent('syncscope')) return { scope: 'system', oneAs: false };
    c.next();
    c.expectPunct('(');
    const s = c.next();
    if (s.kind !== 'string')
      throw new LineError(diag('LT2003', s.span, { expected: 'a quoted scope name', found: describe(s) }));
    c.expectPunct(')');
    const parsed = parseScopeName(s.text);
    if (!parsed) throw new LineError(diag('LT2006', s.span, { name: s.text }));
    return parsed;
  }

  private parseOrdering(c: Cursor, site: OrderingSite): Ordering {
    const t = c.peek();
    if (t.kind !== 'ident' || t.text === 'align') {
      throw new LineError(
        diag('LT2003', t.kind === 'ident' ? t.span : c.endSpan(), {
          expected: `an ordering for ${site} (${ALLOWED_ORDERINGS[site].join(', ')})`,
          found: describe(t.kind === 'ident' ? t : undefined),
        }),
      );
    }
    c.next();
    if (!(ORDERINGS as readonly string[]).includes(t.text) || t.text === 'notatomic') {
      throw new LineError(diag('LT2005', t.span, { name: t.text }));
    }
    const allowed = ALLOWED_ORDERINGS[site] as readonly string[];
    if (!allowed.includes(t.text)) {
      throw new LineError(
        diag('LT3001', t.span, { instr: site, ordering: t.text, allowed: allowed.join(', ') }),
      );
    }
    return t.text as Ordering;
  }

  /** `, align N`, `, !nontemporal !0`, `, !mmra !{…}` … up to the end of the line. */
  private skipAttachments(c: Cursor, instr: PendingMeta['instr'] | null): void {
    while (!c.atEnd()) {
      if (c.peek().text !== ',') this.trailing(c.peek());
      c.next();
      const t = c.next();
      if (t.kind === 'ident' && t.text === 'align') {
        const n = c.next();
        if (n.kind !== 'int')
          throw new LineError(diag('LT2003', n.span, { expected: 'an alignment', found: describe(n) }));
        continue;
      }
      if (t.kind === 'meta') {
        const kind = t.text === 'nontemporal' ? 'nontemporal' : t.text === 'mmra' ? 'mmra' : null;
        const ref = c.peek();
        let node: MetaNode | null = null;
        let refName: string | null = null;
        if (ref.kind === 'metaOpen') node = this.parseMetaNode(c);
        else if (ref.kind === 'meta') refName = c.next().text;
        else
          throw new LineError(
            diag('LT2003', ref.span, { expected: 'a metadata reference (!0 or !{…})', found: describe(ref) }),
          );
        if (!kind || !instr) {
          this.diagnostics.push(diag('LT2011', t.span, { name: t.text }));
          continue;
        }
        if (node && node.refs.length > 0 && kind === 'mmra') {
          // A tuple of tags may name nodes defined further down: resolve it with the others.
          const name = `inline:${ref.span.offset}`;
          this.metaDefs.set(name, node);
          this.pendingMeta.push({ instr, kind, ref: name, span: ref.span });
        } else if (node) this.applyMeta(instr, kind, node, ref.span);
        else if (refName !== null) this.pendingMeta.push({ instr, kind, ref: refName, span: ref.span });
        continue;
      }
      throw new LineError(
        diag('LT2003', t.span, { expected: "'align N' or metadata (!name !N)", found: describe(t) }),
      );
    }
  }

  private parseCall(c: Cursor, op: Token, dst: Token | null, span: Span): Instr {
    const retType = this.parseType(c);
    const callee = c.next();
    if (callee.kind !== 'global') {
      throw new LineError(
        diag('LT2003', callee.span, {
          expected: 'an intrinsic name (@llvm.amdgcn.…)',
          found: describe(callee),
        }),
      );
    }
    const access: LocUse['access'] = callee.text.startsWith('llvm.amdgcn.av.global.store')
      ? 'avwrite'
      : callee.text.startsWith('llvm.amdgcn.av.global.load')
        ? 'avread'
        : 'barrier';
    c.expectPunct('(');
    const args: CallArg[] = [];
    if (c.peek().text !== ')') {
      for (;;) {
        args.push(this.parseCallArg(c, access));
        const sep = c.next();
        if (sep.text === ')') break;
        if (sep.text !== ',')
          throw new LineError(diag('LT2003', sep.span, { expected: "',' or ')'", found: describe(sep) }));
      }
    } else c.next();
    // Function attribute groups of a pasted call (`… ) #0`) carry nothing for the model.
    while (c.peek().text === '#' && c.peek().kind === 'punct') {
      c.next();
      c.next();
    }
    const name = callee.text;
    const argErr = (expected: string): never => {
      throw new LineError(
        diag('LT2003', callee.span, {
          expected: `arguments (${expected})`,
          found: `${args.length} argument(s) of other kinds`,
        }),
      );
    };
    const avScope = (a: CallArg | undefined): Scope => {
      if (a?.kind !== 'scope') return argErr('…, metadata !"<scope>"');
      const p = parseScopeName(a.name);
      if (!p || p.oneAs) throw new LineError(diag('LT2006', a.span, { name: a.name }));
      return p.scope;
    };
    let instr: Instr;
    switch (name) {
      case 'llvm.amdgcn.av.global.store.b128': {
        this.noDst(dst, name);
        const [p, v, s] = args;
        if (args.length !== 3 || p?.kind !== 'ptr' || v?.kind !== 'value')
          return argErr('ptr addrspace(1) @x, <type> value, metadata !"<scope>"');
        instr = { kind: 'avstore', type: v.type, value: v.value, ptr: p.ptr, scope: avScope(s), span };
        break;
      }
      case 'llvm.amdgcn.av.global.load.b128': {
        const d = this.needDst(dst, op);
        const [p, s] = args;
        if (args.length !== 2 || p?.kind !== 'ptr') return argErr('ptr addrspace(1) @x, metadata !"<scope>"');
        instr = { kind: 'avload', dst: d, type: retType, ptr: p.ptr, scope: avScope(s), span };
        break;
      }
      case 'llvm.amdgcn.wave.barrier':
        // LLVM IntrinsicsAMDGPU.td declares it IntrNoMem, IntrHasSideEffects, IntrConvergent: it keeps
        // the wave converged, emits no instruction and orders no memory (docs/model.md, choice 34).
        this.noDst(dst, name);
        if (args.length !== 0) argErr('none');
        instr = { kind: 'wavebarrier', span };
        break;
      default: {
        const b = this.parseBarrierCall(name, args, dst, argErr, span);
        if (!b) throw new LineError(diag('LT2012', callee.span, { name }));
        instr = b;
      }
    }
    this.skipAttachments(c, null);
    return instr;
  }

  private parseBarrierCall(
    name: string,
    args: CallArg[],
    dst: Token | null,
    argErr: (e: string) => never,
    span: Span,
  ): BarrierInstr | null {
    const base = { kind: 'barrier' as const, id: null, object: null, count: null, dst: null, span };
    const imm = (a: CallArg | undefined, e: string): number => {
      if (a?.kind !== 'value' || a.value.kind !== 'const') return argErr(e);
      return a.value.value;
    };
    const obj = (a: CallArg | undefined, e: string): string => {
      if (a?.kind !== 'ptr') return argErr(e);
      return a.ptr.loc;
    };
    const count = (a: CallArg | undefined, e: string): number => {
      const n = imm(a, e);
      if (n < 1) {
        const s = a!.span;
        throw new LineError(
          diag('LT3021', s, {
            what: `a barrier member count must be positive, not ${n}`,
            fix: 'give the number of waves that arrive (≥ 1)',
          }),
        );
      }
      return n;
    };
    const none = (): void => {
      if (dst) this.noDst(dst, 'this barrier intrinsic');
    };
    // seeds/001, table "s_barrier IDs GFX12": ids -4 … 16; -2 and -4 are the trap barriers, "only
    // available in privileged execution mode (not accessible by the shader)".
    const barrierId = (a: CallArg | undefined, e: string): number => {
      const id = imm(a, e);
      const what =
        id === -2 || id === -4
          ? `barrier id ${id} is the ${id === -2 ? 'workgroup' : 'cluster'} trap barrier, which shaders cannot use`
          : id < -4 || id > 16
            ? `barrier id ${id} does not exist (ids are -4 to 16)`
            : null;
      if (what) throw new LineError(diag('LT3022', a!.span, { what }));
      return id;
    };
    switch (name) {
      case 'llvm.amdgcn.s.barrier':
        none();
        if (args.length !== 0) argErr('none');
        return { ...base, op: 'barrier' };
      case 'llvm.amdgcn.s.barrier.signal':
        none();
        if (args.length !== 1) argErr('i32 <barrier id>');
        return { ...base, op: 'signal', id: barrierId(args[0], 'i32 <barrier id>') };
      case 'llvm.amdgcn.s.barrier.signal.isfirst':
        if (args.length !== 1) argErr('i32 <barrier id>');
        return {
          ...base,
          op: 'signal_isfirst',
          id: barrierId(args[0], 'i32 <barrier id>'),
          dst: dst?.text ?? null,
        };
      case 'llvm.amdgcn.s.barrier.wait':
        none();
        if (args.length !== 1) argErr('i16 <barrier id>');
        return { ...base, op: 'wait', id: barrierId(args[0], 'i16 <barrier id>') };
      case 'llvm.amdgcn.s.barrier.leave':
        none();
        if (args.length !== 1) argErr('i16 <barrier id>');
        return { ...base, op: 'leave', id: barrierId(args[0], 'i16 <barrier id>') };
      case 'llvm.amdgcn.s.barrier.init':
        none();
        if (args.length !== 2) argErr('ptr addrspace(3) @bar, i32 <count>');
        return {
          ...base,
          op: 'init',
          object: obj(args[0], 'ptr addrspace(3) @bar, i32 <count>'),
          count: count(args[1], 'ptr addrspace(3) @bar, i32 <count>'),
        };
      case 'llvm.amdgcn.s.barrier.signal.var':
        none();
        if (args.length !== 2) argErr('ptr addrspace(3) @bar, i32 <count>');
        return {
          ...base,
          op: 'signal_var',
          object: obj(args[0], 'ptr addrspace(3) @bar, i32 <count>'),
          count: count(args[1], 'ptr addrspace(3) @bar, i32 <count>'),
        };
      case 'llvm.amdgcn.s.barrier.join':
        none();
        if (args.length !== 1) argErr('ptr addrspace(3) @bar');
        return { ...base, op: 'join', object: obj(args[0], 'ptr addrspace(3) @bar') };
      default:
        return null;
    }
  }

  private parseCallArg(c: Cursor, access: LocUse['access']): CallArg {
    const t = c.peek();
    if (t.kind === 'ident' && t.text === 'metadata') {
      c.next();
      const m = c.next();
      if (m.kind === 'metaString') return { kind: 'scope', name: m.text, span: m.span };
      if (m.kind === 'meta') {
        const def = this.metaDefs.get(m.text);
        if (def && def.strings.length === 1) return { kind: 'scope', name: def.strings[0]!, span: m.span };
        throw new LineError(diag('LT3013', m.span, { name: m.text }));
      }
      throw new LineError(
        diag('LT2003', m.span, { expected: 'a metadata string such as !"agent"', found: describe(m) }),
      );
    }
    if (t.kind === 'ident' && t.text === 'ptr') {
      const ptr = this.parsePtr(c, access);
      return { kind: 'ptr', ptr, span: this.uses[this.uses.length - 1]!.span };
    }
    const type = this.parseType(c);
    const vt = c.peek();
    const value = this.parseOperand(c);
    return { kind: 'value', type, value, span: vt.span };
  }

  /**
   * A pointer operand: `ptr [addrspace(N)] @x`, the constant expression
   * `ptr addrspacecast (ptr addrspace(N) @x to ptr)`, or a typed pointer `i32 addrspace(N)* @x`.
   */
  private parsePtr(c: Cursor, access: LocUse['access']): PtrRef {
    const t = c.next();
    let space: AddressSpace;
    if (t.kind === 'ident' && t.text === 'ptr') {
      space = this.parsePtrSpace(c);
    } else if (t.kind === 'ident' && /^i\d+$/.test(t.text)) {
      space = this.parsePtrSpace(c);
      c.expectPunct('*');
    } else {
      throw new LineError(
        diag('LT2003', t.span, { expected: 'a pointer operand (ptr addrspace(N) @x)', found: describe(t) }),
      );
    }
    if (c.isIdent('addrspacecast')) {
      c.next();
      c.expectPunct('(');
      const inner = c.next();
      if (inner.text !== 'ptr')
        throw new LineError(diag('LT2003', inner.span, { expected: 'ptr', found: describe(inner) }));
      const innerSpace = this.parsePtrSpace(c);
      const g = c.next();
      if (g.kind !== 'global')
        throw new LineError(diag('LT2003', g.span, { expected: 'a location @x', found: describe(g) }));
      const to = c.next();
      if (to.text !== 'to')
        throw new LineError(diag('LT2003', to.span, { expected: "'to'", found: describe(to) }));
      const ptrTok = c.next();
      if (ptrTok.text !== 'ptr')
        throw new LineError(diag('LT2003', ptrTok.span, { expected: 'ptr', found: describe(ptrTok) }));
      const outer = this.parsePtrSpace(c);
      c.expectPunct(')');
      if (outer !== space) {
        throw new LineError(
          diag('LT2003', ptrTok.span, {
            expected: `the cast to produce the operand's type (${space})`,
            found: outer,
          }),
        );
      }
      this.uses.push({
        loc: g.text,
        space,
        declaredVia: innerSpace,
        thread: this.threadName,
        span: g.span,
        access,
      });
      return { loc: g.text, space };
    }
    const g = c.next();
    if (g.kind !== 'global') {
      throw new LineError(
        diag('LT2003', g.span, {
          expected: 'a location @x (pointers in registers are not supported)',
          found: describe(g),
        }),
      );
    }
    this.uses.push({ loc: g.text, space, declaredVia: null, thread: this.threadName, span: g.span, access });
    return { loc: g.text, space };
  }

  private parsePtrSpace(c: Cursor): AddressSpace {
    if (!c.isIdent('addrspace')) return 'generic';
    const tok = c.peek();
    const n = this.parseAddrspace(c);
    const s = SPACE_BY_NUMBER[n];
    if (n === REGION_ADDRSPACE) throw new LineError(diag('LT2023', tok.span, {}));
    if (!s) throw new LineError(diag('LT2016', tok.span, { n: String(n) }));
    return s;
  }

  private parseAddrspace(c: Cursor): number {
    c.next();
    c.expectPunct('(');
    const n = c.next();
    if (n.kind !== 'int')
      throw new LineError(
        diag('LT2003', n.span, { expected: 'an address space number', found: describe(n) }),
      );
    c.expectPunct(')');
    return this.intValue(n);
  }

  /** Types are kept as written (normalised spacing); values are integers whatever the type. */
  private parseType(c: Cursor): IrType {
    const t = c.next();
    if (t.kind === 'ident' && /^i\d+$/.test(t.text)) {
      const bits = Number(t.text.slice(1));
      if (bits < 1 || bits > 128) throw new LineError(diag('LT2009', t.span, { name: t.text }));
      return t.text;
    }
    if (t.kind === 'ident' && t.text === 'void') return 'void';
    if (t.kind === 'ident' && t.text === 'ptr') {
      const s = this.parsePtrSpace(c);
      return s === 'generic' ? 'ptr' : `ptr addrspace(${addrspaceNumber(s)})`;
    }
    if (t.kind === 'punct' && t.text === '<') {
      const n = c.next();
      const x = c.next();
      if (n.kind !== 'int' || x.text !== 'x') throw new LineError(diag('LT2009', t.span, { name: '<…>' }));
      const elem = this.nested(t, () => this.parseType(c));
      c.expectPunct('>');
      return `<${n.text} x ${elem}>`;
    }
    if (t.kind === 'punct' && t.text === '{') {
      const parts: string[] = [];
      for (;;) {
        parts.push(this.nested(t, () => this.parseType(c)));
        const sep = c.next();
        if (sep.text === '}') break;
        if (sep.text !== ',')
          throw new LineError(diag('LT2003', sep.span, { expected: "',' or '}'", found: describe(sep) }));
      }
      return `{ ${parts.join(', ')} }`;
    }
    if (t.kind === 'ident' && t.text === 'target') {
      c.expectPunct('(');
      const s = c.next();
      if (s.kind !== 'string' || s.text !== 'amdgcn.named.barrier')
        throw new LineError(diag('LT2009', s.span, { name: `target(${s.text})` }));
      const parts = [`"${s.text}"`];
      while (c.peek().text === ',') {
        c.next();
        const n = c.next();
        if (n.kind !== 'int')
          throw new LineError(diag('LT2003', n.span, { expected: 'an integer', found: describe(n) }));
        parts.push(n.text);
      }
      c.expectPunct(')');
      return `target(${parts.join(', ')})`;
    }
    throw new LineError(diag('LT2009', t.span, { name: t.text }));
  }

  private parseOperand(c: Cursor): Operand {
    const t = c.next();
    if (t.kind === 'int') return { kind: 'const', value: this.intValue(t) };
    if (t.kind === 'ident' && (t.text === 'true' || t.text === 'false'))
      return { kind: 'const', value: t.text === 'true' ? 1 : 0 };
    if (t.kind === 'local') {
      const r = this.regs.get(t.text);
      if (!r) throw new LineError(diag('LT3005', t.span, { name: t.text, thread: this.threadName }));
      return { kind: 'reg', name: t.text };
    }
    throw new LineError(
      diag('LT2003', t.span, { expected: 'an integer or a register %r', found: describe(t) }),
    );
  }

  private intValue(t: Token): number {
    const neg = t.text.startsWith('-');
    const body = neg ? t.text.slice(1) : t.text;
    const v =
      body.startsWith('0x') || body.startsWith('0X') ? Number.parseInt(body.slice(2), 16) : Number(body);
    if (!Number.isSafeInteger(v)) throw new LineError(diag('LT2017', t.span, { text: t.text }));
    return neg ? -v : v;
  }

  // ---------------------------------------------------------------- condition

  private parseCondition(toks: Token[], line: Line): void {
    const c = new Cursor(toks, line, this.file);
    const q = c.next();
    let quantifier: Quantifier;
    if (q.text === 'exists') quantifier = 'exists';
    else if (q.text === 'forall') quantifier = 'forall';
    else if (q.text === '~exists') quantifier = 'not exists';
    else {
      c.next(); // `~ exists`
      quantifier = 'not exists';
    }
    if (this.condition) throw new LineError(diag('LT2019', q.span));
    const cond = this.parseOr(c);
    if (!c.atEnd()) {
      const t = c.peek();
      if (this.startsCondition([t])) throw new LineError(diag('LT2019', t.span));
      this.trailing(t);
    }
    this.condition = { quantifier, cond, span: q.span };
  }

  private parseOr(c: Cursor): Cond {
    const args = [this.parseAnd(c)];
    while (!c.atEnd() && c.peek().text === '\\/') {
      c.next();
      args.push(this.parseAnd(c));
    }
    return args.length === 1 ? args[0]! : { kind: 'or', args };
  }

  private parseAnd(c: Cursor): Cond {
    const args = [this.parseUnary(c)];
    while (!c.atEnd() && c.peek().text === '/\\') {
      c.next();
      args.push(this.parseUnary(c));
    }
    return args.length === 1 ? args[0]! : { kind: 'and', args };
  }

  private parseUnary(c: Cursor): Cond {
    const t = c.peek();
    if (t.text === '~' || (t.kind === 'ident' && t.text === 'not')) {
      c.next();
      return { kind: 'not', arg: this.nested(t, () => this.parseUnary(c)) };
    }
    if (t.text === '(') {
      c.next();
      const e = this.nested(t, () => this.parseOr(c));
      c.expectPunct(')');
      return e;
    }
    if (t.kind === 'ident' && (t.text === 'true' || t.text === 'false')) {
      c.next();
      return { kind: t.text };
    }
    const lhs = this.parseTerm(c);
    const opTok = c.next();
    let op: '==' | '!=';
    if (opTok.text === '==' || opTok.text === '=') op = '==';
    else if (opTok.text === '!=' || opTok.text === '<>') op = '!=';
    else
      throw new LineError(diag('LT2003', opTok.span, { expected: "'==' or '!='", found: describe(opTok) }));
    const rhs = this.parseCondValue(c);
    return { kind: 'cmp', op, lhs, rhs };
  }

  private parseTerm(c: Cursor): CondTerm {
    const t = c.next();
    if (t.kind === 'global') return { kind: 'mem', loc: t.text, thread: null, span: t.span };
    if (t.kind === 'ident' || t.kind === 'int') {
      // `P1:%r0`, `P1:r0` (herd habit), `1:%r0`, or `P1:@x`
      const thread = t.kind === 'int' ? `P${t.text}` : t.text;
      c.expectPunct(':');
      const r = c.next();
      const span: Span = { ...t.span, len: r.span.offset + r.span.len - t.span.offset };
      if (r.kind === 'local' || r.kind === 'ident') return { kind: 'reg', thread, reg: r.text, span };
      if (r.kind === 'global') return { kind: 'mem', loc: r.text, thread, span };
      throw new LineError(
        diag('LT2003', r.span, { expected: 'a register %r or a location @x', found: describe(r) }),
      );
    }
    throw new LineError(
      diag('LT2003', t.span, { expected: 'a condition term (P0:%r, @x, P0:@x)', found: describe(t) }),
    );
  }

  private parseCondValue(c: Cursor): CondValue {
    const t = c.next();
    if (t.kind === 'int') return { kind: 'int', value: this.intValue(t) };
    if (t.kind === 'ident' && (t.text === 'undef' || t.text === 'poison')) return { kind: 'undef' };
    if (t.kind === 'ident' && (t.text === 'true' || t.text === 'false'))
      return { kind: 'int', value: t.text === 'true' ? 1 : 0 };
    throw new LineError(diag('LT2003', t.span, { expected: 'an integer or undef', found: describe(t) }));
  }
}

type CallArg =
  | { kind: 'scope'; name: string; span: Span }
  | { kind: 'ptr'; ptr: PtrRef; span: Span }
  | { kind: 'value'; type: IrType; value: Operand; span: Span };

/** `""`/omitted → system; `agent`, `agent-one-as`, `one-as` (system, one address space) … */
export function parseScopeName(name: string): SyncScope | null {
  if (name === '') return { scope: 'system', oneAs: false };
  if (name === 'one-as') return { scope: 'system', oneAs: true };
  const oneAs = name.endsWith('-one-as');
  const base = oneAs ? name.slice(0, -'-one-as'.length) : name;
  if (base === 'system') return null; // LLVM spells system scope as "" or by omission
  if (!(SCOPES as readonly string[]).includes(base)) return null;
  return { scope: base as Scope, oneAs };
}

function addrspaceNumber(s: AddressSpace): number {
  return { generic: 0, global: 1, local: 3, constant: 4, private: 5 }[s];
}

const INSTR_WORDS = new Set([
  'load',
  'store',
  'atomicrmw',
  'cmpxchg',
  'fence',
  'call',
  'tail',
  'icmp',
  'select',
  'extractvalue',
  ...BIN_OPS,
]);
function isInstrWord(w: string): boolean {
  return INSTR_WORDS.has(w);
}

/**
 * Lines of a pasted LLVM module that carry nothing for a litmus test and are skipped: at top level
 * `target …`, `source_filename`, `declare …`, `attributes #N = …`; in a thread body `ret void`
 * and basic-block labels (`entry:`).
 */
function isPastedNoise(toks: Token[], where: 'top' | 'body'): boolean {
  const f = toks[0]!;
  if (f.kind !== 'ident' && !(f.kind === 'int' && where === 'body')) return false;
  if (where === 'top') return ['target', 'source_filename', 'declare', 'attributes'].includes(f.text);
  if (f.text === 'ret' && (toks.length === 1 || (toks.length === 2 && toks[1]!.text === 'void'))) return true;
  return toks.length === 2 && toks[1]!.kind === 'punct' && toks[1]!.text === ':';
}

function describe(t: Token | undefined): string {
  if (!t) return 'the end of the line';
  switch (t.kind) {
    case 'global':
      return `'@${t.text}'`;
    case 'local':
      return `'%${t.text}'`;
    case 'meta':
      return `'!${t.text}'`;
    case 'metaString':
      return `'!"${t.text}"'`;
    case 'string':
      return `"${t.text}"`;
    default:
      return `'${t.text}'`;
  }
}

/** Reading position within one line's (or the condition's) tokens. */
class Cursor {
  private i = 0;
  constructor(
    private readonly toks: Token[],
    private readonly line: Line,
    private readonly file: string,
  ) {}

  atEnd(): boolean {
    return this.i >= this.toks.length;
  }

  /** The span just past the last token, for "expected X, found the end of the line". */
  endSpan(): Span {
    const last = this.toks[this.toks.length - 1];
    if (last)
      return {
        ...last.span,
        offset: last.span.offset + last.span.len,
        col: last.span.col + last.span.len,
        len: 0,
      };
    return { file: this.file, offset: this.line.offset, line: this.line.line, col: 1, len: 0 };
  }

  /** The next token, or an "end of line" marker token (kind punct, text '') when none is left. */
  peek(): Token {
    return this.toks[this.i] ?? { kind: 'punct', text: '', span: this.endSpan() };
  }

  next(): Token {
    const t = this.toks[this.i];
    if (!t)
      throw new LineError(
        diag('LT2003', this.endSpan(), { expected: 'more input', found: 'the end of the line' }),
      );
    this.i++;
    return t;
  }

  prevSpan(): Span {
    return this.toks[Math.max(0, this.i - 1)]!.span;
  }

  isIdent(text: string): boolean {
    const t = this.toks[this.i];
    return t?.kind === 'ident' && t.text === text;
  }

  peekIdentIn(words: string[]): boolean {
    const t = this.toks[this.i];
    return t?.kind === 'ident' && words.includes(t.text);
  }

  eatIdent(text: string): boolean {
    if (!this.isIdent(text)) return false;
    this.i++;
    return true;
  }

  expectPunct(p: string): void {
    const t = this.toks[this.i];
    if (!t || t.text !== p || (t.kind !== 'punct' && t.kind !== 'op')) {
      throw new LineError(
        diag('LT2003', t ? t.span : this.endSpan(), { expected: `'${p}'`, found: describe(t) }),
      );
    }
    this.i++;
  }

  expectEnd(): void {
    const t = this.toks[this.i];
    if (t) throw new LineError(diag('LT2010', t.span, { found: describe(t) }));
  }
}
