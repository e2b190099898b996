import { describe, expect, it } from 'vitest';
import { analyse, editorDiagnostic, shownDiagnostics } from './diagnostics.ts';

const BAD = `AMDGPU Bad
@x = addrspace(1) global i32 0
P0 @ agent 0, workgroup 0 {
  store atomic i32 1, ptr addrspace(1) @x syncscope("agnet") release
}
`;

describe("the page's list of the test's problems", () => {
  it('after a Run of a test that does not parse, shows each parser diagnostic once (it showed them twice)', () => {
    const parsed = analyse(BAD).diagnostics;
    expect(parsed.map((d) => d.code)).toEqual(['LT2006']);
    // What the worker answers for a test that does not parse: the same diagnostics.
    expect(shownDiagnostics(BAD, { text: BAD, test: parsed })).toEqual(parsed);
  });

  it("adds the Run's model diagnostics for the same text only", () => {
    const good = BAD.replace('agnet', 'agent');
    const md = editorDiagnostic({ code: 'MD004', severity: 'warning', message: 'not decided' }, 'test');
    expect(shownDiagnostics(good, { text: good, test: [md] }).map((d) => d.code)).toEqual(['MD004']);
    // Once the text changes, the Run's findings are about another test.
    expect(shownDiagnostics(`${good}\n`, { text: good, test: [md] })).toEqual([]);
  });
});
