/**
 * docs/assumptions.md, generated from the one list of assumptions (src/sim/assumptions.ts), the pinned
 * findings (src/check/findings.ts) and the permissiveness suite (litmus-hw/), so the page cannot drift
 * from what the machines do (src/check/docs.test.ts; regenerate: npx tsx scripts/gen-target-docs.ts).
 */

import { basename } from 'node:path';
import { ASSUMPTIONS, type AssumptionId } from '../sim/assumptions.ts';
import { DOC_ASSUMED, LLC_ASSUMED } from './findings.ts';
import { permissiveFiles, permissiveSource, permissiveSpec } from './permissive.ts';

/** `MP+rel+acq.wg: gfx1200 CU` lines: per test, the runs whose verdict rests on `id`. */
function restingOn(pins: Readonly<Record<string, readonly AssumptionId[]>>, id: AssumptionId): string[] {
  const byTest = new Map<string, string[]>();
  for (const [key, ids] of Object.entries(pins)) {
    if (!ids.includes(id)) continue;
    const [test, target, mode, reading] = key.split('|') as [string, string, string, string?];
    const run = `${target} ${mode === 'tgsplit' ? 'TgSplit' : mode.toUpperCase()}${reading ? ` (--hw-text ${reading})` : ''}${
      ids.length > 1 ? ` (with ${ids.filter((x) => x !== id).join(', ')})` : ''
    }`;
    byTest.set(test, [...(byTest.get(test) ?? []), run]);
  }
  return [...byTest.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([test, runs]) => `\`${test}\`: ${runs.sort().join(', ')}`);
}

/** The text of docs/assumptions.md. */
export function assumptionsDoc(): string {
  const suite = permissiveFiles().map((f) => ({
    file: basename(f),
    spec: permissiveSpec(permissiveSource(f)),
  }));
  const out: string[] = [
    '# Assumptions: where a machine is stronger than the hardware text',
    '',
    '<!-- Generated from src/sim/assumptions.ts, src/check/findings.ts and litmus-hw/ by',
    '     `npx tsx scripts/gen-target-docs.ts`; src/check/docs.test.ts keeps it current. -->',
    '',
    'A machine of `gpumm check` may only be weaker than the hardware text, so that a `sound` verdict is a',
    'proof about hardware that behaves as written. Where a documented table row needs more than the text',
    'says, or the text is silent, the machine makes a **named assumption**: it is listed here with the',
    'sentence or row it rests on, a `sound` verdict that needs it says so',
    '(`sound (assuming: cu-in-order-reads)`), and `gpumm check --no-assume ID` (or `--no-assume all`) runs',
    'the machine without it. A verdict needs an assumption when the machine without it reaches an outcome',
    'the model forbids; `gpumm check` finds out by running the weakest machine first (docs/hardware.md,',
    '"Assumptions"). Each assumption has a test of the permissiveness suite (`litmus-hw/`) whose weak',
    'outcome the machine reaches without it and not with it.',
    '',
  ];
  for (const a of ASSUMPTIONS) {
    const where = a.applies
      .map(
        (x) =>
          `${x.family}${x.modes === null ? '' : ` (${x.modes.map((m) => `${m.toUpperCase()} mode`).join(', ')})`}`,
      )
      .join(', ');
    out.push(`## \`${a.id}\``, '');
    out.push(`- **Applies to:** ${where}.`);
    out.push(`- **Rests on:** ${a.rests}`);
    out.push(`- **Under it:** ${a.under}.`);
    out.push(`- **Without it** (\`--no-assume ${a.id}\`): ${a.without}.`);
    const tests = suite.filter((s) => s.spec.unless === a.id).map((s) => `\`litmus-hw/${s.file}\``);
    out.push(`- **Permissiveness test:** ${tests.length > 0 ? tests.join(', ') : 'none'}.`);
    for (const [what, pins] of [
      ["documents' code", DOC_ASSUMED],
      ["llc-22's code", LLC_ASSUMED],
    ] as const) {
      const lines = restingOn(pins, a.id);
      out.push(
        lines.length === 0
          ? `- **Catalogue verdicts that rest on it (${what}):** none.`
          : `- **Catalogue verdicts that rest on it (${what}):**`,
      );
      for (const l of lines) out.push(`  - ${l}`);
    }
    out.push('');
  }
  return `${out.join('\n').trimEnd()}\n`;
}
