/**
 * The explorer's engine: what the page's Web Worker runs. It parses with the CLI's parsers (gpumm's
 * syntax, Dartagnan's and the Khronos Vulkan syntaxes), translates a test into the chosen model's
 * language as `gpumm run --model` does, runs the CLI's searches (the fast AMDGPU and Vulkan searches,
 * cat models), lists candidate executions with the axiom that rejects each, draws one with the
 * CLI's `toDot` (Vulkan: `vulkanDot`) and explains it with the words of `--explain`, lowers with the
 * CLI's tables (several targets side by side, as `gpumm lower --target a,b`) and checks with
 * `gpumm check`'s machines. No DOM and no Node APIs: the tests run it in Node, the page in a worker.
 */

import type { Model } from '../../../src/cat/ast.ts';
import { amdgpuFront, CatEnumeration, type CatVariant, DEFAULT_CAT } from '../../../src/cat/enumerate.ts';
import { type IncludeReader, loadModel } from '../../../src/cat/load.ts';
import { catObserve, catRejection, forEachCatState, variantsOf } from '../../../src/cat/report.ts';
import {
  type CheckResult,
  checkTest,
  docCode,
  idleWaits as idleWaitsOf,
  unsupportedCheck,
} from '../../../src/check/check.ts';
import { diagnosticLine } from '../../../src/core/diagnostics.ts';
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
import { stateText } from '../../../src/enumerate/report.ts';
import { modelDiagnostics, runTest, UNDECIDED_CODES } from '../../../src/enumerate/verdict.ts';
import { codeLines, describeCtx, lowerSideBySide } from '../../../src/lower/side-by-side.ts';
import { findTarget, nearestTargetNames } from '../../../src/lower/targets.ts';
import { type LowerCtx, lowerDiag } from '../../../src/lower/types.ts';
import { type AxiomId, checkCandidate, type ModelOptions } from '../../../src/models/amdgpu.ts';
import type { Witness } from '../../../src/models/types.ts';
import { DEFAULT_SETTINGS, type RunSettings as EngineSettings } from '../../../src/run/engine.ts';
import { language, languageOf, type ModelSpec, modelSpec, userCatSpec } from '../../../src/run/registry.ts';
import { type CatSource, type Prepared, Runner } from '../../../src/run/runner.ts';
import type { State } from '../../../src/sim/machine.ts';
import { traceRun } from '../../../src/sim/machine.ts';
import type { SimResult } from '../../../src/sim/simulate.ts';
import { printInstr } from '../../../src/syntax/printer.ts';
import type { AnyTest, VulkanTest } from '../../../src/vulkan/ast.ts';
import { vulkanModelEdgeKinds } from '../../../src/vulkan/graph.ts';
import { analyse, editorDiagnostic } from './diagnostics.ts';
import {
  type Candidate,
  drain,
  forbiddenOutcomes,
  histogramOf,
  LIST_MS,
  type Listing,
  MAX_LISTED,
  type Progress,
  valuesRecord,
} from './listing.ts';
import type {
  Budgets,
  Category,
  EditorDiagnostic,
  GraphResult,
  LoweredView,
  MachineStateView,
  ModelChoice,
  RunResult,
  RunSettings,
  TargetChoice,
  TargetsChoice,
  TraceResult,
  VulkanSettings,
} from './protocol.ts';
import { asAmdgpuTest, inLanguage, listVulkanTest, type VulkanListing, vulkanGraph } from './vulkan.ts';

/** The runner's settings the page's run settings select (src/run/engine.ts). */
function runSettingsOf(s: RunSettings): EngineSettings {
  return {
    ...DEFAULT_SETTINGS,
    amdgpu: { noThinAir: s.noThinAir, valueRules: s.valueRules },
    vulkan: { unroll: s.vulkan.unroll, chains: s.vulkan.chains, literalFr: s.vulkan.fr === 'literal' },
    observe: s.observe,
  };
}

export { histogramOf, LIST_MS, MAX_LISTED, type Progress };

/** The file name of a pasted cat model. */
export const USER_CAT_FILE = 'pasted.cat';
/** Machine states a check may visit in the page (the CLI's default is 5 million, about 1.5 GB). */
export const CHECK_MAX_STATES = 1_000_000;

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

/**
 * The cat files of a run: the registry's from the bundled `models/` texts, the user's the pasted
 * text (`user`); includes come from `models/`. A registry file's diagnostics (or those of a file it
 * includes) are gpumm's own bugs, not the user's: they name their file.
 */
export function pageCats(sources: Readonly<Record<string, string>>, user: string | null): CatSource {
  return {
    load(ref) {
      const text = ref.origin === 'user' ? user : sources[ref.file];
      if (text === null || text === undefined)
        return {
          diagnostics: [
            {
              code: 'CL1003',
              severity: 'error',
              message: `the model file ${ref.file} is not in this build`,
              hint: '',
              span: { file: ref.file, offset: 0, line: 1, col: 1, len: 0 },
            },
          ],
        };
      const file = ref.origin === 'user' ? USER_CAT_FILE : ref.file;
      const reader: IncludeReader = (name) => {
        const base = name.split('/').pop()!;
        const t = sources[base];
        return t === undefined ? null : { file: base, text: t };
      };
      const { model, diagnostics } = loadModel(text, file, reader);
      if (diagnostics.length === 0) return { model };
      return {
        diagnostics: [
          ...diagnostics.filter((d) => d.span.file === USER_CAT_FILE),
          ...diagnostics
            .filter((d) => d.span.file !== USER_CAT_FILE)
            .map((d) => ({ ...d, message: `${d.span.file}: ${d.message}` })),
        ],
      };
    },
  };
}

/**
 * The model a choice names: a model of the registry (`gpumm run --model`), or the pasted cat file
 * run on the test's own language (as `gpumm run --cat`).
 */
export function modelOf(choice: ModelChoice, test: AnyTest): ModelSpec {
  if (choice.kind === 'user-cat') return userCatSpec(USER_CAT_FILE, languageOf(test).id);
  const name = choice.kind === 'cat' ? choice.name : choice.kind;
  const spec = modelSpec(name);
  if (!spec) throw new Error(`unknown model '${name}'`);
  return spec;
}

export type RunOutcome =
  | { kind: 'diagnostics'; diagnostics: EditorDiagnostic[] }
  | { kind: 'run'; result: RunResult };

/** What the session keeps of the last run, to draw its candidates. */
type LastRun =
  | ({ language: 'AMDGPU'; test: Test; options: ModelOptions; isCat: boolean } & Listing)
  | ({ language: 'Vulkan' } & VulkanListing);

/**
 * One user's state between requests: the last test run, its candidates (to draw one) and the last
 * check's machines (to trace one of their outcomes).
 */
export class Session {
  private last: LastRun | null = null;
  /** The machines of each check, by `checkKey`, to trace their outcomes. */
  private readonly sims = new Map<string, SimResult>();

  /** `catSources`: the text of each file of `models/` by file name (`amdgpu.cat`). */
  constructor(private readonly catSources: Readonly<Record<string, string>>) {}

  /**
   * Runs the test under the chosen model — translated first when it is written in the other
   * language — : its report, its candidates, the histogram.
   */
  async run(
    text: string,
    choice: ModelChoice,
    settings: RunSettings,
    budgets: Budgets,
    onProgress: (p: Progress) => void = () => {},
  ): Promise<RunOutcome> {
    const { test: parsed, diagnostics } = analyse(text);
    if (!parsed) return { kind: 'diagnostics', diagnostics };
    const spec = modelOf(choice, parsed);
    const tr = await inLanguage(parsed, spec.language, settings.vulkan.deviceScope);
    if ('diagnostics' in tr) return { kind: 'diagnostics', diagnostics: tr.diagnostics };
    this.last = null;
    const fail = (diagnostics: EditorDiagnostic[]): RunOutcome => ({ kind: 'diagnostics', diagnostics });
    // The candidates of every run are listed by a cat model where the search cannot list them
    // itself: the fast Vulkan search's by models/vulkan.cat, as `--explain` asks it.
    const runner = await Runner.open(spec, runSettingsOf(settings), true);
    const p = tr.prepared;
    const md = runner.diagnose(p);
    if (md.length > 0) {
      const undecided = md.every((d) => UNDECIDED_CODES.includes(d.code));
      return fail(
        md.map((d) =>
          editorDiagnostic(
            undecided
              ? { ...d, severity: 'warning', message: `${d.message} (the model cannot decide this test yet)` }
              : d,
            'test',
          ),
        ),
      );
    }
    const catProblems = await runner.loadCat(
      pageCats(this.catSources, choice.kind === 'user-cat' ? choice.text : null),
    );
    if (catProblems.length > 0) return fail(catProblems.map((d) => editorDiagnostic(d, 'cat')));
    // A cat model of the user's is compiled against the test's primitives first (`gpumm run --cat`).
    const compiled = runner.compile(p);
    if (compiled.length > 0) return fail(compiled.map((d) => editorDiagnostic(d, 'cat')));
    const { report } = await runner.run(p, budgets, { onProgress });
    const out = this.list(runner, p, settings, onProgress);
    this.last = out.last;
    return {
      kind: 'run',
      result: {
        report,
        model: spec.name,
        language: language(spec.language).name,
        translation: tr.translation,
        candidates: out.last.candidates.map((c) => c.info),
        candidatesPartial: out.last.partial,
        histogram: histogramOf(report, forbiddenOutcomes(out.last)),
        edgeKinds: out.edgeKinds,
      },
    };
  }

  /** Every candidate of the run's test (unpruned), accepted or not, and the edges its graphs draw. */
  private list(
    runner: Runner,
    p: Prepared,
    settings: RunSettings,
    onProgress: (p: Progress) => void,
  ): { last: LastRun; edgeKinds: EdgeKind[] } {
    const cat = runner.cat;
    if (runner.language === 'vulkan') {
      if (!cat) throw new Error('a Vulkan run lists its candidates with a cat model');
      const l = listVulkanTest(p.test as VulkanTest, cat, settings, onProgress);
      return {
        last: { language: 'Vulkan', ...l },
        edgeKinds: vulkanModelEdgeKinds(l.front, cat, l.variants),
      };
    }
    const test = p.test as Test;
    const options = runner.settings.amdgpu;
    const listing = cat
      ? listCat(test, cat, options, settings, onProgress)
      : listFast(test, options, settings, onProgress);
    return {
      last: { language: 'AMDGPU', test, options, isCat: cat !== null, ...listing },
      edgeKinds: cat ? ['po', 'rf', 'co'] : [...EDGE_KINDS],
    };
  }

  /** DOT and explanation of listed candidate `index`. */
  graph(index: number, edges: readonly EdgeKind[], scopes: boolean): GraphResult | null {
    const last = this.last;
    const c = last?.candidates[index];
    if (!last || !c) return null;
    const title = `${last.language === 'AMDGPU' ? last.test.name : last.front.vtest.name}: ${c.info.state ?? '(inconsistent values)'}`;
    if (last.language === 'Vulkan')
      return {
        dot: vulkanGraph(last, c, title, edges, scopes),
        title,
        consistent: c.info.consistent,
        axiom: c.cat?.name ?? null,
        explanation: c.cat?.text ?? null,
      };
    const { ws } = prepareVariant(last.test, c.variant);
    ws.setCandidate(c.rf, c.co);
    const verdict = checkCandidate(ws, last.options);
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
    const allowed = last.isCat ? edges.filter((e) => e === 'po' || e === 'rf' || e === 'co') : edges;
    return {
      dot: toDot(ws, title, { edges: allowed, scopes, highlight }),
      title,
      consistent: c.info.consistent,
      axiom,
      explanation,
    };
  }

  /**
   * Each thread's IR instructions with their machine code and table rows on each target, side by
   * side (`gpumm lower --target a,b`); a Vulkan test as its AMDGPU translation.
   */
  async lower(
    text: string,
    choice: TargetsChoice,
    deviceScope: VulkanSettings['deviceScope'] = 'system',
  ): Promise<LoweredView | { diagnostics: EditorDiagnostic[] }> {
    const parsed = await parsedFor(text, choice.targets, deviceScope);
    if ('diagnostics' in parsed) return parsed;
    const ctxs = choice.targets.map((target) => contextOf({ ...choice, target })!);
    const sbs = lowerSideBySide(parsed.test, ctxs);
    return {
      columns: ctxs.map((c) => ({ target: c.target.name, title: describeCtx(c) })),
      threads: sbs.threads.map((t) => ({
        thread: t.thread,
        instrs: t.instrs.map(({ instr, results }) => ({
          ir: printInstr(instr),
          line: instr.span.line,
          cells: results.map((r) => ({
            asm: codeLines(r),
            rows: 'diagnostic' in r ? [] : r.rows,
            diagnostic: 'diagnostic' in r ? `${r.diagnostic.code}: ${r.diagnostic.message}` : null,
            warnings: 'diagnostic' in r ? [] : (r.warnings ?? []).map((w) => `${w.code}: ${w.message}`),
          })),
        })),
      })),
      translation: parsed.translation,
    };
  }

  /** `gpumm check` for one target and mode: the model's states against the machine's (a Vulkan test: its AMDGPU translation's). */
  async check(
    text: string,
    choice: TargetChoice,
    timeoutMs: number,
    deviceScope: VulkanSettings['deviceScope'] = 'system',
  ): Promise<CheckResult | { diagnostics: EditorDiagnostic[] }> {
    const parsed = await parsedFor(text, [choice.target], deviceScope);
    if ('diagnostics' in parsed) return parsed;
    const { test } = parsed;
    const ctx = contextOf(choice)!;
    const md = modelDiagnostics(test).filter((d) => !UNDECIDED_CODES.includes(d.code));
    if (md.length > 0)
      return {
        diagnostics: md.map((d) => editorDiagnostic(d, 'test')),
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
    if ('error' in code) return unsupportedCheck(test, report, ctx, 'doc', diagnosticLine(code.error));
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
    const idleWaits = idleWaitsOf(s);
    const idle = run.steps.map((x) => x.kind === 'issue' && idleWaits.includes(x.text));
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
        // Named as the traces name it (a configuration that folds a cache into memory names it so).
        memory: m.cfg.memoryName,
        locs: m.program.locs.map((l) => (l.owner ? `${l.name} (${l.owner})` : l.name)),
      },
      // A step of an idle wait (no instruction is counted on its counters) changes nothing but a pc: it is
      // folded into the next step, its state left out, and the wait named once (idleWaits).
      steps: run.steps.flatMap((x, k) => (idle[k] ? [] : [{ ...x }])),
      states: run.states.flatMap((st, k) => (k > 0 && idle[k - 1] ? [] : [view(st)])),
      idleWaits,
    };
  }
}

/** Every candidate of the fast search (unpruned), consistent or not, up to `MAX_LISTED`. */
function listFast(
  test: Test,
  options: ModelOptions,
  settings: RunSettings,
  onProgress: (p: Progress) => void,
): Listing {
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
    model: options,
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

/** Every candidate of a cat model on an AMDGPU test (unpruned), accepted or not, up to `MAX_LISTED`. */
function listCat(
  test: Test,
  model: Model,
  options: ModelOptions,
  settings: RunSettings,
  onProgress: (p: Progress) => void,
): Listing {
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
    variants: variantsOf(options),
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

/**
 * The AMDGPU test of a lowering or check request (a Vulkan test translated, as `gpumm lower` does)
 * and its translation, or the diagnostics that stop it (an unknown target among `targets`).
 */
async function parsedFor(
  text: string,
  targets: readonly string[],
  deviceScope: VulkanSettings['deviceScope'],
): Promise<{ test: Test; translation: LoweredView['translation'] } | { diagnostics: EditorDiagnostic[] }> {
  const { test, diagnostics } = analyse(text);
  if (!test) return { diagnostics };
  const unknown = targets.find((t) => !contextOf({ target: t, mode: 'wgp', lang: 'hsa', tgsplit: false }));
  if (unknown !== undefined || targets.length === 0) {
    const name = unknown ?? '';
    const d = lowerDiag('LW2001', [name, nearestTargetNames(name).join(', ')], null, 'targets.ts');
    return { diagnostics: [editorDiagnostic(d, 'test')] };
  }
  return asAmdgpuTest(test, deviceScope);
}

/** Which check's machines a trace is asked of. */
export function checkKey(c: TargetChoice): string {
  return `${c.target}|${c.mode}|${c.lang}|${c.tgsplit}`;
}

/**
 * The lowering context of a choice, or null for an unknown target; as `gpumm lower` makes it: the
 * options a target lacks are left out (Intel Xe follows the OpenCL/SPIR-V built-ins; TgSplit only
 * where it exists).
 */
export function contextOf(choice: TargetChoice): LowerCtx | null {
  const target = findTarget(choice.target);
  if (!target || target.processor.table === null) return null;
  const intel = target.processor.vendor === 'Intel';
  return {
    target,
    mode: choice.mode,
    lang: intel ? 'opencl' : choice.lang,
    tgsplit: choice.tgsplit && target.processor.features.tgsplit === true,
  };
}
