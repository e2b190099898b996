import { describe, expect, it } from 'vitest';
import type { RunSettings } from './engine/protocol.ts';
import { decodeShare, encodeShare, settingsFromParams, settingsParams } from './share.ts';

describe('share links', () => {
  it('give back the test and the choices they were made from', async () => {
    const s = { text: 'AMDGPU T\n; é 𝄞\n', params: { model: 'rc11', tab: 'code' } };
    expect(await decodeShare(await encodeShare(s))).toEqual(s);
  });

  it('a damaged link is no test (a fragment without a z. or b. form loaded its bytes into the editor)', async () => {
    for (const h of ['#t=AAAA', `#t=${'A'.repeat(500)}`, '#t=z.!!!', '#t=b.%FF%FE', '#model=rc11']) {
      expect(await decodeShare(h), h).toBeNull();
    }
  });

  it('carry the model options, Vulkan ones included, and ignore values a link should not hold', async () => {
    const base: RunSettings = {
      noThinAir: true,
      valueRules: 'literal',
      observe: 'all',
      vulkan: { unroll: 2, chains: true, fr: 'dartagnan', deviceScope: 'system' },
    };
    const mine: RunSettings = {
      noThinAir: false,
      valueRules: 'repaired',
      observe: 'condition',
      vulkan: { unroll: 5, chains: false, fr: 'literal', deviceScope: 'agent' },
    };
    const link = await encodeShare({ text: 'VULKAN T', params: settingsParams(mine) });
    const back = await decodeShare(link);
    expect(settingsFromParams(back!.params, base)).toEqual(mine);
    // Links made before the options were part of them, and damaged values, keep the page's own.
    expect(settingsFromParams({}, base)).toEqual(base);
    const bad = {
      thinair: 'yes',
      values: 'x',
      observe: '',
      unroll: '1e9',
      chains: '2',
      fr: 'x',
      device: 'host',
    };
    expect(settingsFromParams(bad, base)).toEqual(base);
    expect(settingsFromParams({ unroll: '65' }, base).vulkan.unroll).toBe(2);
    expect(settingsFromParams({ unroll: '64' }, base).vulkan.unroll).toBe(64);
  });
});
