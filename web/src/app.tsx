/**
 * The gpumm explorer: write or pick a litmus test, run it under a model in a Web Worker, and look
 * at its final states, its executions, its machine code and the hardware check.
 */
import type { EditorView } from '@codemirror/view';
import { render } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { DEFAULT_MAX_STATES, PROGRESS_MS } from '../../src/enumerate/limits.ts';
import { detectSyntax, type Syntax } from '../../src/run/syntaxes.ts';
import { DEFAULT_UNROLL } from '../../src/vulkan/paths.ts';
import { HardwareCheck } from './check.tsx';
import { EngineClient } from './client.ts';
import { type LlcStatus, MachineCode } from './code.tsx';
import { createEditor, relint, setText } from './editor.ts';
import { modelInfos, targetInfos } from './engine/choices.ts';
import { shownDiagnostics, TEST_FILE } from './engine/diagnostics.ts';
import type {
  EditorDiagnostic,
  Language,
  ModelChoice,
  RunResult,
  RunSettings,
  TargetsChoice,
} from './engine/protocol.ts';
import { Executions } from './executions.tsx';
import { Results } from './results.tsx';
import { decodeShare, encodeShare, settingsFromParams, settingsParams } from './share.ts';
import './style.css';

interface CatalogueEntry {
  file: string;
  name: string;
  description: string;
  /** The folder it comes from (`litmus`, `litmus-vulkan`, `corpus/vulkan-dat3m`) and its title. */
  group: string;
  groupTitle: string;
}

/** How the page names a syntax, and the language of its tests. */
const SYNTAX_WORDS: Record<Syntax, { name: string; language: Language }> = {
  gpumm: { name: "gpumm's syntax", language: 'AMDGPU' },
  dat3m: { name: "Dartagnan's Vulkan syntax", language: 'Vulkan' },
  khronos: { name: 'the Khronos .test format', language: 'Vulkan' },
};

/** A catalogue file as its option names it: without the group's folder and the extension. */
function shortName(e: CatalogueEntry): string {
  return e.file.startsWith(`${e.group}/`) && e.group !== 'litmus'
    ? e.file.slice(e.group.length + 1).replace(/\.litmus$/, '')
    : e.file.replace(/\.litmus$/, '');
}

const USER_CAT = 'user-cat';
const DEFAULT_FILE = 'MP+rel+acq.agent.litmus';
const STARTER_CAT =
  '"my model"\n(* herd7 cat; docs/cat.md. Start from an include: *)\ninclude "amdgpu.cat"\n';

type RunState =
  | { kind: 'idle' }
  | {
      kind: 'running';
      started: number;
      progress: { phase?: 'search' | 'listing'; fraction: number; states: number; executions: number } | null;
    }
  | { kind: 'done'; result: RunResult; ms: number }
  | { kind: 'diagnostics'; diagnostics: EditorDiagnostic[] }
  | { kind: 'error'; message: string };

type Tab = 'results' | 'executions' | 'code' | 'check';

function DiagnosticList({ ds, title }: { ds: EditorDiagnostic[]; title: string }) {
  if (ds.length === 0) return null;
  return (
    <div class="diagnostics" data-testid="diagnostics">
      <b>{title}</b>
      <ul>
        {ds.map((d) => (
          <li key={`${d.line}:${d.col}:${d.code}`} class={d.severity}>
            <span class="where" data-testid="diag-where">
              {d.line}:{d.col}
            </span>{' '}
            <span class="code">{d.code}</span> {d.message}
            {d.hint && <div class="hint">hint: {d.hint}</div>}
          </li>
        ))}
      </ul>
    </div>
  );
}

function App() {
  const client = useMemo(() => new EngineClient(), []);
  const targets = useMemo(() => targetInfos(), []);
  const editorBox = useRef<HTMLDivElement>(null);
  const catBox = useRef<HTMLDivElement>(null);
  const editor = useRef<EditorView | null>(null);
  const catEditor = useRef<EditorView | null>(null);
  const [text, setTextState] = useState('');
  const [catText, setCatText] = useState(STARTER_CAT);
  const [catalogue, setCatalogue] = useState<CatalogueEntry[]>([]);
  // The catalogue test loaded last and its text: once the editor's text differs, the test is the
  // user's own, and choosing that catalogue entry again loads it afresh.
  const [picked, setPicked] = useState({ file: '', text: '' });
  const [model, setModel] = useState('amdgpu');
  const [settings, setSettings] = useState<RunSettings>({
    noThinAir: true,
    valueRules: 'literal',
    observe: 'all',
    vulkan: { unroll: DEFAULT_UNROLL, chains: true, fr: 'dartagnan', deviceScope: 'system' },
  });
  const [budgets, setBudgets] = useState({ timeoutS: 60, maxExecutions: 0, maxStates: DEFAULT_MAX_STATES });
  const [run, setRun] = useState<RunState>({ kind: 'idle' });
  const [tab, setTab] = useState<Tab>('results');
  const [choice, setChoice] = useState<TargetsChoice>({
    targets: ['gfx1200'],
    mode: 'wgp',
    lang: 'hsa',
    tgsplit: false,
  });
  const [llc, setLlc] = useState<LlcStatus | null>(null);
  const [shared, setShared] = useState(false);
  const [, tickClock] = useState(0);
  // Diagnostics the last run found (the model's, a pasted cat file's), shown while the text is unchanged.
  const runDiags = useRef<{
    text: string;
    catText: string;
    test: EditorDiagnostic[];
    cat: EditorDiagnostic[];
  }>({
    text: '',
    catText: '',
    test: [],
    cat: [],
  });

  // The editor's first text is on its way (the catalogue's test, or a shared one): the empty
  // document is no test to diagnose (its LT2001 flashed in the gutter until the text arrived).
  const loaded = useRef(false);

  // Editors, the catalogue, a shared test from the URL, llc-22's status.
  useEffect(() => {
    const ed = createEditor(
      editorBox.current!,
      '',
      (t) => (loaded.current ? shownDiagnostics(t, runDiags.current) : []),
      setTextState,
      'litmus',
      clickRun,
    );
    editor.current = ed;
    (async () => {
      const fromUrl = await decodeShare(location.hash);
      const list: CatalogueEntry[] = await fetch('catalogue/index.json')
        .then((r) => (r.ok ? r.json() : []))
        .catch(() => []);
      setCatalogue(list);
      if (fromUrl) {
        loaded.current = true;
        setText(ed, fromUrl.text);
        const p = fromUrl.params;
        if (p.model && (modelInfos().some((m) => m.name === p.model) || p.model === USER_CAT))
          setModel(p.model);
        if (p.cat) setCatText(p.cat);
        const known = (p.target ?? '').split(',').filter((n) => targets.some((t) => t.name === n));
        if (known.length > 0)
          setChoice((c) => ({
            ...c,
            targets: known,
            mode: p.mode === 'cu' ? 'cu' : 'wgp',
            lang: p.lang === 'opencl' ? 'opencl' : 'hsa',
            tgsplit: p.tgsplit === '1',
          }));
        if (p.tab === 'executions' || p.tab === 'code' || p.tab === 'check') setTab(p.tab);
        setSettings((s) => settingsFromParams(p, s));
      } else {
        const file = list.some((e) => e.file === DEFAULT_FILE) ? DEFAULT_FILE : list[0]?.file;
        if (file) await load(file);
        loaded.current = true;
        relint(ed);
      }
    })();
    fetch('api/llc')
      .then((r) => r.json())
      .then((s: LlcStatus) => setLlc(s))
      .catch(() => setLlc({ available: false, reason: 'no server to run llc-22' }));
    return () => ed.destroy();
  }, []);

  useEffect(() => {
    if (model !== USER_CAT || !catBox.current || catEditor.current) return;
    catEditor.current = createEditor(
      catBox.current,
      catText,
      (t) => (t === runDiags.current.catText ? runDiags.current.cat : []),
      setCatText,
      'cat',
      clickRun,
    );
  }, [model]);

  // The elapsed time of a run in progress (the bar appears after PROGRESS_MS).
  useEffect(() => {
    if (run.kind !== 'running') return;
    const t = setInterval(() => tickClock((n) => n + 1), 100);
    return () => clearInterval(t);
  }, [run.kind]);

  async function load(file: string) {
    const res = await fetch(`catalogue/${file.split('/').map(encodeURIComponent).join('/')}`);
    if (res.ok && editor.current) {
      const loaded = await res.text();
      setPicked({ file, text: loaded });
      setText(editor.current, loaded);
      setRun({ kind: 'idle' });
    }
  }

  async function start() {
    const current = editor.current!.state.doc.toString();
    const m: ModelChoice =
      model === 'amdgpu' || model === 'vulkan'
        ? { kind: model }
        : model === USER_CAT
          ? { kind: 'user-cat', text: catText }
          : { kind: 'cat', name: model };
    setRun({ kind: 'running', started: performance.now(), progress: null });
    const t0 = performance.now();
    const r = await client.request(
      {
        kind: 'run',
        text: current,
        model: m,
        settings,
        budgets: {
          timeoutMs: budgets.timeoutS * 1000,
          maxExecutions: budgets.maxExecutions > 0 ? budgets.maxExecutions : Number.POSITIVE_INFINITY,
          maxStates: budgets.maxStates,
        },
      },
      (p) => setRun((s) => (s.kind === 'running' ? { ...s, progress: p } : s)),
    );
    if (r.kind === 'run') {
      runDiags.current = { text: current, catText, test: [], cat: [] };
      setRun({ kind: 'done', result: r.result, ms: performance.now() - t0 });
    } else if (r.kind === 'diagnostics') {
      runDiags.current = {
        text: current,
        catText,
        test: r.diagnostics.filter((d) => d.source === 'test'),
        cat: r.diagnostics.filter((d) => d.source === 'cat'),
      };
      setRun({ kind: 'diagnostics', diagnostics: r.diagnostics });
    } else if (r.kind === 'error' && r.message === 'cancelled') setRun({ kind: 'idle' });
    else setRun({ kind: 'error', message: r.kind === 'error' ? r.message : 'unexpected answer' });
    relint(editor.current!);
    if (catEditor.current) relint(catEditor.current);
  }

  function setVulkan(v: Partial<RunSettings['vulkan']>) {
    setSettings((s) => ({ ...s, vulkan: { ...s.vulkan, ...v } }));
  }

  function cancel() {
    client.cancel();
    setRun({ kind: 'idle' });
  }

  async function share() {
    const params: Record<string, string> = {
      model,
      target: choice.targets.join(','),
      mode: choice.mode,
      lang: choice.lang,
      tgsplit: choice.tgsplit ? '1' : '0',
      tab,
      ...settingsParams(settings),
    };
    if (model === USER_CAT) params.cat = catText;
    const hash = await encodeShare({ text: editor.current!.state.doc.toString(), params });
    history.replaceState(null, '', hash);
    try {
      await navigator.clipboard.writeText(location.href);
    } catch {
      // The address bar has it anyway.
    }
    setShared(true);
    setTimeout(() => setShared(false), 2000);
  }

  const elapsed = run.kind === 'running' ? performance.now() - run.started : 0;
  const edited = picked.file !== '' && text !== picked.text;
  const result = run.kind === 'done' ? run.result : null;
  const syntax = detectSyntax(text, TEST_FILE);
  const testLanguage = SYNTAX_WORDS[syntax].language;
  const models = modelInfos();
  const modelLanguage = models.find((m) => m.name === model)?.language ?? testLanguage;
  const pickedEntry = catalogue.find((c) => c.file === picked.file);
  const groups = [...new Set(catalogue.map((c) => c.group))];
  return (
    <div class="app">
      <header>
        <h1>
          gpumm <span>explorer</span>
        </h1>
        <label>
          test{' '}
          <select
            value={edited ? '' : picked.file}
            onChange={(e) => load(e.currentTarget.value)}
            data-testid="catalogue"
          >
            <option value="" disabled>
              {edited && pickedEntry
                ? `${shortName(pickedEntry)} (edited)`
                : `catalogue (${catalogue.length})`}
            </option>
            {groups.map((g) => (
              <optgroup key={g} label={catalogue.find((c) => c.group === g)!.groupTitle}>
                {catalogue
                  .filter((c) => c.group === g)
                  .map((c) => (
                    <option key={c.file} value={c.file} title={c.description}>
                      {shortName(c)}
                    </option>
                  ))}
              </optgroup>
            ))}
          </select>
        </label>
        <label>
          model{' '}
          <select value={model} onChange={(e) => setModel(e.currentTarget.value)} data-testid="model">
            {(['AMDGPU', 'Vulkan'] as const).map((lang) => (
              <optgroup key={lang} label={`${lang} model`}>
                {models
                  .filter((m) => m.language === lang)
                  .map((m) => (
                    <option key={m.name} value={m.name}>
                      {m.name} ({m.fast ? 'fast search' : 'cat'})
                    </option>
                  ))}
              </optgroup>
            ))}
            <option value={USER_CAT}>your cat file…</option>
          </select>
        </label>
        <button
          type="button"
          class="primary"
          onClick={start}
          disabled={run.kind === 'running'}
          data-testid="run"
        >
          ▶ Run
        </button>
        <button type="button" onClick={cancel} disabled={run.kind !== 'running'} data-testid="cancel">
          Cancel
        </button>
        <button type="button" onClick={share} data-testid="share">
          {shared ? 'Link copied' : 'Share link'}
        </button>
      </header>
      <main>
        <section class="left">
          <div class="editor" ref={editorBox} data-testid="editor" />
          <div class="syntax-line" data-testid="syntax">
            {SYNTAX_WORDS[syntax].name} ({testLanguage} test)
            {model !== USER_CAT && modelLanguage !== testLanguage && (
              <span class="translated" data-testid="translated-note">
                {' '}
                · the {model} model runs its {modelLanguage} translation, as{' '}
                <code>gpumm run --model {model}</code> does
              </span>
            )}
          </div>
          <DiagnosticList ds={shownDiagnostics(text, runDiags.current)} title="Problems in the test" />
          {model === USER_CAT && (
            <div class="cat-model">
              <b>Your cat model</b>{' '}
              <span class="muted">(includes come from gpumm's models/: amdgpu.cat, rc11.cat …)</span>
              <div class="editor small" ref={catBox} data-testid="cat-editor" />
              {run.kind === 'diagnostics' && (
                <DiagnosticList
                  ds={catText === runDiags.current.catText ? runDiags.current.cat : []}
                  title="Problems in the cat file"
                />
              )}
            </div>
          )}
          <details class="settings">
            <summary>Model options and budgets</summary>
            <label>
              <input
                type="checkbox"
                checked={settings.noThinAir}
                onChange={() => setSettings({ ...settings, noThinAir: !settings.noThinAir })}
              />{' '}
              no-thin-air axiom
            </label>
            <label>
              value rules{' '}
              <select
                value={settings.valueRules}
                onChange={(e) =>
                  setSettings({ ...settings, valueRules: e.currentTarget.value as 'literal' | 'repaired' })
                }
              >
                <option value="literal">literal (the spec)</option>
                <option value="repaired">repaired (docs/model.md)</option>
              </select>
            </label>
            <label>
              states show{' '}
              <select
                value={settings.observe}
                onChange={(e) =>
                  setSettings({ ...settings, observe: e.currentTarget.value as 'all' | 'condition' })
                }
              >
                <option value="all">every register read</option>
                <option value="condition">the condition's terms</option>
              </select>
            </label>
            <label>
              timeout (s){' '}
              <input
                type="number"
                min={1}
                value={budgets.timeoutS}
                onChange={(e) =>
                  setBudgets({ ...budgets, timeoutS: Math.max(1, Number(e.currentTarget.value) || 1) })
                }
              />
            </label>
            <label>
              max executions (0: none){' '}
              <input
                type="number"
                min={0}
                value={budgets.maxExecutions}
                onChange={(e) =>
                  setBudgets({ ...budgets, maxExecutions: Math.max(0, Number(e.currentTarget.value) || 0) })
                }
              />
            </label>
            <label>
              max states{' '}
              <input
                type="number"
                min={1}
                value={budgets.maxStates}
                onChange={(e) =>
                  setBudgets({ ...budgets, maxStates: Math.max(1, Number(e.currentTarget.value) || 1) })
                }
              />
            </label>
            <b class="settings-head">Vulkan tests</b>
            <label title="--unroll">
              loop iterations (--unroll){' '}
              <input
                type="number"
                min={0}
                value={settings.vulkan.unroll}
                onChange={(e) =>
                  setVulkan({ unroll: Math.max(0, Math.floor(Number(e.currentTarget.value) || 0)) })
                }
              />
            </label>
            <label>
              <input
                type="checkbox"
                checked={settings.vulkan.chains}
                onChange={() => setVulkan({ chains: !settings.vulkan.chains })}
              />{' '}
              availability/visibility chains of several elements
            </label>
            <label>
              from-reads{' '}
              <select
                value={settings.vulkan.fr}
                onChange={(e) => setVulkan({ fr: e.currentTarget.value as 'dartagnan' | 'literal' })}
              >
                <option value="dartagnan">as Dartagnan (docs/model-vulkan.md)</option>
                <option value="literal">literal</option>
              </select>
            </label>
            <label title="--device-scope: the AMDGPU scope of Vulkan's Device scope in a translation">
              Device scope as{' '}
              <select
                value={settings.vulkan.deviceScope}
                onChange={(e) => setVulkan({ deviceScope: e.currentTarget.value as 'system' | 'agent' })}
                data-testid="device-scope"
              >
                <option value="system">system</option>
                <option value="agent">agent</option>
              </select>
            </label>
          </details>
        </section>
        <section class="right">
          <nav class="tabs">
            {(
              [
                ['results', 'Results'],
                ['executions', 'Executions'],
                ['code', 'Machine code'],
                ['check', 'Hardware check'],
              ] as [Tab, string][]
            ).map(([k, label]) => (
              <button
                type="button"
                key={k}
                class={tab === k ? 'active' : ''}
                onClick={() => setTab(k)}
                data-testid={`tab-${k}`}
              >
                {label}
              </button>
            ))}
          </nav>
          <div class="panel">
            {run.kind === 'running' && elapsed > PROGRESS_MS && (
              <div class="progress" data-testid="progress">
                <div class="track">
                  <div
                    class="fill"
                    style={{ width: `${Math.round(100 * (run.progress?.fraction ?? 0))}%` }}
                  />
                </div>
                <span>
                  {(elapsed / 1000).toFixed(1)} s ·{' '}
                  {run.progress?.phase === 'listing'
                    ? `listing candidates: ${run.progress.executions} so far`
                    : `${run.progress?.states ?? 0} states · ${run.progress?.executions ?? 0} executions · ${Math.round(100 * (run.progress?.fraction ?? 0))}% of the search`}
                </span>
                <button type="button" onClick={cancel}>
                  Cancel
                </button>
              </div>
            )}
            {run.kind === 'error' && <p class="error">{run.message}</p>}
            {run.kind === 'diagnostics' && (
              <p class="error">The test cannot run: see the problems under the editor.</p>
            )}
            {tab === 'results' &&
              (result ? (
                <Results r={result} />
              ) : run.kind === 'idle' ? (
                <p class="note">Pick a test from the catalogue or write one, then Run (Ctrl-Enter).</p>
              ) : null)}
            {tab === 'executions' &&
              (result ? (
                <Executions run={result} client={client} />
              ) : (
                <p class="note">Run the test first.</p>
              ))}
            {tab === 'code' && (
              <MachineCode
                text={text}
                client={client}
                targets={targets}
                choice={choice}
                onChoice={setChoice}
                llc={llc}
                deviceScope={settings.vulkan.deviceScope}
              />
            )}
            {tab === 'check' && (
              <HardwareCheck
                text={text}
                client={client}
                targets={targets}
                vulkan={testLanguage === 'Vulkan'}
                deviceScope={settings.vulkan.deviceScope}
              />
            )}
          </div>
        </section>
      </main>
    </div>
  );
}

/** Ctrl-Enter (Cmd-Enter) anywhere runs the test, as the Run button does. */
function clickRun() {
  (document.querySelector('[data-testid=run]') as HTMLButtonElement | null)?.click();
}

document.addEventListener('keydown', (e) => {
  if (e.key === 'Enter' && (e.ctrlKey || e.metaKey) && !e.defaultPrevented) clickRun();
});

render(<App />, document.getElementById('app')!);
