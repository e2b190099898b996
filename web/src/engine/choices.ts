/** What the page's pickers offer: models from the registry, targets from the processor table. */

import { PROCESSORS } from '../../../src/lower/targets.ts';
import { language, MODELS } from '../../../src/run/registry.ts';
import { familyMachine } from '../../../src/sim/config.ts';
import type { Language, TargetChoice, TargetInfo } from './protocol.ts';

/** A model the page offers: its `--model` name, whether it is a fast search, and its language. */
export interface ModelInfo {
  name: string;
  fast: boolean;
  language: Language;
}

/**
 * The `--model` names the page offers, as `gpumm run --model` takes them: every model of the
 * registry (src/run/registry.ts), the fast searches first.
 */
export function modelInfos(): ModelInfo[] {
  return MODELS.map((m) => ({
    name: m.name,
    fast: m.engine === 'fast',
    language: language(m.language).name,
  }));
}

/** The `--model` names the page offers. */
export function modelNames(): string[] {
  return modelInfos().map((m) => m.name);
}

/** The targets the page offers: every processor with a code-sequence table. */
export function targetInfos(): TargetInfo[] {
  return PROCESSORS.filter((p) => p.table !== null).map((p) => ({
    name: p.name,
    generation: p.generation,
    vendor: p.vendor,
    wgpMode: p.features.wgpMode === true,
    tgsplit: p.features.tgsplit === true,
    llc: p.llc,
    machine: familyMachine(p.table!, p.generation) !== null,
  }));
}

/**
 * The runs the hardware check covers, as `gpumm check --all-targets` does: each target with a
 * machine (every AMD family, every Intel Xe group), in each of its modes (CU and WGP on GFX10–GFX12),
 * with and without TgSplit where it exists.
 */
export function checkRuns(targets: TargetInfo[]): TargetChoice[] {
  return targets
    .filter((t) => t.machine)
    .flatMap((t) => [
      ...(t.wgpMode ? (['cu', 'wgp'] as const) : (['cu'] as const)).map((mode) => ({
        target: t.name,
        mode,
        lang: 'hsa' as const,
        tgsplit: false,
      })),
      // TgSplit places a work-group's waves on several CUs: a machine configuration of its own.
      ...(t.tgsplit ? [{ target: t.name, mode: 'cu' as const, lang: 'hsa' as const, tgsplit: true }] : []),
    ]);
}
