/**
 * The explorer's engine: what the page's Web Worker runs. It parses with the CLI's parser, runs the
 * CLI's searches (the fast AMDGPU search, cat models), lists candidate executions with the axiom
 * that rejects each, draws one with the CLI's `toDot` and explains it with the words of `--explain`,
 * lowers with the CLI's tables and checks with `gpumm check`'s machines. No DOM and no Node APIs:
 * the tests run it in Node, the page in a worker.
 */

import type { Model } from '../../../src/cat/ast.ts';
import {
  amdgpuFront,
  CatEnumeration,
  type CatVariant,
  compileFor,
  DEFAULT_CAT,
} from '../../../src/cat/enumerate.ts';
import { type IncludeReader, loadModel } from '../../../src/cat/load.ts';
import {
  catObserve,
  catRejection,
  forEachCatState,
  runCatSliced,
  variantsOf,
} from '../../../src/cat/report.ts';
import { type CheckResult, checkTest, docCode, unsupportedCheck } from '../../../src/check/check.ts';
import { CAT_MODELS } from '../../../src/cli/cat-models.ts';
import type { Test } from '../../../src/core/types.ts';
import { DEFAULT_ENUMERATE, Enumeration, prepareVariant } from '../../../src/enumerate/enumerate.ts';
import { explainWitness } from '../../../src/enumerate/explain.ts';
import {
  EDGE_KINDS,
  type EdgeKind,
  type Highlight,
  toDot,
  witnessParts,
} from '../../../src/enumerate/graph.ts';
import {
  evalCond,
  firstRace,
  type Observable,
  observables,
  observe,
  racePairs,
  type Truth,
  termLabel,
  termWidth,
} from '../../../src/enumerate/outcomes.ts';
import { type Report, stateText } from '../../../src/enumerate/report.ts';
import { MODEL_HINTS, modelDiagnostics, runTest, UNDECIDED_CODES } from '../../../src/enumerate/verdict.ts';
import { formatSeq } from '../../../src/lower/isa.ts';
import { lowerTest } from '../../../src/lower/lower.ts';
import { findTarget, nearestTargetNames } from '../../../src/lower/targets.ts';
import { isLowered, type LowerCtx, lowerDiag } from '../../../src/lower/types.ts';
import { type AxiomId, checkCandidate, type ModelOptions } from '../../../src/models/amdgpu.ts';
import type { Witness } from '../../../src/models/types.ts';
import type { State } from '../../../src/sim/machine.ts';
import { traceRun } from '../../../src/sim/machine.ts';
import type { SimResult } from '../../../src/sim/simulate.ts';
import { printInstr } from '../../../src/syntax/printer.ts';
import { analyse, editorDiagnostic } from './diagnostics.ts';
import type {
  Budgets,
  CandidateInfo,
  Category,
  EditorDiagnostic,
  GraphResult,
  LoweredThreadView,
  MachineStateView,
  ModelChoice,
  OutcomeBar,
  RunResult,
  RunSettings,
  TargetChoice,
  TraceResult,
} from './protocol.ts';

/** The file name of a pasted cat model. */
export const USER_CAT_FILE = 'pasted.cat';
/** At most this many candidates are listed (the list says when there are more). */
export const MAX_LISTED = 2000;
/** Time allowed for listing candidates (an unpruned search) after the verdict. */
export const LIST_MS = 3000;
/** Machine states a check may visit in the page (the CLI's default is 5 million, about 1.5 GB). */
export const CHECK_MAX_STATES = 1_000_000;

/** One candidate as the session keeps it: enough to rebuild and draw it. */
interface Candidate {
  variant: number;
  rf: Int32Array;
  co: Int32Array;
  info: CandidateInfo;
  /**
   * Which valuation of its register values the entry shows: 0, or the solution of a value cycle
   * (docs/model.md, "Values out of thin air"), each listed as its own execution.
   */
  solution: number;
  /** Cat models: the failing check's name, text and witness events. */
  cat: { name: string; text: string; witness: number[] } | null;
}

function truthOf(test: Test, labels: readonly string[], vals: ArrayLike<number>): Truth {
  if (!test.condition) return 'true';
  return evalCond(
    test.condition.cond,
    (l) => {
      const k = labels.indexOf(l);
      return k < 0 ? undefined : vals[k];
    },
    termLabel,
    (c) => termWidth(test, c),
  );
}

function valuesRecord(labels: readonly string[], vals: ArrayLike<number>): Record<string, number | 'undef'> {
  const out: Record<string, number | 'undef'> = {};
  labels.forEach((l, k) => {
    out[l] = Number.isNaN(vals[k]!) ? 'undef' : vals[k]!;
  });
  return out;
}

/** The histogram: the report's states, then the outcomes only rejected candidates reach. */
export function histogramOf(
  report: Report,
  forbidden: readonly { state: string; truth: Truth }[],
): OutcomeBar[] {
  const bars: OutcomeBar[] = report.states.map((s) => ({
    state: stateText(s.values),
    category: s.race ? 'racy' : s.undef || s.undefFinal || s.condition === 'unknown' ? 'undef' : 'allowed',
    count: s.count,
    condition: s.condition,
  }));
  const allowed = new Set(bars.map((b) => b.state));
  const extra = new Map<string, OutcomeBar>();
  for (const f of forbidden) {
    if (allowed.has(f.state)) continue;
    const b = extra.get(f.state);
    if (b) b.count++;
    else extra.set(f.state, { state: f.state, category: 'forbidden', count: 1, condition: f.truth });
  }
  return [...bars, ...[...extra.values()].sort((a, b) => a.state.localeCompare(b.state))];
}

/** Loads a cat model from the registry's files or a pasted text; includes come from `models/`. */
export function loadCat(
  choice: Exclude<ModelChoice, { kind: 'amdgpu' }>,
  sources: Readonly<Record<string, string>>,
): { model: Model; diagnostics: EditorDiagnostic[] } | { error: string } {
  const file = choice.kind === 'cat' ? CAT_MODELS[choice.name] : USER_CAT_FILE;
  if (file === undefined) return { error: `unknown model '${choice.kind === 'cat' ? choice.name : ''}'` };
  const text = choice.kind === 'cat' ? sources[file] : choice.text;
  if (text === undefined) return { error: `the model file ${file} is not in this build` };
  const reader: IncludeReader = (name) => {
    const base = name.split('/').pop()!;
    const t = sources[base];
    return t === undefined ? null : { file: base, text: t };
  };
  const { model, diagnostics } = loadModel(text, file, reader);
  // Diagnostics of a registry file (or of a file it includes) are gpumm's own bugs, not the user's.
  return {
    model,
    diagnostics: diagnostics
      .filter((d) => d.span.file === USER_CAT_FILE)
      .map((d) => editorDiagnostic(d, 'cat'))
      .concat(
        diagnostics
          .filter((d) => d.span.file !== USER_CAT_FILE)
          .map((d) => editorDiagnostic({ ...d, message: `${d.span.file}: ${d.message}` }, 'cat')),
      ),
  };
}

export type RunOutcome =
  | { kind: 'diagnostics'; diagnostics: EditorDiagnostic[] }
  | { kind: 'run'; result: RunResult };

export interface Progress {
  /** The search for the verdict, then the unpruned listing of candidates. */
  phase?: 'search' | 'listing';
  fraction: number;
  states: number;
  executions: number;
  elapsedMs: number;
}

/**
 * One user's state between requests: the last test run, its candidates (to draw one) and the last
 * check's machines (to trace one of their outcomes).
 */
export class Session {
  private test: Test | null = null;
  private options: ModelOptions = { noThinAir: true, valueRules: 'literal' };
  private candidates: Candidate[] = [];
  private isCat = false;
  /** The machines of each check, by `checkKey`, to trace their outcomes. */
  private readonly sims = new Map<string, SimResult>();

  /** `catSources`: the text of each file of `models/` by file name (`amdgpu.cat`). */
  constructor(private readonly catSources: Readonly<Record<string, string>>) {}

  /** Runs the test under the chosen model: its report, its candidates, the histogram. */
  async run(
    text: string,
    choice: ModelChoice,
    settings: RunSettings,
    budgets: Budgets,
    onProgress: (p: Progress) => void = () => {},
  ): Promise<RunOutcome> {
    const { test, diagnostics } = analyse(text);
    if (!test) return { kind: 'diagnostics', diagnostics };
    const md = modelDiagnostics(test);
    if (md.length > 0) {
      const undecided = md.every((d) => UNDECIDED_CODES.includes(d.code));
      return {
        kind: 'diagnostics',
        diagnostics: md.map((d) =>
          editorDiagnostic(
            {
              code: d.code,
              severity: undecided ? 'warning' : 'error',
              message: undecided ? `${d.message} (the model cannot decide this test yet)` : d.message,
              hint: MODEL_HINTS[d.code],
              span: d.span,
            },
            'test',
          ),
        ),
      };
    }
    const options: ModelOptions = { noThinAir: settings.noThinAir, valueRules: settings.valueRules };
    this.options = options;
    this.test = test;
    let report: Report;
    let cat: Model | null = null;
    if (choice.kind === 'amdgpu') {
      report = await runTest(
        test,
        {
          model: options,
          maxExecutions: budgets.maxExecutions,
          maxStates: budgets.maxStates,
          timeoutMs: budgets.timeoutMs,
          explain: false,
          keepExamples: false,
          observe: settings.observe,
        },
        { onProgress },
      );
    } else {
      const loaded = loadCat(choice, this.catSources);
      if ('error' in loaded)
        return {
          kind: 'diagnostics',
          diagnostics: [
            editorDiagnostic({ code: 'CL1003', severity: 'error', message: loaded.error, span: null }, 'cat'),
          ],
        };
      const compiled =
        loaded.diagnostics.length > 0 ? null : compileFor(test, loaded.model, variantsOf(options));
      const all = [
        ...loaded.diagnostics,
        ...(compiled?.diagnostics ?? []).map((d) => editorDiagnostic(d, 'cat')),
      ];
      if (all.length > 0) return { kind: 'diagnostics', diagnostics: all };
      cat = loaded.model;
      report = await runCatSliced(
        test,
        cat,
        options,
        {
          maxExecutions: budgets.maxExecutions,
          maxStates: budgets.maxStates,
          timeoutMs: budgets.timeoutMs,
          observe: settings.observe,
          keepExamples: false,
        },
        () => {},
        onProgress,
      );
    }
    this.isCat = cat !== null;
    const listed = cat
      ? this.listCat(test, cat, settings, onProgress)
      : this.listFast(test, settings, onProgress);
    this.candidates = listed.candidates;
    const forbidden = listed.candidates.flatMap((c) =>
      !c.info.consistent && c.info.state !== null
        ? [{ state: c.info.state, truth: listed.truths.get(c)! }]
        : [],
    );
    return {
      kind: 'run',
      result: {
        report,
        model: choice.kind === 'amdgpu' ? 'amdgpu' : choice.kind === 'cat' ? choice.name : USER_CAT_FILE,
        candidates: listed.candidates.map((c) => c.info),
        candidatesPartial: listed.partial,
        histogram: histogramOf(report, forbidden),
        edgeKinds: cat ? ['po', 'rf', 'co'] : [...EDGE_KINDS],
      },
    };
  }

  /** Every candidate of the fast search (unpruned), consistent or not, up to `MAX_LISTED`. */
  private listFast(
    test: Test,
    settings: RunSettings,
    onProgress: (p: Progress) => void,
  ): { candidates: Candidate[]; truths: Map<Candidate, Truth>; partial: boolean } {
    const out: Candidate[] = [];
    const truths = new Map<Candidate, Truth>();
    const perVariant = new Map<number, { obs: Observable[]; pairs: Int32Array }>();
    type Ws = Parameters<NonNullable<typeof DEFAULT_ENUMERATE.onAccept>>[0];
    /** One entry; `solution` < 0: the candidate's values are inconsistent. */
    const push = (ws: Ws, variant: number, axiom: AxiomId | null, solution: number) => {
      let pv = perVariant.get(variant);
      if (!pv) {
        pv = {
          obs: observables(ws.sk, ws.evaluator.programs, [], settings.observe),
          pairs: racePairs(ws.sk),
        };
        perVariant.set(variant, pv);
      }
      let state: string | null = null;
      let truth: Truth = 'unknown';
      let undef = false;
      if (solution >= 0) {
        const vals = new Float64Array(pv.obs.length);
        observe(ws, pv.obs, vals);
        const labels = pv.obs.map((o) => o.label);
        state = stateText(valuesRecord(labels, vals));
        truth = truthOf(test, labels, vals);
        undef = vals.some((v) => Number.isNaN(v)) || ws.sk.reads.some((r) => ws.rfSrc[r] === -1);
      }
      const category: Category =
        axiom !== null ? 'forbidden' : firstRace(ws, pv.pairs) >= 0 ? 'racy' : undef ? 'undef' : 'allowed';
      const c: Candidate = {
        variant,
        rf: ws.rfSrc.slice(),
        co: ws.coRank.slice(),
        info: { consistent: axiom === null, state, category, axiom },
        solution: Math.max(0, solution),
        cat: null,
      };
      out.push(c);
      truths.set(c, truth);
      if (out.length >= MAX_LISTED) en.interrupt();
    };
    // One entry per valuation: the solutions of a value cycle are executions of their own.
    const pushAll = (ws: Ws, variant: number, axiom: AxiomId | null) => {
      const ev = ws.evaluator;
      const n = axiom === null ? ev.count : ev.valuations(ws.rfSrc);
      if (n > 0 && axiom !== null) ws.deriveAmd();
      if (n === 0) push(ws, variant, axiom, -1);
      for (let k = 0; k < n; k++) {
        ev.loadSolution(k);
        push(ws, variant, axiom, k);
      }
    };
    const en = new Enumeration(test, {
      ...DEFAULT_ENUMERATE,
      model: this.options,
      prune: false,
      symmetry: false,
      keepExamples: false,
      observe: settings.observe,
      timeoutMs: LIST_MS,
      onReject: (ws, verdict, variant) => pushAll(ws, variant, verdict.axiom ?? 'values'),
      onAccept: (ws, variant) => pushAll(ws, variant, null),
    });
    return { candidates: out, truths, partial: !drain(en, () => out.length, onProgress) };
  }

  /** Every candidate of a cat model (unpruned), accepted or not, up to `MAX_LISTED`. */
  private listCat(
    test: Test,
    model: Model,
    settings: RunSettings,
    onProgress: (p: Progress) => void,
  ): { candidates: Candidate[]; truths: Map<Candidate, Truth>; partial: boolean } {
    const out: Candidate[] = [];
    const truths = new Map<Candidate, Truth>();
    const labels = amdgpuFront(test, settings.observe).labels;
    const buf = new Float64Array(labels.length);
    /** One entry; `solution` < 0: no final state (inconsistent values, or filtered out). */
    const push = (
      v: CatVariant,
      rejection: { name: string; text: string; witness: number[] } | null,
      race: boolean,
      undefRead: boolean,
      solution: number,
    ) => {
      const vals = solution >= 0 ? Array.from(buf) : null;
      const state = vals ? stateText(valuesRecord(labels, vals)) : null;
      const undef = undefRead || (vals?.some((x) => Number.isNaN(x)) ?? false);
      const c: Candidate = {
        variant: v.index,
        rf: v.rfSrc.slice(),
        co: v.coRank.slice(),
        info: {
          consistent: rejection === null,
          state,
          category: rejection !== null ? 'forbidden' : race ? 'racy' : undef ? 'undef' : 'allowed',
          axiom: rejection?.name ?? null,
        },
        solution: Math.max(0, solution),
        cat: rejection,
      };
      out.push(c);
      truths.set(c, vals ? truthOf(test, labels, vals) : 'unknown');
      if (out.length >= MAX_LISTED) en.interrupt();
    };
    const en = new CatEnumeration(test, model, {
      ...DEFAULT_CAT,
      variants: variantsOf(this.options),
      prune: false,
      keepExamples: false,
      observe: settings.observe,
      timeoutMs: LIST_MS,
      onReject: (v, why) => {
        if (why.kind === 'check') {
          // A rejected candidate reaches a state per valuation (the solutions of a value cycle).
          const rejection = catRejection(why.check, (e) => v.input.describe(e));
          if (forEachCatState(v, buf, (k) => push(v, rejection, false, false, k)) === 0)
            push(v, rejection, false, false, -1);
        } else
          push(
            v,
            why.kind === 'values'
              ? {
                  name: 'values',
                  text: `values: the register values are inconsistent (${why.status})`,
                  witness: [],
                }
              : { name: 'filter', text: "filter: the final state fails the test's filter", witness: [] },
            false,
            false,
            -1,
          );
      },
      onAccept: (v, race, undef, solution) => push(v, null, race, undef, catObserve(v, buf) ? solution : -1),
    });
    return { candidates: out, truths, partial: !drain(en, () => out.length, onProgress) };
  }

  /** DOT and explanation of listed candidate `index`. */
  graph(index: number, edges: readonly EdgeKind[], scopes: boolean): GraphResult | null {
    const c = this.candidates[index];
    if (!this.test || !c) return null;
    const { ws } = prepareVariant(this.test, c.variant);
    ws.setCandidate(c.rf, c.co);
    const verdict = checkCandidate(ws, this.options);
    ws.deriveAmd();
    if (ws.evaluator.valuations(ws.rfSrc) > c.solution) ws.evaluator.loadSolution(c.solution);
    let highlight: Highlight | null = null;
    let explanation: string | null = null;
    let axiom: string | null = null;
    if (c.cat) {
      axiom = c.cat.name;
      explanation = c.cat.text;
      const w = c.cat.witness;
      highlight = {
        events: w,
        edges:
          w.length > 1
            ? w.map((e, k) => [e, w[(k + 1) % w.length]!, c.cat!.name] as [number, number, string])
            : [],
      };
    } else if (!verdict.consistent && verdict.axiom && verdict.witness) {
      axiom = verdict.axiom;
      explanation = explainWitness(ws.sk, verdict.axiom, verdict.witness, ws);
      highlight = witnessParts(verdict.witness as Witness);
    }
    const title = `${this.test.name}: ${c.info.state ?? '(inconsistent values)'}`;
    const allowed = this.isCat ? edges.filter((e) => e === 'po' || e === 'rf' || e === 'co') : edges;
    return {
      dot: toDot(ws, title, { edges: allowed, scopes, highlight }),
      title,
      consistent: c.info.consistent,
      axiom,
      explanation,
    };
  }

  /** Each thread's IR instructions with their machine code and table rows. */
  lower(
    text: string,
    choice: TargetChoice,
  ): { threads: LoweredThreadView[] } | { diagnostics: EditorDiagnostic[] } {
    const parsed = parsedFor(text, choice);
    if ('diagnostics' in parsed) return parsed;
    const { test, ctx } = parsed;
    return {
      threads: lowerTest(test, ctx).map((t) => ({
        thread: t.thread,
        instrs: t.instrs.map(({ instr, result }) => ({
          ir: printInstr(instr),
          line: instr.span.line,
          asm: isLowered(result) ? formatSeq(result.seq).flatMap((l) => l.split('; ')) : [],
          rows: isLowered(result) ? result.rows : [],
          diagnostic: isLowered(result) ? null : `${result.diagnostic.code}: ${result.diagnostic.message}`,
        })),
      })),
    };
  }

  /** `gpumm check` for one target and mode: the model's states against the machine's. */
  async check(
    text: string,
    choice: TargetChoice,
    timeoutMs: number,
  ): Promise<CheckResult | { diagnostics: EditorDiagnostic[] }> {
    const parsed = parsedFor(text, choice);
    if ('diagnostics' in parsed) return parsed;
    const { test, ctx } = parsed;
    const md = modelDiagnostics(test).filter((d) => !UNDECIDED_CODES.includes(d.code));
    if (md.length > 0)
      return {
        diagnostics: md.map((d) =>
          editorDiagnostic({ ...d, severity: 'error', hint: MODEL_HINTS[d.code] }, 'test'),
        ),
      };
    const deadline = performance.now() + timeoutMs;
    const report = await runTest(test, {
      model: { noThinAir: true, valueRules: 'literal' },
      maxExecutions: Number.POSITIVE_INFINITY,
      timeoutMs,
      explain: false,
      keepExamples: false,
    });
    const code = docCode(test, ctx);
    const key = checkKey(choice);
    this.sims.delete(key);
    if ('error' in code) return unsupportedCheck(test, report, ctx, 'doc', code.error);
    return checkTest(test, report, code, ctx, 'doc', {
      reduce: true,
      maxStates: CHECK_MAX_STATES,
      deadline,
      trace: true,
      onSim: (sim) => {
        this.sims.set(key, sim);
      },
    });
  }

  /** A shortest run of a checked machine to its `outcome`-th final state, state by state. */
  trace(choice: TargetChoice, outcome: number, timeoutMs = 10_000): TraceResult | null {
    const s = this.sims.get(checkKey(choice));
    const o = s?.outcomes[outcome];
    if (!s || !o) return null;
    const m = s.machines[o.placement]!;
    const run = traceRun(m, o.key, {
      reduce: true,
      maxStates: CHECK_MAX_STATES,
      deadline: performance.now() + timeoutMs,
    });
    if (!run) return null;
    const nLoc = m.nLoc;
    const num = (v: number) => (Number.isNaN(v) ? null : v);
    const view = (st: State): MachineStateView => ({
      pcs: st.waves.map((w) => w.pc),
      regs: st.waves.map((w) => w.regs.map(num)),
      queues: st.queues.map((q) =>
        q.map((r) => `${m.program.threads[r.t]!.name}: ${m.program.threads[r.t]!.instrs[r.i]!.text}`),
      ),
      lines: m.instName.map((_, c) =>
        Array.from({ length: nLoc }, (_, l) => {
          const k = st.st[c * nLoc + l]!;
          return {
            st: k === 0 ? 'absent' : k === 1 ? 'clean' : 'dirty',
            val: k === 0 ? null : num(st.val[c * nLoc + l]!),
          };
        }),
      ),
      mem: st.mem.map(num),
    });
    return {
      machine: {
        placement: m.placement.text,
        threads: m.program.threads.map((t) => ({
          name: t.name,
          code: t.instrs.map((i) => i.text),
          regs: t.regs,
        })),
        caches: m.instName.map((name, c) => ({ name, level: m.instLevel[c]!, parent: m.parent[c]! })),
        levels: m.cfg.levels.map((l) => l.name),
        locs: m.program.locs.map((l) => (l.owner ? `${l.name} (${l.owner})` : l.name)),
      },
      steps: run.steps.map((x) => ({ ...x })),
      states: run.states.map(view),
    };
  }
}

/** The test and the lowering context of a request, or the diagnostics that stop it. */
function parsedFor(
  text: string,
  choice: TargetChoice,
): { test: Test; ctx: LowerCtx } | { diagnostics: EditorDiagnostic[] } {
  const { test, diagnostics } = analyse(text);
  if (!test) return { diagnostics };
  const ctx = contextOf(choice);
  if (ctx) return { test, ctx };
  const d = lowerDiag(
    'LW2001',
    [choice.target, nearestTargetNames(choice.target).join(', ')],
    null,
    'targets.ts',
  );
  return { diagnostics: [editorDiagnostic(d, 'test')] };
}

/** Runs a listing to its end (or its cap), telling its progress; true when it listed everything. */
function drain(
  en: { step(n: number): boolean; progress(): number; stop: string | null },
  listed: () => number,
  onProgress: (p: Progress) => void,
): boolean {
  const t0 = performance.now();
  while (!en.step(256))
    onProgress({
      phase: 'listing',
      fraction: en.progress(),
      states: 0,
      executions: listed(),
      elapsedMs: performance.now() - t0,
    });
  return en.stop === 'done';
}

/** Which check's machines a trace is asked of. */
export function checkKey(c: TargetChoice): string {
  return `${c.target}|${c.mode}|${c.lang}|${c.tgsplit}`;
}

/** The lowering context of a choice, or null for an unknown target. */
export function contextOf(choice: TargetChoice): LowerCtx | null {
  const target = findTarget(choice.target);
  if (!target || target.processor.table === null) return null;
  return { target, mode: choice.mode, lang: choice.lang, tgsplit: choice.tgsplit };
}
