import { describe, expect, it } from 'vitest';
import type { Mutant } from '../check/mutate.ts';
import { readResults } from './read.ts';
import {
  CampaignSummarySchema,
  escapeHtml,
  formatSummary,
  htmlReport,
  SLOWEST,
  summarise,
  summaryStatus,
} from './report.ts';
import {
  fileOf,
  HEADER,
  HOSTILE,
  HOSTILE_TEST,
  jsonl,
  MP,
  MUTATION,
  MUTATION_2,
  SB,
  SHARD_0,
  SHARD_1,
} from './report-fixture.ts';
import { mergeMutations, mergeResults } from './results.ts';
import { type Line, LineSchema } from './schema.ts';

const FILE = 'results.jsonl';

/** A results file's text read as its bytes. */
function read(text: string) {
  return readResults(new TextEncoder().encode(text), FILE);
}

/** The lines a file read holds, in the file's order. */
function linesOf(r: ReturnType<typeof read>): Line[] {
  return [...(r.header ? [r.header] : []), ...r.tests, ...r.mutations];
}

describe('the fixture', () => {
  it('is valid per the results format (else the report would be tested on lines no campaign writes)', () => {
    for (const l of [...SHARD_0, MUTATION_2]) expect(LineSchema.parse(l)).toEqual(l);
  });
});

describe('readResults (src/campaign/read.ts)', () => {
  it('reads every line of a good file, without a diagnostic', () => {
    const r = read(jsonl(SHARD_0));
    expect(r.diagnostics).toEqual([]);
    expect(linesOf(r)).toEqual(SHARD_0);
  });

  it('skips blank lines and reads \\r\\n line breaks', () => {
    const text = jsonl(SHARD_0).replace(/\n/g, '\r\n').replace(/\r\n/, '\r\n\r\n');
    const r = read(text);
    expect(r.diagnostics).toEqual([]);
    expect(linesOf(r)).toHaveLength(SHARD_0.length);
  });

  it('a line that is not JSON: an error at its line, the column where JSON.parse stopped', () => {
    const good = jsonl(SHARD_0).split('\n');
    good.splice(2, 0, '{"kind": "test", "hash": }');
    const r = read(good.join('\n'));
    expect(r.diagnostics).toHaveLength(1);
    const [d] = r.diagnostics;
    expect(d).toMatchObject({ code: 'CL1020', severity: 'error', span: { file: FILE, line: 3 } });
    // The other lines are still read.
    expect(linesOf(r)).toHaveLength(SHARD_0.length);
    // The offset is the file's: it points into the bad line.
    const text = good.join('\n');
    expect(text.slice(d!.span.offset - d!.span.col + 1).startsWith('{"kind": "test", "hash": }')).toBe(true);
  });

  it('a line that is JSON but not of the format: an error at the value at fault', () => {
    const bad = JSON.stringify({ ...MP, checks: [MP.checks[0], { ...MP.checks[1], verdict: 'maybe' }] });
    const text = `${JSON.stringify(HEADER)}\n${bad}\n`;
    const r = read(text);
    expect(r.diagnostics).toHaveLength(1);
    const d = r.diagnostics[0]!;
    expect(d.code).toBe('CL1020');
    expect(d.span.line).toBe(2);
    expect(d.span.col).toBe(bad.indexOf('"maybe"') + 1);
    expect(d.span.len).toBe('"maybe"'.length);
    expect(linesOf(r)).toEqual([HEADER]);
  });

  it('a missing field points at its object; an unknown kind at the kind', () => {
    const { hash: _, ...noHash } = MP;
    const noHashText = JSON.stringify(noHash);
    const unknown = JSON.stringify({ kind: 'verdict', x: 1 });
    const r = read(`${JSON.stringify(HEADER)}\n${noHashText}\n${unknown}\n`);
    expect(r.diagnostics.map((d) => [d.code, d.span.line, d.span.col])).toEqual([
      ['CL1020', 2, 1],
      ['CL1020', 3, unknown.indexOf('"verdict"') + 1],
    ]);
  });

  it('another format version is an error at the version', () => {
    const h = JSON.stringify({ ...HEADER, format: 2 });
    const r = read(`${h}\n`);
    expect(r.diagnostics.map((d) => [d.code, d.span.line, d.span.col])).toEqual([
      ['CL1020', 1, h.indexOf('2') + 1],
    ]);
  });

  it('a cut last line (a killed campaign) is a warning, and left out', () => {
    const whole = jsonl(SHARD_0);
    const cut = `${whole}${JSON.stringify(SB).slice(0, 40)}`;
    const r = read(cut);
    expect(r.diagnostics.map((d) => [d.code, d.severity, d.span.line])).toEqual([
      ['CL1021', 'warning', SHARD_0.length + 1],
    ]);
    expect(linesOf(r)).toEqual(SHARD_0);
  });

  it('a cut line followed by a line break is an error: a campaign cuts only its last line', () => {
    const cut = `${jsonl([HEADER])}${JSON.stringify(SB).slice(0, 40)}\n`;
    expect(read(cut).diagnostics.map((d) => [d.code, d.severity])).toEqual([['CL1020', 'error']]);
  });

  it('a file must start with its header, and have one only', () => {
    const noHeader = read(jsonl([MP, SB]));
    expect(noHeader.diagnostics.map((d) => [d.code, d.span.line])).toEqual([['CL1020', 1]]);
    const twice = read(jsonl([HEADER, MP, HEADER]));
    expect(twice.diagnostics.map((d) => [d.code, d.span.line])).toEqual([['CL1020', 3]]);
    const empty = read('\n');
    expect(empty.diagnostics.map((d) => d.code)).toEqual(['CL1020']);
  });

  it('a last line without its line break is torn even when it parses: a write cut short', () => {
    const text = jsonl(SHARD_0).slice(0, -1);
    const r = read(text);
    expect(r.diagnostics.map((d) => [d.code, d.severity, d.span.line])).toEqual([
      ['CL1021', 'warning', SHARD_0.length],
    ]);
    expect(r.torn).toBe(true);
    expect(linesOf(r)).toEqual(SHARD_0.slice(0, -1));
  });

  it('says in bytes where to cut the file to resume: after the whole lines, before the mutation lines', () => {
    const tests = jsonl([HEADER, { ...SB, test: 'SB+sc é' }]);
    const bytes = new TextEncoder().encode(`${tests}\n${jsonl([MUTATION])}{"kind":"te`);
    const r = readResults(bytes, FILE);
    expect(r.torn).toBe(true);
    // The é is two bytes: the offsets are the file's bytes, not its characters.
    expect(r.mutationsAt).toBe(new TextEncoder().encode(tests).length + 1);
    expect(r.validBytes).toBe(bytes.length - '{"kind":"te'.length);
    const whole = read(jsonl(SHARD_0));
    expect(whole).toMatchObject({ torn: false, validBytes: jsonl(SHARD_0).length });
    expect(whole.mutationsAt).toBe(jsonl(SHARD_0.slice(0, -1)).length);
    const none = read(jsonl([HEADER, SB]));
    expect(none.mutationsAt).toBe(none.validBytes);
  });

  it('a test line after the mutation lines is an error: a resume cuts the file there', () => {
    const r = read(jsonl([HEADER, MUTATION, SB]));
    expect(r.diagnostics.map((d) => [d.code, d.span.line])).toEqual([['CL1020', 3]]);
    expect(r.tests).toEqual([]);
  });

  it('a line that is not UTF-8 is an error at its line; the caret offsets count the text, not bytes', () => {
    const head = new TextEncoder().encode(`${JSON.stringify({ ...HEADER, version: 'é' })}\n`);
    const bytes = new Uint8Array([...head, 0xe9, 0x0a]);
    const r = readResults(bytes, FILE);
    expect(r.diagnostics.map((d) => [d.code, d.span.line, d.span.offset])).toEqual([
      ['CL1020', 2, head.length - 1],
    ]);
  });
});

describe('summarise', () => {
  const s = summarise([fileOf(SHARD_0)]);

  it('counts the tests and the model verdicts', () => {
    expect(s.tests).toBe(3);
    expect(s.duplicates).toBe(0);
    expect(s.model).toEqual({ allowed: 1, forbidden: 1, unknown: 1, undecided: 0, 'no-condition': 0 });
    expect(s.shards).toEqual([{ index: 0, count: 2 }]);
  });

  it("counts the verdicts per target, mode and lowering, in the campaign's order", () => {
    expect(
      s.checks.map((c) => [
        c.target,
        c.mode,
        c.lowering,
        c.counts.sound,
        c.counts.UNSOUND,
        c.counts.unsupported,
        c.counts.undecided,
      ]),
    ).toEqual([
      ['gfx942', 'cu', 'doc', 2, 1, 0, 0],
      ['gfx942', 'cu', 'llc', 0, 1, 0, 1],
      ['gfx1200', 'wgp', 'doc', 2, 0, 0, 0],
      ['gfx1200', 'wgp', 'llc', 0, 0, 2, 0],
    ]);
  });

  it('lists each UNSOUND check with its outcome, placement and trace length', () => {
    expect(s.unsound).toEqual([
      {
        test: HOSTILE,
        hash: HOSTILE_TEST.hash,
        file: 'gen:hostile',
        target: 'gfx942',
        mode: 'cu',
        lowering: 'doc',
        values: { '0:r0': 'undef', '1:r0': 2 },
        placement: 'P0 and P1 on different CUs',
        steps: 2,
      },
      {
        test: 'MP+rel+acq',
        hash: MP.hash,
        file: MP.file,
        target: 'gfx942',
        mode: 'cu',
        lowering: 'llc',
        values: { '1:r0': 1, '1:r1': 0 },
        placement: 'P0 and P1 on different CUs',
        steps: 3,
      },
    ]);
  });

  it('gives the mutation score, the slowest tests and the total time', () => {
    expect(s.mutation).toEqual([{ target: 'gfx942', mode: 'cu', tests: 3, score: MUTATION.score }]);
    expect(s.slowest.map((t) => [t.test, t.ms])).toEqual([
      [HOSTILE, 3000],
      ['MP+rel+acq', 120],
      ['SB+sc', 5],
    ]);
    expect(s.ms).toBe(3125);
  });

  it('is valid per its schema, through JSON', () => {
    expect(CampaignSummarySchema.parse(JSON.parse(JSON.stringify(s)))).toEqual(s);
  });

  it('reads shards together: each test once, mutation lines merged (a mutant killed in one shard is killed)', () => {
    const both = summarise([fileOf(SHARD_1), fileOf(SHARD_0)]);
    expect(both.tests).toBe(3);
    expect(both.duplicates).toBe(1);
    expect(both.shards).toEqual([
      { index: 0, count: 2 },
      { index: 1, count: 2 },
    ]);
    expect(both.checks.find((c) => c.target === 'gfx942' && c.lowering === 'llc')?.counts.UNSOUND).toBe(1);
    const [m] = both.mutation;
    // Over the tests of both shards, MP (in both) once.
    expect(m).toMatchObject({ tests: 3, score: { mutants: 3, killed: 2, undecided: 1, value: 1 } });
  });

  it('keeps the ten slowest tests', () => {
    const many: Line[] = [HEADER];
    for (let k = 0; k < 15; k++)
      many.push({ ...SB, hash: k.toString(16).padStart(32, '0'), test: `T${k}`, ms: k * 10 });
    const slow = summarise([fileOf(many)]).slowest;
    expect(slow).toHaveLength(SLOWEST);
    expect(slow[0]).toMatchObject({ test: 'T14', ms: 140 });
    expect(slow.at(-1)).toMatchObject({ test: 'T5', ms: 50 });
  });
});

describe('mergeMutations (src/campaign/results.ts): the one merge of merge and report', () => {
  const survivor = (cls: Mutant['class']): Mutant => ({
    ...MUTATION.mutants[1]!,
    class: cls,
  });
  const line = (m: Mutant) => ({ ...MUTATION, mutants: [m] });

  it('ranks the class of a mutant that survives every shard, whichever shard comes first', () => {
    const a = { tests: [MP], mutations: [line(survivor('test-missing'))] };
    const b = { tests: [SB], mutations: [line(survivor('redundant'))] };
    for (const files of [
      [a, b],
      [b, a],
    ])
      expect(mergeMutations(files)[0]!.mutants[0]!.class).toBe('redundant');
  });

  it('counts the distinct tests of the files holding the line: a file given twice counts once', () => {
    const shard0 = fileOf(SHARD_0);
    expect(mergeMutations([shard0, shard0])[0]).toMatchObject({ tests: 3, score: MUTATION.score });
    expect(mergeMutations([shard0, fileOf(SHARD_1)])[0]!.tests).toBe(3);
    // A file without a line for the target and mode adds no tests to it.
    expect(mergeMutations([shard0, fileOf([HEADER, { ...SB, hash: 'f'.repeat(32) }])])[0]!.tests).toBe(3);
  });

  it('gives a report of the merged file what a report of the shards says', () => {
    const shards = [fileOf(SHARD_0), fileOf(SHARD_1)];
    const merged = summarise([fileOf(mergeResults(shards))]);
    const apart = summarise(shards);
    expect({ ...merged, shards: [], duplicates: 0 }).toEqual({ ...apart, shards: [], duplicates: 0 });
  });
});

describe('summaryStatus', () => {
  const base = summarise([fileOf([HEADER, SB])]);
  it('is 1 for an UNSOUND check, else 3 for an undecided one, else 0; unsupported changes nothing', () => {
    expect(summaryStatus(summarise([fileOf(SHARD_0)]))).toBe(1);
    expect(summaryStatus(base)).toBe(0);
    expect(summaryStatus(summarise([fileOf([HEADER, { ...SB, checks: [MP.checks[3]!] }])]))).toBe(0);
    expect(summaryStatus(summarise([fileOf([HEADER, { ...SB, checks: [HOSTILE_TEST.checks[1]!] }])]))).toBe(
      3,
    );
    expect(summaryStatus({ ...base, model: { ...base.model, undecided: 1 } })).toBe(3);
  });
});

describe('formatSummary', () => {
  const text = formatSummary(summarise([fileOf(SHARD_0)]));
  const lines = text.split('\n');

  it('opens with the tests, the shard, the time and the model verdicts', () => {
    expect(lines[0]).toBe('Campaign: 3 tests, shard 0/2, 3.1 s of test time');
    expect(lines[1]).toBe('Model: 1 allowed, 1 forbidden, 1 unknown, 0 undecided, 0 no-condition');
  });

  it('has the checks as an aligned table', () => {
    const at = lines.indexOf('Checks:');
    expect(lines.slice(at + 1, at + 6)).toEqual([
      '  target   mode  lowering  sound  UNSOUND  unsupported  undecided',
      '  gfx942   cu    doc           2        1            0          0',
      '  gfx942   cu    llc           0        1            0          1',
      '  gfx1200  wgp   doc           2        0            0          0',
      '  gfx1200  wgp   llc           0        0            2          0',
    ]);
  });

  it('lists the UNSOUND results, with every name from the file escaped', () => {
    expect(lines).toContain('UNSOUND (2):');
    const row = lines.find((l) => l.includes('alert(1)'));
    expect(row).toMatch(
      /^ {2}<script>alert\(1\)<\/script>\\x1b\[31m {2}gfx942 {2}cu {4}doc {7}0:r0=undef; 1:r0=2; {2}2 steps {2}P0 and P1/,
    );
    expect(text).not.toContain('\x1b');
  });

  it('gives the mutation score and the slowest tests', () => {
    const at = lines.indexOf('Mutation scores:');
    expect(lines.slice(at + 1, at + 3)).toEqual([
      '  target  mode  tests  score  killed  mutants  undecided',
      '  gfx942  cu        3  50.0%       1        3          1',
    ]);
    const slow = lines.indexOf('Slowest tests:');
    // The escaped name is the widest: \x1b takes four columns.
    expect(lines[slow + 1]).toBe(
      `     ms  ${'test'.padEnd('<script>alert(1)</script>\\x1b[31m'.length)}  file`,
    );
    expect(lines[slow + 2]).toMatch(/^ {2}3,000 {2}<script>/);
  });

  it("a run's summary: its own facts on a line of their own, valid per the one schema", () => {
    const run = summarise([fileOf(SHARD_0)], { ran: 2, interrupted: true, wallMs: 4500 });
    expect(CampaignSummarySchema.parse(JSON.parse(JSON.stringify(run)))).toEqual(run);
    const shown = formatSummary(run, 1).split('\n');
    expect(shown.slice(0, 3)).toEqual([
      'Campaign: 3 tests, shard 0/2, 3.1 s of test time',
      'Run: 2 tests run now in 4.5 s (interrupted)',
      'Model: 1 allowed, 1 forbidden, 1 unknown, 0 undecided, 0 no-condition',
    ]);
    // Limited to one UNSOUND result: the rest counted.
    const at = shown.indexOf('UNSOUND (2):');
    expect(shown[at + 3]).toBe('  … and 1 more (gpumm campaign report, or --json, lists all)');
  });

  it('says when there is nothing UNSOUND', () => {
    expect(formatSummary(summarise([fileOf([HEADER, SB])]))).toContain('\nUNSOUND: none\n');
  });
});

describe('htmlReport', () => {
  const s = summarise([fileOf(SHARD_0)]);
  const page = htmlReport([fileOf(SHARD_0)], s);
  const ids = new Set([...page.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]!));

  it('is one standalone page: no scripts, nothing fetched', () => {
    expect(page.startsWith('<!DOCTYPE html>\n<html lang="en">')).toBe(true);
    expect(page.trimEnd().endsWith('</html>')).toBe(true);
    expect(page).not.toMatch(/<script/i);
    // Every tag is one of a text page's, with no attribute that fetches or runs anything.
    const tags = [...page.matchAll(/<([a-zA-Z][a-zA-Z0-9]*)([^>]*)>/g)];
    const names = new Set(tags.map((t) => t[1]!.toLowerCase()));
    const allowed =
      'html head meta title style body main h1 h2 h3 h4 p table thead tbody tr th td code pre a span section svg rect text';
    expect([...names].filter((n) => !allowed.split(' ').includes(n))).toEqual([]);
    const attrs = tags.flatMap((t) =>
      [...t[2]!.matchAll(/\s([a-zA-Z-]+)="([^"]*)"/g)].map((a) => [a[1]!, a[2]!]),
    );
    expect(attrs.filter(([k]) => /^on|^src$/i.test(k!))).toEqual([]);
    expect(attrs.filter(([k, v]) => k === 'href' && !v!.startsWith('#'))).toEqual([]);
    expect(page).not.toMatch(/url\(|@import/);
    // Nothing that acts on a terminal reaches the page raw either (an ESC, a right-to-left override).
    expect(page).not.toContain('\x1b');
  });

  it('escapes everything from the file', () => {
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page).toContain('&lt;/pre&gt;&lt;script&gt;alert(2)&lt;/script&gt;');
    expect(page).toContain('buffer_wbl2 &lt;img src=x onerror=alert(3)&gt;');
    expect(page).toContain('reads &quot;@x&quot; &amp; more');
  });

  it('has a chart of the verdicts: one accessible SVG with a legend and a bar part per verdict and check', () => {
    expect(page.match(/<svg/g)).toHaveLength(1);
    const svg = page.slice(page.indexOf('<svg'), page.indexOf('</svg>'));
    expect(svg).toMatch(/^<svg role="img" aria-labelledby="chart-title"/);
    expect(svg).toContain('<title id="chart-title">');
    for (const v of ['sound', 'UNSOUND', 'unsupported', 'undecided']) expect(svg).toContain(`>${v}</text>`);
    // Parts: sound, UNSOUND | UNSOUND, undecided | sound | unsupported; and four legend squares.
    expect(svg.match(/<rect /g)).toHaveLength(4 + 6);
    expect(svg).toContain('<title>gfx942 cu doc: 1 UNSOUND</title>');
  });

  it('links each UNSOUND result to its section, which has the test and the trace as a table', () => {
    const links = [...page.matchAll(/href="#([^"]+)"/g)].map((m) => m[1]!);
    for (const l of links) expect(ids.has(l), l).toBe(true);
    expect(links.filter((l) => l.startsWith('unsound-'))).toEqual(['unsound-1', 'unsound-2']);
    const section = (id: string) =>
      page.slice(
        page.indexOf(`<section class="unsound" id="${id}"`),
        page.indexOf('</section>', page.indexOf(`id="${id}"`)),
      );
    const hostile = section('unsound-1');
    expect(hostile).toContain('<pre>AMDGPU &lt;script&gt;');
    expect(hostile.match(/<tr>/g)).toHaveLength(1 + 2);
    const mp = section('unsound-2');
    // No source in the line: the file it was read from.
    expect(mp).toContain('<code>litmus/catalogue/MP+rel+acq.litmus</code>');
    expect(mp.match(/<tr>/g)).toHaveLength(1 + 3);
    expect(mp).toContain(
      '<td>P1</td><td>issue</td><td><code>global_load_dword</code></td><td>reads @x = 0 from its L1</td>',
    );
  });

  it('has headings and scoped header cells', () => {
    expect(page.match(/<h1>/g)).toHaveLength(1);
    expect(page).toContain('<h2>Checks</h2>');
    expect(page).not.toMatch(/<th(?! scope="(col|row)")[ >]/);
  });
});

describe('escapeHtml', () => {
  it('escapes the five characters HTML gives meaning, and nothing else', () => {
    expect(escapeHtml(`<a href="x">'&'</a> é`)).toBe(
      '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt; é',
    );
  });
});
