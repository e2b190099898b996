/**
 * `gpumm gen [--size n] [--nprocs n] [--relax LIST] [--orders LIST] [--writes LIST] [--fences LIST]
 * [--scopes LIST] [--placements LIST] [--spaces LIST] [--lang amdgpu|vulkan] [--max n]
 * (--out DIR | --list | --count)`: litmus
 * tests from cycles of relations, as diy7 writes them (src/campaign/gen.ts, docs/campaigns.md). With
 * `--out`, one file per test named after the test and an index `@all` listing them, as diy7 does.
 */

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Command, Option } from 'commander';
import {
  DEFAULT_SPEC,
  type Generated,
  type GenKey,
  type GenOptions,
  generate,
  parseGenSpec,
  specText,
} from '../campaign/gen.ts';
import { diagnosticLine } from '../core/diagnostics.ts';
import { positiveInt } from './budgets.ts';
import { escapeText } from './format.ts';
import { usageError } from './shared.ts';

/** Default cap on the tests one `gpumm gen` writes: past it, the vocabulary is too wide to mean it. */
export const DEFAULT_MAX_TESTS = 100_000;

type GenCliOptions = Partial<Record<GenKey, string>> & {
  out?: string;
  list?: boolean;
  count?: boolean;
  max: number;
};

const DEFAULTS = Object.fromEntries(DEFAULT_SPEC.split(' ').map((p) => p.split('='))) as Record<
  GenKey,
  string
>;

/** The generator options of a command line's `--size` … `--lang` (a usage error names a bad one). */
export function genOptionsOf(opts: Partial<Record<GenKey, string>>): GenOptions {
  const pairs = (Object.keys(DEFAULTS) as GenKey[])
    .filter((k) => opts[k] !== undefined)
    .map((k) => `${k}=${opts[k]}`);
  // A value with a space would split into two pairs: no valid value has one.
  const bad = (Object.keys(DEFAULTS) as GenKey[]).find((k) => opts[k] !== undefined && /\s/.test(opts[k]!));
  if (bad)
    usageError(
      `--${bad} has a space in its value`,
      'write lists with commas and no spaces: rlx,acq',
      `--${bad}`,
    );
  const r = parseGenSpec(pairs.join(' '));
  if ('error' in r) usageError(escapeText(r.error.message), r.error.hint, `--${r.error.key}`);
  return r.options;
}

/**
 * The generated tests in the language asked for: AMDGPU tests as generated, Vulkan tests their
 * translation (src/vulkan/from-amdgpu.ts) printed in Dartagnan's syntax. A test the translation
 * cannot say is left out and counted.
 */
export async function inGenLanguage(
  tests: Iterable<Generated>,
  o: GenOptions,
  max: number,
): Promise<{ tests: Generated[]; untranslatable: string[]; over: boolean }> {
  const out: Generated[] = [];
  const untranslatable: string[] = [];
  const vulkan =
    o.lang === 'vulkan'
      ? {
          inLanguage: (await import('../run/runner.ts')).inLanguage,
          entry: (await import('../run/syntaxes.ts')).syntaxEntry('dat3m'),
        }
      : null;
  for (const g of tests) {
    if (out.length >= max) return { tests: out, untranslatable, over: true };
    if (!vulkan) {
      out.push(g);
      continue;
    }
    const r = await vulkan.inLanguage(g.test, 'vulkan', { deviceScope: 'agent' });
    const p = r.prepared ? vulkan.entry.print(r.prepared.test) : null;
    if (!p || p.text === null) {
      const why = [...r.diagnostics, ...(p?.diagnostics ?? [])].find((d) => d.severity === 'error');
      untranslatable.push(`${g.name}: ${why ? diagnosticLine(why) : 'no Vulkan form'}`);
      continue;
    }
    out.push({ ...g, text: p.text });
  }
  return { tests: out, untranslatable, over: false };
}

export function registerGen(program: Command): void {
  const spec = (key: GenKey, what: string) =>
    new Option(
      `--${key} <${key === 'size' || key === 'nprocs' ? 'n' : 'list'}>`,
      `${what} (default ${DEFAULTS[key]})`,
    );
  program
    .command('gen')
    .description('generate litmus tests from cycles of relations, as diy7 does (docs/campaigns.md)')
    .addOption(spec('size', 'longest cycle, in events (4–8), as diy7 -size'))
    .addOption(spec('nprocs', 'most threads (2–8), as diy7 -nprocs'))
    .addOption(spec('relax', 'the cycle edges: Rfe, Fre, Coe, PodXY, PosXY with X, Y in R, W, *'))
    .addOption(spec('orders', "accesses' orderings: na, rlx, acq, rel, sc, av (the av/vis intrinsics)"))
    .addOption(
      spec(
        'fences',
        'fences on program-order edges: none, acq, rel, acq_rel, sc (each optionally .global or .local), bar (workgroup barrier), fbar (release fence, barrier, acquire fence)',
      ),
    )
    .addOption(spec('scopes', "threads' syncscopes: wavefront, workgroup, agent, system"))
    .addOption(
      spec(
        'placements',
        'thread placements: wg (one workgroup), wgs (a workgroup each), agents (an agent each), all (every partition into workgroups)',
      ),
    )
    .addOption(
      spec(
        'spaces',
        "locations' address spaces: global, local (LDS, threads of one workgroup), generic (global through a generic pointer), generic-local (LDS through a generic pointer)",
      ),
    )
    .addOption(
      spec('writes', 'how writes are made: store, xchg (atomicrmw xchg, returning the value it overwrote)'),
    )
    .addOption(
      new Option(
        '--lang <lang>',
        'write AMDGPU tests, or their Vulkan translation in Dartagnan syntax (default amdgpu)',
      ).choices(['amdgpu', 'vulkan']),
    )
    .option('--out <dir>', 'write one .litmus file per test into this folder, and the index @all')
    .option('--list', 'print the tests\u2019 names, one per line')
    .option('--count', 'print how many tests the vocabulary makes')
    .option(
      '--max <n>',
      `stop with an error past n tests (default ${DEFAULT_MAX_TESTS})`,
      positiveInt,
      DEFAULT_MAX_TESTS,
    )
    .action(async (opts: GenCliOptions) => {
      const o = genOptionsOf(opts);
      const modes = [opts.out !== undefined, opts.list === true, opts.count === true].filter(Boolean).length;
      if (modes !== 1)
        usageError(
          modes === 0
            ? 'gen needs to know what to do with the tests'
            : '--out, --list and --count exclude each other',
          'give one of --out DIR, --list, --count',
          modes === 0 ? 'gen' : opts.out !== undefined ? '--out' : '--list',
        );
      const { tests, untranslatable, over } = await inGenLanguage(generate(o), o, opts.max);
      if (over)
        usageError(
          `the vocabulary makes more than ${opts.max} tests`,
          'narrow it (--size, --orders, --fences, --scopes, --placements, --spaces) or raise --max',
          '--max',
        );
      for (const u of untranslatable) process.stderr.write(`gpumm gen: left out (no Vulkan form): ${u}\n`);
      if (opts.count) {
        process.stdout.write(`${tests.length}\n`);
        return;
      }
      if (opts.list) {
        process.stdout.write(tests.map((t) => `${t.name}\n`).join(''));
        return;
      }
      const dir = opts.out!;
      const { writeOut } = await import('./run.ts');
      try {
        mkdirSync(dir, { recursive: true });
      } catch {
        // writeOut says why the folder cannot be written.
      }
      for (const t of tests) writeOut(join(dir, `${t.name}.litmus`), t.text);
      // The index last: a folder with an index holds every test it lists.
      writeOut(
        join(dir, '@all'),
        `# gpumm gen ${specText(o)}\n${tests.map((t) => `${t.name}.litmus\n`).join('')}`,
      );
      process.stderr.write(`gpumm gen: ${tests.length} tests in ${escapeText(dir)}\n`);
    });
}
