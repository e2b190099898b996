/**
 * Vulkan tests in the explorer's engine: the translation of a test into the model's language, as
 * `gpumm run` makes it (the runner's, src/run/runner.ts), and the listing of every candidate of a
 * Vulkan run with the check of models/vulkan.cat (or of the chosen cat model) that rejects it, in
 * the words of `gpumm run --explain` (`VULKAN_AXIOM_WORDS`). No DOM and no Node APIs.
 */
import type { Model } from '../../../src/cat/ast.ts';
import { CatEnumeration, DEFAULT_CAT } from '../../../src/cat/enumerate.ts';
import { catObserve, catRejection, forEachCatState } from '../../../src/cat/report.ts';
import type { Test } from '../../../src/core/types.ts';
import { isUndef } from '../../../src/core/values.ts';
import type { EdgeKind, Highlight } from '../../../src/enumerate/graph.ts';
import { stateText } from '../../../src/enumerate/report.ts';
import { type LanguageId, language, languageOf } from '../../../src/run/registry.ts';
import { type Prepared, inLanguage as translated } from '../../../src/run/runner.ts';
import { printTest } from '../../../src/run/syntaxes.ts';
import type { AnyTest, VulkanTest } from '../../../src/vulkan/ast.ts';
import { UNSET } from '../../../src/vulkan/events.ts';
import { VULKAN_AXIOM_WORDS } from '../../../src/vulkan/explain.ts';
import { condOnValues, type VkFront, vulkanFront } from '../../../src/vulkan/front.ts';
import { vulkanDot } from '../../../src/vulkan/graph.ts';
import { vkVariants } from '../../../src/vulkan/run.ts';
import { editorDiagnostic } from './diagnostics.ts';
import {
  type Candidate,
  drain,
  LIST_MS,
  type Listing,
  MAX_LISTED,
  type Progress,
  valuesRecord,
} from './listing.ts';
import type { EditorDiagnostic, RunSettings, Translation, VulkanSettings } from './protocol.ts';

/** `test` in `lang`, translated as `gpumm run --model` translates it, or the diagnostics that stop it. */
export async function inLanguage(
  test: AnyTest,
  lang: LanguageId,
  deviceScope: VulkanSettings['deviceScope'],
): Promise<{ prepared: Prepared; translation: Translation | null } | { diagnostics: EditorDiagnostic[] }> {
  const r = await translated(test, lang, { deviceScope });
  const notes = r.diagnostics.map((d) => editorDiagnostic(d, 'test'));
  if (!r.prepared) return { diagnostics: notes };
  const tr = r.prepared.translation;
  if (!tr) return { prepared: r.prepared, translation: null };
  return {
    prepared: r.prepared,
    translation: {
      from: languageOf(test).name,
      to: language(lang).name,
      text: printTest(r.prepared.test).text ?? '',
      notes,
    },
  };
}

/** `test` as an AMDGPU test (a Vulkan one translated, as `gpumm lower` and the check do). */
export async function asAmdgpuTest(
  test: AnyTest,
  deviceScope: VulkanSettings['deviceScope'],
): Promise<{ test: Test; translation: Translation | null } | { diagnostics: EditorDiagnostic[] }> {
  const r = await inLanguage(test, 'amdgpu', deviceScope);
  return 'diagnostics' in r ? r : { test: r.prepared.test as Test, translation: r.translation };
}

/** What the session keeps of a Vulkan run to draw its candidates. */
export interface VulkanListing extends Listing {
  front: VkFront;
  model: Model;
  variants: Set<string>;
}

/** A register a thread never wrote has no value: it is left out of the state (as the report does). */
const shown = (v: number): number | 'undef' | null => (v === UNSET ? null : isUndef(v) ? 'undef' : v);

/**
 * Every candidate of Vulkan test `test` under cat model `model` (models/vulkan.cat for the fast
 * search, as `--explain` asks it), as the run's settings read the test.
 */
export function listVulkanTest(
  test: VulkanTest,
  model: Model,
  settings: RunSettings,
  onProgress: (p: Progress) => void,
): VulkanListing {
  const vs = settings.vulkan;
  const variants = vkVariants({ literalFr: vs.fr === 'literal' }, vs.chains);
  const front = vulkanFront(test, { unroll: vs.unroll, observe: settings.observe });
  return listVulkan(front, model, variants, onProgress);
}

/**
 * Every candidate of a Vulkan test under a cat model (unpruned), accepted or not, up to `MAX_LISTED`.
 * A candidate whose final state the test's filter (a Khronos test's load values) leaves out is not
 * one of the test's executions and is not listed.
 */
function listVulkan(
  front: VkFront,
  model: Model,
  variants: Set<string>,
  onProgress: (p: Progress) => void,
): VulkanListing {
  const out: Candidate[] = [];
  const truths = new Map<Candidate, ReturnType<ReturnType<typeof condOnValues>>>();
  const cond = front.vtest.condition ? condOnValues(front.vtest.condition.cond, front.labels) : null;
  const buf = new Float64Array(front.labels.length);
  const push = (
    v: Parameters<NonNullable<typeof DEFAULT_CAT.onAccept>>[0],
    rejection: Candidate['cat'],
    race: boolean,
    undefRead: boolean,
    solution: number,
  ) => {
    // `solution` < 0: values the program cannot produce, the state unknown; else the valuation
    // loaded (a value cycle has one per solution). A state the filter leaves out is not the test's.
    const valuesOk = solution >= 0;
    const vals = valuesOk && catObserve(v, buf) ? buf : null;
    if (valuesOk && vals === null) return;
    const c: Candidate = {
      variant: v.index,
      rf: v.rfSrc.slice(),
      co: v.coRank.slice(),
      info: {
        consistent: rejection === null,
        state: vals ? stateText(valuesRecord(front.labels, vals, shown)) : null,
        category:
          rejection !== null
            ? 'forbidden'
            : race
              ? 'racy'
              : undefRead || Array.from(vals!).some((x) => isUndef(x))
                ? 'undef'
                : 'allowed',
        axiom: rejection?.name ?? null,
      },
      solution: Math.max(0, solution),
      cat: rejection,
    };
    out.push(c);
    truths.set(c, vals && cond ? cond(vals) : vals ? 'true' : 'unknown');
    if (out.length >= MAX_LISTED) en.interrupt();
  };
  const en = new CatEnumeration(front, model, {
    ...DEFAULT_CAT,
    variants,
    prune: false,
    keepExamples: false,
    timeoutMs: LIST_MS,
    onReject: (v, why) => {
      if (why.kind === 'filter') return;
      if (why.kind === 'check') {
        // A rejected candidate reaches a state per valuation (the solutions of a value cycle).
        const rejection = catRejection(
          why.check,
          (e) => v.input.describe(e),
          (n) => VULKAN_AXIOM_WORDS[n],
        );
        if (forEachCatState(v, buf, (k) => push(v, rejection, false, false, k)) === 0)
          push(v, rejection, false, false, -1);
      } else
        push(
          v,
          {
            name: 'values',
            text: `values: the register values are inconsistent (${why.status})`,
            witness: [],
          },
          false,
          false,
          -1,
        );
    },
    onAccept: (v, race, undef, solution) => push(v, null, race, undef, solution),
  });
  const partial = !drain(en, () => out.length, onProgress);
  return { candidates: out, truths, partial, front, model, variants };
}

/** DOT text of listed candidate `c` of a Vulkan run. */
export function vulkanGraph(
  l: VulkanListing,
  c: Candidate,
  title: string,
  edges: readonly EdgeKind[],
  scopes: boolean,
): string {
  const w = c.cat?.witness ?? [];
  const highlight: Highlight | null = c.cat
    ? {
        events: w,
        edges:
          w.length > 1
            ? w.map((e, k) => [e, w[(k + 1) % w.length]!, c.cat!.name] as [number, number, string])
            : [],
      }
    : null;
  return vulkanDot(l.front, c.variant, l.model, l.variants, c.rf, c.co, title, {
    edges,
    scopes,
    highlight,
    solution: c.solution,
  });
}
