/**
 * The litmus editor (CodeMirror 6). Colouring comes from gpumm's own lexer (src/syntax/lexer.ts)
 * and the squiggles from its parser, run on every edit: the editor shows exactly what
 * `gpumm parse` would say, at the same line and column.
 */
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { type Diagnostic as CmDiagnostic, forceLinting, linter, lintGutter } from '@codemirror/lint';
import { EditorState, type Extension, RangeSetBuilder } from '@codemirror/state';
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
import { ORDERINGS, RMW_OPS, SCOPES } from '../../src/core/types.ts';
import { lex } from '../../src/syntax/lexer.ts';
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

function decorate(text: string): DecorationSet {
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

const highlighter = ViewPlugin.fromClass(
  class {
    decorations: DecorationSet;
    constructor(view: EditorView) {
      this.decorations = decorate(view.state.doc.toString());
    }
    update(u: ViewUpdate) {
      if (u.docChanged) this.decorations = decorate(u.state.doc.toString());
    }
  },
  { decorations: (v) => v.decorations },
);

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
  extra: Extension[] = [],
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
        keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
        highlighter,
        lintGutter(),
        linter((view) => check(view.state.doc.toString()).map((d) => toCm(d, view.state.doc.length)), {
          delay: 120,
        }),
        EditorView.updateListener.of((u) => {
          if (u.docChanged) onChange(u.state.doc.toString());
        }),
        EditorView.theme({ '&': { height: '100%' }, '.cm-scroller': { fontFamily: 'var(--mono)' } }),
        ...extra,
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
