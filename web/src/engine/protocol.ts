/**
 * What the page and its Web Worker say to each other: plain, JSON-able shapes (string-literal
 * unions, no classes), so they cross `postMessage` unchanged and the engine can be tested in Node.
 */

import type { CheckResult } from '../../../src/check/check.ts';
import type { EdgeKind } from '../../../src/enumerate/graph.ts';
import type { Report } from '../../../src/enumerate/report.ts';

/**
 * Which model runs: the fast AMDGPU or Vulkan search, a cat model of `models/` by its `--model` name,
 * or a pasted cat file (run on the test's own language, as `gpumm run --cat`).
 */
export type ModelChoice =
  | { kind: 'amdgpu' }
  | { kind: 'vulkan' }
  | { kind: 'cat'; name: string }
  | { kind: 'user-cat'; text: string };

/** The language of a test and of a model: gpumm's AMDGPU tests, or Vulkan tests. */
export type Language = 'AMDGPU' | 'Vulkan';

/** The Vulkan options of `gpumm run` (src/cli/vulkan-options.ts). */
export interface VulkanSettings {
  /** `--unroll`: how many times a loop that is not an await loop may jump back. */
  unroll: number;
  /** Availability/visibility chains of more than one element (`--no-av-vis-chains` turns them off). */
  chains: boolean;
  /** `--vulkan-fr`. */
  fr: 'dartagnan' | 'literal';
  /** `--device-scope`: the AMDGPU scope of Vulkan's Device scope when a Vulkan test is translated. */
  deviceScope: 'system' | 'agent';
}

/**
 * A test run (or lowered, or checked) in the other language: the translation `gpumm run --model`
 * makes (docs/model-vulkan.md, "Vulkan and AMDGPU").
 */
export interface Translation {
  from: Language;
  to: Language;
  /** The translated test, printed (gpumm's syntax, or Dartagnan's). */
  text: string;
  /** What the translation chose (VK4009) or could not keep, at the source's line and column. */
  notes: EditorDiagnostic[];
}

/** Budgets, as `gpumm run`'s options (`--timeout`, `--max-executions`, `--max-states`). */
export interface Budgets {
  timeoutMs: number;
  maxExecutions: number;
  maxStates: number;
}

/** `gpumm run`'s model options. */
export interface RunSettings {
  noThinAir: boolean;
  valueRules: 'literal' | 'repaired';
  observe: 'all' | 'condition';
  vulkan: VulkanSettings;
}

/** A diagnostic placed in the editor (1-based line and column, length in characters). */
export interface EditorDiagnostic {
  code: string;
  severity: 'error' | 'warning';
  message: string;
  hint: string;
  line: number;
  col: number;
  offset: number;
  len: number;
  /** The file it is about: the test (`test`) or a pasted cat model (`cat`). */
  source: 'test' | 'cat';
}

/** How an outcome or a candidate is classified in the histogram and the list of executions. */
export type Category = 'allowed' | 'racy' | 'undef' | 'forbidden';

/** One candidate execution in the explorer's list. */
export interface CandidateInfo {
  /** Consistent (allowed by the model) or rejected. */
  consistent: boolean;
  /** The final state it reaches (`P1:r0=1; @x=2;`), or null when its values are inconsistent. */
  state: string | null;
  category: Category;
  /** The check or axiom that rejects it. */
  axiom: string | null;
}

/** One bar of the outcome histogram. */
export interface OutcomeBar {
  state: string;
  category: Category;
  /** Executions reaching it (allowed, racy, undef), or forbidden candidates reaching it. */
  count: number;
  /**
   * The test's condition on it: true, false, unknown (depends on undef), or unset (a state the
   * condition is not evaluated on: a Vulkan register a stuck thread never wrote).
   */
  condition: 'true' | 'false' | 'unknown' | 'unset';
}

/** Everything a run shows. */
export interface RunResult {
  report: Report;
  model: string;
  /** The model's language, and the translation of a test of the other one (null: none). */
  language: Language;
  translation: Translation | null;
  candidates: CandidateInfo[];
  /** The list stopped at the cap or the time limit: more candidates exist. */
  candidatesPartial: boolean;
  histogram: OutcomeBar[];
  /** Edge kinds the model's graphs can show (AMDGPU cat models: po, rf, co; Vulkan: what the model binds). */
  edgeKinds: EdgeKind[];
}

/** One execution drawn: its DOT text and why the model accepts or rejects it. */
export interface GraphResult {
  dot: string;
  title: string;
  consistent: boolean;
  axiom: string | null;
  /** The text `gpumm run --explain` prints for this rejection (null for an allowed execution). */
  explanation: string | null;
}

/** One IR instruction's code on one target: its lines (`codeLines` of src/lower/side-by-side.ts) and table rows. */
export interface LoweredCell {
  asm: string[];
  rows: string[];
  /** Why there is no code (`LW2008: …`), or null. */
  diagnostic: string | null;
  /** What of the instruction the target gives no meaning (`LW2014: …`); the code is shown all the same. */
  warnings: string[];
}

/** One IR instruction of a thread and its machine code on each target, in the view's column order. */
export interface LoweredRow {
  ir: string;
  line: number;
  cells: LoweredCell[];
}

export interface LoweredThreadView {
  thread: string;
  instrs: LoweredRow[];
}

/** A test lowered for one or several targets side by side, as `gpumm lower --target a,b` prints it. */
export interface LoweredView {
  /** Per column: the target and its settings (`describeCtx`: `gfx1200 (GFX12, dGPU, WGP mode, HSA)`). */
  columns: { target: string; title: string }[];
  threads: LoweredThreadView[];
  /** A Vulkan test is lowered as its AMDGPU translation, as `gpumm lower` does. */
  translation: Translation | null;
}

/** The target, mode and language a lowering or a check is for. */
export interface TargetChoice {
  target: string;
  mode: 'cu' | 'wgp';
  lang: 'hsa' | 'opencl';
  tgsplit: boolean;
}

/**
 * Targets side by side with the settings they share (`gpumm lower --target a,b --cu --opencl`): each
 * takes what applies to it — the mode on GFX10–GFX12, TgSplit where it exists, the address-space
 * rules on AMD targets (Intel Xe follows the OpenCL/SPIR-V built-ins).
 */
export interface TargetsChoice {
  targets: string[];
  mode: 'cu' | 'wgp';
  lang: 'hsa' | 'opencl';
  tgsplit: boolean;
}

/** A target the page offers: its name, generation and which options apply. */
export interface TargetInfo {
  name: string;
  generation: string;
  vendor: 'AMD' | 'Intel';
  wgpMode: boolean;
  tgsplit: boolean;
  llc: boolean;
  machine: boolean;
}

/** The machine's layout, for drawing its states: threads, cache instances, locations. */
export interface MachineView {
  placement: string;
  threads: { name: string; code: string[]; regs: string[] }[];
  caches: { name: string; level: number; parent: number }[];
  levels: string[];
  /** What lies behind the last level, named as the machine's traces name it (`memory`; Intel Xe on one agent: `L3`, `GPU`). */
  memory: string;
  locs: string[];
}

/** One machine state: per thread its pc and registers, outstanding requests, cache lines, memory. */
export interface MachineStateView {
  pcs: number[];
  regs: (number | null)[][];
  /** Per wavefront queue: its outstanding requests as text. */
  queues: string[][];
  /** Per cache instance, per location: absent, clean or dirty, and the value. */
  lines: { st: 'absent' | 'clean' | 'dirty'; val: number | null }[][];
  mem: (number | null)[];
}

export interface TraceStepView {
  kind: string;
  thread: string;
  text: string;
  detail: string;
}

/** A run of the machine to one outcome, with every state along it. */
export interface TraceResult {
  machine: MachineView;
  steps: TraceStepView[];
  states: MachineStateView[];
  /** Waits on counters no instruction of the test uses: never blocking, left out of the steps. */
  idleWaits: string[];
}

export interface CheckView {
  result: CheckResult;
}

/** Messages to the worker (each with an id the answer repeats). */
export type Request =
  | { id: number; kind: 'run'; text: string; model: ModelChoice; settings: RunSettings; budgets: Budgets }
  | { id: number; kind: 'graph'; index: number; edges: EdgeKind[]; scopes: boolean }
  | {
      id: number;
      kind: 'lower';
      text: string;
      choice: TargetsChoice;
      deviceScope: VulkanSettings['deviceScope'];
    }
  | {
      id: number;
      kind: 'check';
      text: string;
      choice: TargetChoice;
      timeoutMs: number;
      deviceScope: VulkanSettings['deviceScope'];
    }
  | { id: number; kind: 'trace'; choice: TargetChoice; outcome: number };

/** Messages from the worker. */
export type Response =
  | {
      id: number;
      kind: 'progress';
      phase?: 'search' | 'listing';
      fraction: number;
      states: number;
      executions: number;
      elapsedMs: number;
    }
  | { id: number; kind: 'diagnostics'; diagnostics: EditorDiagnostic[] }
  | { id: number; kind: 'error'; message: string }
  | { id: number; kind: 'run'; result: RunResult }
  | { id: number; kind: 'graph'; result: GraphResult }
  | { id: number; kind: 'lower'; view: LoweredView }
  | { id: number; kind: 'check'; result: CheckResult }
  | { id: number; kind: 'trace'; result: TraceResult | null };
