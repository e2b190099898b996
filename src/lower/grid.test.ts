/**
 * Golden baselines: the full cross-product of each table, one readable file per target profile
 * (src/lower/baselines/<target>.grid.txt). After reading a diff, accept it with
 * `npm run baseline:accept`.
 */

import { describe, expect, it } from 'vitest';
import { renderGrid } from './grid.ts';
import { findTarget } from './targets.ts';

// gfx600: no flat; gfx700: GFX7–8 encodings (buffer for global); gfx900: global/scratch;
// gfx90a, gfx942: GFX9.4 with TgSplit columns (gfx950 lowers as gfx942: lower.test.ts);
// gfx1010/gfx1100: GFX10 and GFX11 (dlc rules differ); gfx1200: GFX12; gfx1250: GFX12.5 (gfx1251
// lowers as gfx1250: lower.test.ts). Intel Xe: one platform per fence-lowering group — dg2 (DG2, MTL,
// ARL), pvc, lnl (LNL, BMG, PTL); the others lower as their group's (intel.test.ts).
const PROFILES = [
  'gfx600',
  'gfx700',
  'gfx900',
  'gfx90a',
  'gfx942',
  'gfx1010',
  'gfx1100',
  'gfx1200',
  'gfx1250',
  'dg2',
  'pvc',
  'lnl',
];

describe('lowering grid baselines', () => {
  it.each(PROFILES)('%s', async (name) => {
    const t = findTarget(name)!;
    await expect(renderGrid(t)).toMatchFileSnapshot(`./baselines/${name}.grid.txt`);
  });
});
