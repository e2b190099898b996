import { describe, expect, it } from 'vitest';
import { decodeShare, encodeShare } from './share.ts';

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
});
