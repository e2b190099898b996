/**
 * The litmus and cat editors (CodeMirror 6). Colouring comes from gpumm's own lexers
 * (src/syntax/lexer.ts; Dartagnan's Vulkan syntax: src/vulkan/lex.ts; the line-oriented Khronos
 * `.test` format: its words, as src/vulkan/khronos.ts splits them; src/cat/lexer.ts) for the syntax
 * the text is in (`detectSyntax`, as the CLI chooses it), and the squiggles from the parsers, run on
 * every edit: the editor shows exactly what `gpumm parse` would say, at the same line and column.
 */
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { type Diagnostic as CmDiagnostic, forceLinting, linter, lintGutter } from '@codemirror/lint';
import { EditorState, Prec, RangeSetBuilder } from '@codemirror/state';
import {
  Decoration,
  type DecorationSet,
  drawSelection,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  keymap,
  lineNumbers,
  ViewPlugin,
  type ViewUpdate,
} from '@codemirror/view';
import { lex as lexCat } from '../../src/cat/lexer.ts';
import { ORDERINGS, RMW_OPS, SCOPES } from '../../src/core/types.ts';
import { detectSyntax } from '../../src/run/syntaxes.ts';
import { lex } from '../../src/syntax/lexer.ts';
import { lexVulkan, Positions } from '../../src/vulkan/lex.ts';
import { TEST_FILE } from './engine/diagnostics.ts';
import type { EditorDiagnostic } from './engine/protocol.ts';

const ORDER_WORDS = new Set<string>(ORDERINGS);
const SCOPE_WORDS = new Set<string>([...SCOPES, 'cluster', 'device', 'host']);
const KEYWORDS = new Set([
  'AMDGPU',
  'load',
  'store',
  'atomic',
  'atomicrmw',
  'cmpxchg',
  'fence',
  'syncscope',
  'global',
  'addrspace',
  'ptr',
  'volatile',
  'weak',
  'call',
  'exists',
  'forall',
  'not',
  'expect',
  'add',
  'sub',
  'icmp',
  'select',
  'extractvalue',
  ...RMW_OPS,
]);

/** The class a token is coloured with. */
function tokenClass(kind: string, text: string): string | null {
  switch (kind) {
    case 'global':
      return 'tok-global';
    case 'local':
      return 'tok-register';
    case 'meta':
    case 'metaOpen':
    case 'metaString':
      return 'tok-meta';
    case 'string':
      return 'tok-string';
    case 'int':
      return 'tok-number';
    case 'op':
      return 'tok-op';
    case 'ident':
      if (ORDER_WORDS.has(text)) return 'tok-ordering';
      if (SCOPE_WORDS.has(text)) return 'tok-scope';
      if (/^i\d+$/.test(text)) return 'tok-type';
      if (/^P\d+$/.test(text)) return 'tok-thread';
      if (KEYWORDS.has(text)) return 'tok-keyword';
      return null;
    default:
      return null;
  }
}

function decorateAmdgpu(text: string): DecorationSet {
  const builder = new RangeSetBuilder<Decoration>();
  const { lines } = lex(text, 'editor');
  for (const line of lines) {
    let end = line.offset;
    for (const t of line.tokens) {
      const cls = tokenClass(t.kind, t.text);
      const from = t.span.offset;
      const to = Math.min(text.length, from + Math.max(t.span.len, 1));
      if (cls && to > from) builder.add(from, to, Decoration.mark({ class: cls }));
      end = Math.max(end, to);
    }
    // The lexer drops comments: what follows the last token from `;` or `//` on is one.
    const rest = line.text.slice(end - line.offset);
    const m = /;|\/\//.exec(rest);
    if (m) {
      const from = end + m.index;
      const to = line.offset + line.text.length;
      if (to > from) builder.add(from, to, Decoration.mark({ class: 'tok-comment' }));
    }
  }
  return builder.finish();
}

/** A coloured range of the text. */
interface Mark {
  from: number;
  to: number;
  cls: string;
}

/** Decorations of `marks` (sorted here; a mark overlapping an earlier one is dropped). */
function finishMarks(marks: Mark[], length: number): DecorationSet {
  marks.sort((a, b) => a.from - b.from || a.to - b.to);
  const builder = new RangeSetBuilder<Decoration>();
  let end = 0;
  for (const m of marks) {
    if (m.from < end || m.to > length || m.to <= m.from) continue;
    builder.add(m.from, m.to, Decoration.mark({ class: m.cls }));
    end = m.to;
  }
  return builder.finish();
}

/** Instruction mnemonics and directives of the Vulkan syntaxes (docs/vulkan-litmus.md). */
const VK_KEYWORDS = new Set([
  'ld',
  'st',
  'rmw',
  'membar',
  'cbar',
  'avdevice',
  'visdevice',
  'add',
  'sub',
  'mul',
  'and',
  'or',
  'xor',
  'goto',
  'beq',
  'bne',
  'blt',
  'ble',
  'bgt',
  'bge',
  'VULKAN',
  'Vulkan',
  'vulkan',
  'exists',
  'forall',
  'filter',
  'locations',
  'not',
  'ssw',
  'expect',
  'SATISFIABLE',
  'NOSOLUTION',
  'NOCHAINS',
  'SSW',
  'SLOC',
]);

/** The class of one dot-separated part of a Vulkan instruction word (`ld.atom.acq.wg.sc0`). */
function vkPartClass(part: string, first: boolean): string | null {
  if (first && VK_KEYWORDS.has(part)) return 'tok-keyword';
  if (/^(acq|rel|acq_rel)$/.test(part)) return 'tok-ordering';
  if (/^(sg|wg|qf|dv|scope(sg|wg|qf|dev))$/.test(part)) return 'tok-scope';
  if (/^(sem)?sc[0-3]$/.test(part)) return 'tok-meta';
  if (/^(atom|av|vis|nonpriv|semav|semvis)$/.test(part)) return 'tok-type';
  return null;
}

/** Marks for a word of a Vulkan test at `from`: its dot-separated parts, each by its class. */
function vkWordMarks(word: string, from: number, marks: Mark[]): void {
  if (/^P\d+$/.test(word) || /^NEW(QF|WG|SG|THREAD)$/.test(word)) {
    marks.push({ from, to: from + word.length, cls: 'tok-thread' });
    return;
  }
  if (/^-?\d+$/.test(word)) {
    marks.push({ from, to: from + word.length, cls: 'tok-number' });
    return;
  }
  if (/^r\d+$/.test(word)) {
    marks.push({ from, to: from + word.length, cls: 'tok-register' });
    return;
  }
  if (/^(consistent|racefree)\[X\]$/.test(word) || word.startsWith('#dr')) {
    marks.push({ from, to: from + word.length, cls: 'tok-keyword' });
    return;
  }
  let at = from;
  word.split('.').forEach((part, k) => {
    const cls = vkPartClass(part, k === 0);
    if (cls) marks.push({ from: at, to: at + part.length, cls });
    at += part.length + 1;
  });
}

/** Colouring of a test in Dartagnan's Vulkan syntax, from its lexer; `(* … *)` and `//` are comments. */
function decorateDat3m(text: string): DecorationSet {
  const marks: Mark[] = [];
  for (const t of lexVulkan(new Positions(text, TEST_FILE), 0).tokens) {
    const from = t.span.offset;
    const to = from + t.span.len;
    if (t.kind === 'word') vkWordMarks(text.slice(from, to), from, marks);
    else if (t.kind === 'int') marks.push({ from, to, cls: 'tok-number' });
    else if (t.kind === 'string') marks.push({ from, to, cls: 'tok-string' });
    else if (t.kind === 'op' || (t.kind === 'punct' && '~|'.includes(t.text)))
      marks.push({ from, to, cls: 'tok-op' });
  }
  for (const m of text.matchAll(/\(\*[\s\S]*?(\*\)|$)|\/\/[^\n]*/g))
    marks.push({ from: m.index, to: m.index + m[0].length, cls: 'tok-comment' });
  return finishMarks(marks, text.length);
}

/** Colouring of a Khronos `.test`, line by line as its parser reads it: `//` lines, then words. */
function decorateKhronos(text: string): DecorationSet {
  const marks: Mark[] = [];
  let offset = 0;
  for (const line of text.split('\n')) {
    const start = offset;
    offset += line.length + 1;
    const lead = line.length - line.trimStart().length;
    if (line.trimStart().startsWith('//')) {
      marks.push({ from: start + lead, to: start + line.length, cls: 'tok-comment' });
      continue;
    }
    for (const m of line.matchAll(/\S+/g)) {
      const w = m[0];
      const from = start + m.index;
      if (w === '=' || w === '&&' || w === '||' || w.startsWith('!'))
        marks.push({ from, to: from + w.length, cls: 'tok-op' });
      else vkWordMarks(w, from, marks);
    }
  }
  return finishMarks(marks, text.length);
}

/** Colouring of a test in whichever syntax it is written (as the CLI detects it). */
export function decorate(text: string): DecorationSet {
  switch (detectSyntax(text, TEST_FILE)) {
    case 'dat3m':
      return decorateDat3m(text);
    case 'khronos':
      return decorateKhronos(text);
    default:
      return decorateAmdgpu(text);
  }
}

/** Colouring of a cat model from gpumm's cat lexer (src/cat/lexer.ts); `(* … *)` are comments. */
export function decorateCat(text: string): DecorationSet {
  const marks: Mark[] = [];
  for (const t of lexCat(text, 'editor').tokens) {
    const cls =
      t.kind === 'keyword'
        ? 'tok-keyword'
        : t.kind === 'string'
          ? 'tok-string'
          : t.kind === 'punct'
            ? 'tok-op'
            : null;
    if (cls && t.span.len > 0) marks.push({ from: t.span.offset, to: t.span.offset + t.span.len, cls });
  }
  for (const m of text.matchAll(/\(\*[\s\S]*?(\*\)|$)/g))
    marks.push({ from: m.index, to: m.index + m[0].length, cls: 'tok-comment' });
  return finishMarks(marks, text.length);
}

/** A view plugin colouring the text with `decorateText`, recomputed on every edit. */
function highlighter(decorateText: (text: string) => DecorationSet) {
  return ViewPlugin.fromClass(
    class {
      decorations: DecorationSet;
      constructor(view: EditorView) {
        this.decorations = decorateText(view.state.doc.toString());
      }
      update(u: ViewUpdate) {
        if (u.docChanged) this.decorations = decorateText(u.state.doc.toString());
      }
    },
    { decorations: (v) => v.decorations },
  );
}

/** A diagnostic as CodeMirror's linter shows it: squiggle from the span, message and hint. */
export function toCm(d: EditorDiagnostic, docLength: number): CmDiagnostic {
  const from = Math.min(Math.max(0, d.offset), docLength);
  const to = Math.min(docLength, from + Math.max(1, d.len));
  return {
    from,
    to: Math.max(from, to),
    severity: d.severity,
    source: d.code,
    message: `${d.message}${d.hint ? `\nhint: ${d.hint}` : ''}`,
  };
}

/**
 * An editor over `parent`. `check` gives the diagnostics of a text (the parser's, and those a run
 * found); `onChange` hears every edit.
 */
export function createEditor(
  parent: HTMLElement,
  text: string,
  check: (text: string) => EditorDiagnostic[],
  onChange: (text: string) => void,
  language: 'litmus' | 'cat' = 'litmus',
  onRun: () => void = () => {},
): EditorView {
  return new EditorView({
    parent,
    state: EditorState.create({
      doc: text,
      extensions: [
        lineNumbers(),
        highlightActiveLineGutter(),
        highlightActiveLine(),
        history(),
        drawSelection(),
        // Ctrl-Enter runs (before the default keymap's "insert a blank line").
        Prec.highest(
          keymap.of([
            {
              key: 'Mod-Enter',
              run: () => {
                onRun();
                return true;
              },
            },
          ]),
        ),
        keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
        highlighter(language === 'cat' ? decorateCat : decorate),
        lintGutter(),
        linter((view) => check(view.state.doc.toString()).map((d) => toCm(d, view.state.doc.length)), {
          delay: 120,
        }),
        EditorView.updateListener.of((u) => {
          if (u.docChanged) onChange(u.state.doc.toString());
        }),
        EditorView.theme({ '&': { height: '100%' }, '.cm-scroller': { fontFamily: 'var(--mono)' } }),
      ],
    }),
  });
}

/** Replaces the editor's text. */
export function setText(view: EditorView, text: string): void {
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
}

/** Lints again now (after a run found model diagnostics). */
export function relint(view: EditorView): void {
  forceLinting(view);
}
