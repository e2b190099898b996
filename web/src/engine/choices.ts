/** What the page's pickers offer: models from the cat registry, targets from the processor table. */
import { CAT_MODELS } from '../../../src/cli/cat-models.ts';
import { PROCESSORS } from '../../../src/lower/targets.ts';
import { familyMachine } from '../../../src/sim/config.ts';
import type { TargetInfo } from './protocol.ts';

/** The `--model` names the page offers: the fast search, then every cat model of the registry. */
export function modelNames(): string[] {
  return ['amdgpu', ...Object.keys(CAT_MODELS)];
}

/** The targets the page offers: every processor with a code-sequence table. */
export function targetInfos(): TargetInfo[] {
  return PROCESSORS.filter((p) => p.table !== null).map((p) => ({
    name: p.name,
    generation: p.generation,
    wgpMode: p.features.wgpMode === true,
    tgsplit: p.features.tgsplit === true,
    llc: p.llc,
    machine: familyMachine(p.table!, p.generation) !== null,
  }));
}
