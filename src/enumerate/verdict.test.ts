import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CatEnumeration, DEFAULT_CAT } from '../cat/enumerate.ts';
import { loadModel } from '../cat/load.ts';
import { runCat, variantsOf } from '../cat/report.ts';
import { CATALOGUE_DIR } from '../cli/demo.ts';
import { litmusFilesIn } from '../cli/io.ts';
import type { Expectation } from '../core/types.ts';
import {
  and,
  cas,
  cond,
  eq,
  extract,
  fence,
  ld,
  makeTest,
  mem,
  or,
  reg,
  rmw,
  st,
  threads,
} from '../events/build.ts';
import { DEFAULT_OPTIONS } from '../models/amdgpu.ts';
import { states } from '../models/testutil.ts';
import { parseAnyTest } from '../run/syntaxes.ts';
import { parse } from '../syntax/parser.ts';
import type { VulkanTest } from '../vulkan/ast.ts';
import { DEFAULT_VK_RUN, runVulkan } from '../vulkan/run.ts';
import { enumerate, estimateCandidates, multinomial } from './enumerate.ts';
import { MAX_MODEL_EVENTS, SLICE_EXECUTIONS } from './limits.ts';
import { buildReport, formatReport, type Report } from './report.ts';
import { runTestParallel } from './run-parallel.ts';
import {
  DEFAULT_RUN,
  eventBound,
  explain,
  modelDiagnostics,
  runTestSync,
  type SearchProgress,
  UNDECIDED_CODES,
} from './verdict.ts';

const mpRelaxed = (c: ReturnType<typeof cond>) =>
  makeTest({
    locs: { x: 0, f: 0 },
    threads: threads([
      [st('x', 1), st('f', 1, 'monotonic')],
      [ld('a', 'f', 'monotonic'), ld('d', 'x')],
    ]),
    cond: c,
  });

/** The report of an enumeration run with options of its own. */
const reportOf = (t: Parameters<typeof buildReport>[0], en: ReturnType<typeof enumerate>): Report =>
  buildReport(t, en, DEFAULT_OPTIONS, { estimate: 0, ms: 0 });

/** models/vulkan.cat. */
function vkCat() {
  const f = join(CATALOGUE_DIR, '..', 'models', 'vulkan.cat');
  return loadModel(readFileSync(f, 'utf8'), f, () => null).model;
}

describe('verdicts', () => {
  it('values out of thin air: the LB+data catalogue tests, with and without no-thin-air', () => {
    // docs/model.md, "Values out of thin air": without no-thin-air the cycle r0 = r1 takes the
    // condition's 42 among its solutions; r0 = r0 + 1 takes none, so only the solver decides it.
    const run = (name: string, noThinAir: boolean) => {
      const file = join(CATALOGUE_DIR, `${name}.litmus`);
      const { test } = parse(readFileSync(file, 'utf8'), file);
      const model = { ...DEFAULT_RUN.model, noThinAir };
      return runTestSync(test!, { ...DEFAULT_RUN, model }).condition?.verdict;
    };
    expect(run('LB+data.agent.oota', true)).toBe('fails');
    expect(run('LB+data.agent.oota', false)).toBe('holds');
    expect(run('LB+data+inc.agent.oota', true)).toBe('fails');
    expect(run('LB+data+inc.agent.oota', false)).toBe('fails');
  });

  it('a slice of the search ends after SLICE_EXECUTIONS executions: budgets hold when a candidate stands for many', () => {
    // Five LB+data pairs without no-thin-air: 2,046 search nodes, 371,293 executions (each value
    // cycle has 13 solutions). A slice of 4,096 nodes used to run all of them, past --timeout.
    const pairs = Array.from({ length: 5 }, (_, i) => [
      [ld('r', `x${i}`, 'monotonic'), st(`y${i}`, 'r', 'monotonic')],
      [ld('r', `y${i}`, 'monotonic'), st(`x${i}`, 'r', 'monotonic')],
    ]).flat();
    const locs = Object.fromEntries(
      Array.from({ length: 5 }, (_, i) => [
        [`x${i}`, 0],
        [`y${i}`, 0],
      ]).flat(),
    );
    // The condition's constants (42 + i, with their neighbours) widen each cycle's domain.
    const c = cond('exists', and(...Array.from({ length: 5 }, (_, i) => eq(reg(`P${2 * i}`, 'r'), 42 + i))));
    const t = makeTest({ locs, threads: threads(pairs), cond: c });
    const model = { ...DEFAULT_RUN.model, noThinAir: false };
    const whole = enumerate(t, { model }).stats.consistent;
    expect(whole).toBe(13 ** 5);
    // The fast search looks at its budgets after every slice: a 1 ms timeout stops it after the
    // first (it used to be the whole search, 2,046 nodes being under one slice's 4,096).
    const fast = enumerate(t, { model, timeoutMs: 1 });
    expect(fast.stop).toBe('timeout');
    const catFile = join(CATALOGUE_DIR, '..', 'models', 'amdgpu.cat');
    const catModel = loadModel(readFileSync(catFile, 'utf8'), catFile, () => null).model;
    const cat = new CatEnumeration(t, catModel, { ...DEFAULT_CAT, variants: variantsOf(model) });
    expect(cat.step(1 << 20)).toBe(false);
    expect(cat.stats.consistent).toBeGreaterThanOrEqual(SLICE_EXECUTIONS);
    for (const en of [fast, cat]) {
      expect(en.stats.consistent).toBeLessThan(whole);
    }
  });

  it('the up-front estimate stays a number for many writes to a location (it was NaN past 170)', () => {
    const chains = (n: number, per: number) =>
      makeTest({
        locs: { x: 0 },
        threads: threads(
          Array.from({ length: n }, () => Array.from({ length: per }, (_, i) => st('x', i + 1))),
        ),
      });
    // One thread: one coherence order of its writes, whatever their number.
    expect(estimateCandidates(chains(1, 200))).toBe(1);
    // Two threads of 2 writes: the 4!/(2!·2!) = 6 interleavings.
    expect(estimateCandidates(chains(2, 2))).toBe(6);
    expect(multinomial([200, 200])).toBeCloseTo(1.0295e119, -115);
    expect(Number.isNaN(estimateCandidates(chains(2, 200)))).toBe(false);
  });

  it('refuses a test of more events than the model decides, before building anything (MD007, undecided)', () => {
    const stores = (n: number) =>
      makeTest({ locs: { x: 0 }, threads: threads([Array.from({ length: n }, (_, i) => st('x', i + 1))]) });
    // One instruction per event, and the initial write of @x.
    expect(eventBound(stores(10))).toBe(11);
    expect(modelDiagnostics(stores(MAX_MODEL_EVENTS - 1))).toEqual([]);
    // 200,000 stores: building the relations took tens of GB and could not be stopped by --timeout.
    const md = modelDiagnostics(stores(200_000));
    expect(md.map((d) => d.code)).toEqual(['MD007']);
    expect(md[0]!.message).toContain('200001 events');
    expect(UNDECIDED_CODES).toContain('MD007');
  });

  it('a condition over an undef value is unknown (three-valued), never silently true or false', () => {
    const r = runTestSync(mpRelaxed(cond('exists', eq(reg('P1', 'd'), 0))));
    expect(r.condition?.verdict).toBe('unknown');
    expect(r.witnesses).toEqual({ positive: 0, negative: 0, unknown: 2 });
    // `== undef` is a syntactic test and decides.
    expect(runTestSync(mpRelaxed(cond('forall', eq(reg('P1', 'd'), 'undef')))).condition?.verdict).toBe(
      'holds',
    );
    // Kleene logic: false ∧ unknown is false.
    const fa = runTestSync(mpRelaxed(cond('exists', and(eq(reg('P1', 'a'), 7), eq(reg('P1', 'd'), 0)))));
    expect(fa.condition?.verdict).toBe('fails');
    const tu = runTestSync(mpRelaxed(cond('forall', or(eq(reg('P1', 'a'), 0), eq(reg('P1', 'a'), 1)))));
    expect(tu.condition?.verdict).toBe('holds');
  });

  it('flags an undef final value (undef-final), also without a data race; never-written locations are not flagged', () => {
    // Two plain writes ordered by hb through amdgcn-av none release/acquire: no race, but nothing
    // makes the first available, so it is not location-ordered before the second (choice 23).
    const t = makeTest({
      locs: { x: 0, f: 0, u: 'undef' },
      threads: threads([
        [st('x', 1), st('f', 1, 'release', { avNone: true })],
        [ld('a', 'f', 'acquire', { avNone: true }), st('x', 2)],
      ]),
      cond: cond('exists', and(eq(reg('P1', 'a'), 1), eq(mem('x'), 'undef'), eq(mem('u'), 'undef'))),
    });
    const r = runTestSync(t);
    const synced = r.states.filter((s) => s.values['P1:a'] === 1);
    expect(synced.map((s) => [s.values['@x'], s.race, s.undefFinal])).toEqual([['undef', false, true]]);
    expect(r.flags.undefFinal).toBe(true);
    expect(formatReport(r)).toContain('Flag undef-final');
    // @u is undef in every state but nothing writes it: only the undef @x sets the flag.
    const only = runTestSync({ ...t, threads: t.threads.map((th) => ({ ...th, body: [] })) });
    expect(only.states.map((s) => s.values['@u'])).toEqual(['undef']);
    expect(only.flags.undefFinal).toBe(false);
  });

  it('quantifiers: ~exists holds when no state satisfies the condition', () => {
    const t = makeTest({
      locs: { x: 0, y: 0 },
      threads: threads([
        [st('x', 1, 'seq_cst'), ld('a', 'y', 'seq_cst')],
        [st('y', 1, 'seq_cst'), ld('b', 'x', 'seq_cst')],
      ]),
      cond: cond('not exists', and(eq(reg('P0', 'a'), 0), eq(reg('P1', 'b'), 0))),
    });
    const r = runTestSync(t);
    expect(r.condition?.verdict).toBe('holds');
    expect(r.flags).toEqual({ race: false, undef: false, undefFinal: false, ub: false });
  });

  it('a cmpxchg that reads undef may succeed or fail; its success flag is the outcome taken', () => {
    const t = makeTest({
      locs: { x: 'undef' },
      threads: threads([[cas('p', 'x', 0, 1, 'monotonic'), extract('ok', 'p', 1)]]),
      cond: cond('exists', eq(reg('P0', 'ok'), 1)),
    });
    const r = runTestSync(t);
    expect(r.states.map((s) => s.values['P0:ok'])).toEqual([0, 1]);
    expect(r.flags.undef).toBe(true);
  });

  it('observables: the condition terms in condition order, then every register a read writes (choice 28)', () => {
    // P1's add is no read and P0's cmpxchg result is named only through its pair: the pair's
    // register is the read's; the condition's terms come first, in the condition's order.
    const t = makeTest({
      locs: { x: 0, y: 0 },
      threads: threads([
        [ld('a', 'x'), cas('p', 'y', 0, 1, 'monotonic'), extract('ok', 'p', 1)],
        [rmw('b', 'add', 'x', 1, 'monotonic'), ld('c', 'y', 'monotonic')],
      ]),
      cond: cond('exists', and(eq(mem('y'), 1), eq(reg('P1', 'c'), 0), eq(reg('P0', 'ok'), 1))),
    });
    const r = runTestSync(t);
    expect(Object.keys(r.states[0]!.values)).toEqual(['@y', 'P1:c', 'P0:ok', 'P0:a', 'P0:p', 'P1:b']);
    // --observe condition keeps the condition's terms only.
    const c = runTestSync(t, { ...DEFAULT_RUN, observe: 'condition' });
    expect(Object.keys(c.states[0]!.values)).toEqual(['@y', 'P1:c', 'P0:ok']);
  });

  it('--explain names the first violated axiom in checking order and groups identical explanations (choice 29)', () => {
    // LB with release/acquire (system scope): the selected candidate breaks no-thin-air, hb-acyclic and the value
    // rules at once; the explanation names the first in AMDGPU_AXIOMS order.
    const lb = makeTest({
      locs: { x: 0, y: 0 },
      threads: threads([
        [ld('a', 'x', 'acquire'), st('y', 1, 'release')],
        [ld('b', 'y', 'acquire'), st('x', 1, 'release')],
      ]),
      cond: cond('exists', and(eq(reg('P0', 'a'), 1), eq(reg('P1', 'b'), 1))),
    });
    const first = explain(lb, DEFAULT_RUN);
    expect(first.map((g) => [g.state, g.axiom, g.count])).toEqual([['P0:a=1; P1:b=1;', 'no-thin-air', 1]]);
    const noOota = explain(lb, { ...DEFAULT_RUN, model: { ...DEFAULT_RUN.model, noThinAir: false } });
    expect(noOota.map((g) => [g.state, g.axiom, g.count])).toEqual([['P0:a=1; P1:b=1;', 'hb-acyclic', 1]]);
    // Every candidate is examined, also one whose read takes undef where the value rules give a
    // write; the two coherence orders of x behind one state and witness make one group of two.
    const undefRead = makeTest({
      locs: { x: 0 },
      threads: threads([[st('x', 1, 'monotonic')], [st('x', 2, 'monotonic')], [ld('a', 'x', 'monotonic')]]),
      cond: cond('exists', eq(reg('P2', 'a'), 'undef')),
    });
    expect(explain(undefRead, DEFAULT_RUN).map((g) => [g.state, g.axiom, g.count])).toEqual([
      ['P2:a=undef;', 'value-rules', 2],
    ]);
  });

  it('a seq_cst load is no MakeAvailable and a seq_cst store no MakeVisible', () => {
    // The release fence is marked amdgcn-av none, so only the seq_cst load could make x available.
    const t = makeTest({
      locs: { x: 0, f: 0, g: 0 },
      threads: threads([
        [st('x', 1), ld('a', 'g', 'seq_cst'), fence('release', { avNone: true }), st('f', 1, 'monotonic')],
        [ld('b', 'f', 'acquire'), ld('d', 'x')],
      ]),
    });
    expect(states(t).filter((s) => s.includes('P1:b=1'))).toEqual(['P0:a=0 P1:b=1 P1:d=undef']);
    const withAv = makeTest({
      ...t,
      locs: { x: 0, f: 0, g: 0 },
      threads: threads([
        [st('x', 1), ld('a', 'g', 'seq_cst'), fence('release'), st('f', 1, 'monotonic')],
        [ld('b', 'f', 'acquire'), ld('d', 'x')],
      ]),
    });
    expect(states(withAv).filter((s) => s.includes('P1:b=1'))).toEqual(['P0:a=0 P1:b=1 P1:d=1']);
  });

  it('a search that visited everything is complete, even at a budget on the way', () => {
    // Relaxed MP has 2 final states: --max-states 2 keeps them both, and the search is complete.
    const r = runTestSync(mpRelaxed(cond('exists', eq(reg('P1', 'a'), 1))), { ...DEFAULT_RUN, maxStates: 2 });
    expect(r.states).toHaveLength(2);
    expect([r.complete, r.stop]).toEqual([true, 'done']);
  });

  it('--max-states n keeps n states and stops at the next one, in every search (it was checked per slice of 4,096 nodes)', async () => {
    // CO n (every thread stores its value, then loads x): the fast search takes its tails as
    // products, with and without thread symmetry (the first slice found 1,881 states of CO 6
    // whatever the limit), or leaf by leaf; the cat enumerator, the fast Vulkan search and the
    // merge of worker slices step in their own ways.
    const co = (n: number) =>
      makeTest({
        locs: { x: 0 },
        threads: threads(
          Array.from({ length: n }, (_, i) => [st('x', i + 1, 'monotonic'), ld('r', 'x', 'monotonic')]),
        ),
      });
    const co5 = co(5);
    const co4 = co(4);
    const catFile = join(CATALOGUE_DIR, '..', 'models', 'amdgpu.cat');
    const cat = loadModel(readFileSync(catFile, 'utf8'), catFile, () => null).model;
    const vkFile = join(CATALOGUE_DIR, '..', 'corpus', 'vulkan-dat3m', 'Manual', 'asmo-atom-inscope.litmus');
    const vk = parseAnyTest(readFileSync(vkFile, 'utf8'), vkFile).test as VulkanTest;
    const runs: [string, (maxStates: number) => Promise<Report> | Report][] = [
      ['fast', (maxStates) => runTestSync(co5, { ...DEFAULT_RUN, maxStates })],
      ['fast, no symmetry', (maxStates) => reportOf(co5, enumerate(co5, { maxStates, symmetry: false }))],
      ['fast, no products', (maxStates) => reportOf(co4, enumerate(co4, { maxStates, prune: false }))],
      ['cat', (maxStates) => runCat(co4, cat, DEFAULT_OPTIONS, { maxStates })],
      ['vulkan', (maxStates) => runVulkan(vk, { ...DEFAULT_VK_RUN, maxStates })],
      [
        'vulkan cat',
        (maxStates) => runVulkan(vk, { ...DEFAULT_VK_RUN, engine: 'cat', model: vkCat(), maxStates }),
      ],
      [
        'workers',
        async (maxStates) => (await runTestParallel(co5, { ...DEFAULT_RUN, maxStates }, 2, 0)).report,
      ],
    ];
    for (const [name, run] of runs) {
      const all = (await run(Number.POSITIVE_INFINITY)).states.length;
      for (const n of [1, 10, all - 1, all]) {
        const r = await run(n);
        expect([name, n, r.states.length, r.stop]).toEqual([name, n, n, n < all ? 'max-states' : 'done']);
      }
    }
  }, 60_000);

  it('reports budgets honestly: a stopped run keeps what it proved and leaves the rest undecided', () => {
    // MP with a relaxed flag and plain data: every execution races (and its racy read is undef).
    // One execution, then stop.
    const stopped = (
      c: ReturnType<typeof cond>,
      expects: Report['expectations'][number]['key'][],
      values: string[],
    ) => {
      const t = mpRelaxed(c);
      t.expects = expects.map(
        (key, i) => ({ key, value: values[i], span: t.threads[0]!.span }) as Expectation,
      );
      return runTestSync(t, { ...DEFAULT_RUN, maxExecutions: 1 });
    };
    const first = stopped(cond('exists', eq(reg('P1', 'a'), 0)), [], []);
    expect([first.complete, first.stop, first.states.length]).toEqual([false, 'max-executions', 1]);
    const a = first.states[0]!.values['P1:a'] as number;
    // A witness of `exists` proves it; `~exists` fails on it; `forall` is not proved by it.
    const ex = stopped(cond('exists', eq(reg('P1', 'a'), a)), ['condition', 'race'], ['holds', 'race-free']);
    expect([ex.condition!.verdict, ex.decided.condition]).toEqual(['holds', true]);
    expect(ex.expectations.map((e) => [e.key, e.actual, e.ok, e.decided])).toEqual([
      ['condition', 'holds', true, true],
      // A race found is final: race-free is proved false.
      ['race', 'racy', false, true],
    ]);
    const text = formatReport(ex);
    expect(text).toContain('\nOk\n');
    expect(text).toContain('Incomplete (max-executions)');
    expect(text).toContain('Decided: the condition holds (a state found proves it)');
    expect(text).toContain('Expect condition holds: ok (proved before the run stopped)');
    expect(text).toContain('Expect race race-free: FAILED (got racy, proved before the run stopped)');
    expect(text).toContain('Flag data-race');
    expect(text).toContain('Flag undef-read');
    expect(text).toContain('Undecided flags: undef-final (none found so far)');
    const nex = stopped(cond('not exists', eq(reg('P1', 'a'), a)), ['condition'], ['holds']);
    expect([nex.condition!.verdict, nex.decided.condition, nex.expectations[0]!.ok]).toEqual([
      'fails',
      true,
      false,
    ]);
    expect(formatReport(nex)).toContain('\nNo\n');
    const all = stopped(cond('forall', eq(reg('P1', 'a'), a)), ['condition'], ['holds']);
    expect([all.decided.condition, all.expectations[0]!.ok, all.expectations[0]!.decided]).toEqual([
      false,
      false,
      false,
    ]);
    // No state shows P1:a == 7: `exists` stays open. So does race-freedom while no race is found.
    const open = stopped(cond('exists', eq(reg('P1', 'a'), 7)), ['condition'], ['fails']);
    expect(open.decided).toEqual({ condition: false, race: true, undef: true, undefFinal: false, ub: true });
    expect(open.expectations.map((e) => [e.ok, e.decided])).toEqual([[false, false]]);
    const atomic = makeTest({
      locs: { x: 0 },
      threads: threads([
        [st('x', 1, 'monotonic'), ld('r', 'x', 'monotonic')],
        [st('x', 2, 'monotonic'), ld('r', 'x', 'monotonic')],
      ]),
    });
    atomic.expects = [{ key: 'race', value: 'race-free', span: atomic.threads[0]!.span }];
    const raceFree = runTestSync(atomic, { ...DEFAULT_RUN, maxExecutions: 1 });
    expect([raceFree.complete, raceFree.decided.race, raceFree.expectations[0]!.decided]).toEqual([
      false,
      false,
      false,
    ]);
    expect(formatReport(raceFree)).toContain('Undecided flags: data-race, undef-read, undef-final');
    expect(runTestSync(atomic).expectations[0]).toMatchObject({ ok: true, decided: true });
    const openText = formatReport(open);
    expect(openText).toContain('\n??\n');
    expect(openText).toContain('Undecided: the condition (no state found so far proves it either way)');
    expect(openText).toContain('Expect condition fails: undecided (the run stopped; fails so far)');
    // The same run to the end decides everything.
    const whole = runTestSync(mpRelaxed(cond('exists', eq(reg('P1', 'a'), 7))));
    expect(whole.decided).toEqual({ condition: true, race: true, undef: true, undefFinal: true, ub: true });
    expect(formatReport(whole)).not.toMatch(/Decided|Undecided/);
  });

  it('--workers: a test done within the in-process head start never starts the pool; a pooled run reports the same', async () => {
    const t = makeTest({
      locs: { x: 0 },
      threads: threads(
        Array.from({ length: 4 }, (_, i) => [st('x', i + 1, 'monotonic'), ld('r', 'x', 'monotonic')]),
      ),
    });
    const opts = { ...DEFAULT_RUN, keepExamples: false };
    const whole = runTestSync(t, opts);
    const quick = await runTestParallel(t, opts, 2);
    expect(quick.pooled).toBe(false);
    const pooled = await runTestParallel(t, opts, 2, 0);
    expect(pooled.pooled).toBe(true);
    for (const r of [quick.report, pooled.report]) {
      expect(r.states).toEqual(whole.states);
      expect(r.stats.consistent).toBe(whole.stats.consistent);
    }
  }, 30_000);

  it('--workers: progress is reported as each slice is merged, ending with the whole search', async () => {
    const t = makeTest({
      locs: { x: 0 },
      threads: threads(
        Array.from({ length: 4 }, (_, i) => [st('x', i + 1, 'monotonic'), ld('r', 'x', 'monotonic')]),
      ),
    });
    const seen: SearchProgress[] = [];
    const r = await runTestParallel(t, { ...DEFAULT_RUN, keepExamples: false }, 2, 0, {
      onProgress: (p) => seen.push(p),
    });
    expect(r.pooled).toBe(true);
    // One call per slice (2 per worker), the share done growing to the whole.
    expect(seen.map((p) => p.fraction)).toEqual([0.25, 0.5, 0.75, 1]);
    expect(seen.at(-1)!.states).toBe(r.report.states.length);
    expect(seen.at(-1)!.executions).toBe(r.report.stats.consistent);
  }, 30_000);

  it('--workers: a search reduced by thread symmetry stays in-process (slices cannot share orbits)', async () => {
    // Eight identical increments; the condition watches P0 only, so P1–P7 are interchangeable.
    const t = makeTest({
      locs: { x: 0 },
      threads: threads(Array.from({ length: 8 }, () => [rmw('r', 'add', 'x', 1, 'monotonic')])),
      cond: cond('exists', eq(reg('P0', 'r'), 0)),
    });
    const opts = { ...DEFAULT_RUN, keepExamples: false, observe: 'condition' as const };
    const whole = runTestSync(t, opts);
    const par = await runTestParallel(t, opts, 2, 1);
    expect(par.pooled).toBe(false);
    expect(par.report.states).toEqual(whole.states);
    expect(whole.stats.consistent).toBe(40320);
  }, 30_000);

  it('--explain breaks each step of a scoped seq_cst cycle into the hb and eco edges that make it', () => {
    const run = (name: string) => {
      const file = join(import.meta.dirname, '..', '..', 'litmus', `${name}.litmus`);
      const { test } = parse(readFileSync(file, 'utf8'), file);
      return runTestSync(test!, { ...DEFAULT_RUN, explain: true }).explanations;
    };
    const [sb] = run('SB+sc.agent');
    expect(sb!.axiom).toBe('scoped-sc');
    // P0 stores @x then loads @y = 0, which is overwritten by P1's store; P1 likewise.
    expect(sb!.text).toContain('(psc: P0:1 -hb-> P0:2)');
    expect(sb!.text).toContain('(psc: P0:2 -fr-> P1:1)');
    expect(sb!.text).toContain('(psc: P1:1 -hb-> P1:2 -fr-> P0:1)');
    // IRIW: a writer happens before the reader that reads it (rf of seq_cst synchronises), which
    // reads a value the other writer overwrites.
    const iriw = run('IRIW+sc.agent').filter((x) => x.axiom === 'scoped-sc');
    expect(iriw.length).toBeGreaterThan(0);
    for (const x of iriw) expect(x.text).not.toMatch(/\(psc\)/);
    expect(iriw[0]!.text).toContain('(psc: P0:1 -hb-> P2:2 -fr-> P1:1)');
    // eco chains longer than one edge: fr then rf.
    const iriwF = run('IRIW+fence.sc.agent').filter((x) => x.axiom === 'scoped-sc');
    expect(iriwF.some((x) => /-fr-> P\d:\d -rf-> P\d:\d -hb->/.test(x.text))).toBe(true);
    // Every psc step of every scoped seq_cst explanation in the catalogue has its chain.
    let steps = 0;
    for (const file of litmusFilesIn(CATALOGUE_DIR)) {
      const { test } = parse(readFileSync(file, 'utf8'), file);
      if (!test || modelDiagnostics(test).length > 0) continue;
      for (const x of runTestSync(test, { ...DEFAULT_RUN, explain: true }).explanations) {
        expect(x.text, file).not.toMatch(/\(psc\)/);
        steps += (x.text.match(/\(psc: /g) ?? []).length;
      }
    }
    expect(steps).toBeGreaterThan(20);
  });
});
