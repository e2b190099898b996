/**
 * herd7's spelling of a gpumm test: the names, condition, kind and hash that `gpumm run` prints so
 * that herdtools' log readers (`mcompare7`, `msort7`: tools/lexLog_tools.mll in herdtools7) read
 * its reports. docs/output.md gives the mapping.
 */

import { md5Hex } from '../core/md5.ts';
import { assertNever, type Cond, type Test } from '../core/types.ts';
import { wrap } from '../core/values.ts';
import { print } from '../syntax/printer.ts';
import { termLabel, termWidth } from './outcomes.ts';

/** herd's test kind word (ConstrGen.pp_kind): exists → Allowed, ~exists → Forbidden, forall → Required. */
export type HerdKind = 'Allowed' | 'Forbidden' | 'Required';

/** A name herd's log reader accepts for a register or a location: `alpha (alpha|digit|'_'|'.')*`. */
const HERD_NAME = /^[A-Za-z][A-Za-z0-9_.]*$/;

/**
 * Words herd's log reader takes, at the start of a line among the states, for the validation line
 * (`validation` in lexLog_tools.mll): a location whose name starts so gets a letter in front.
 */
const VALIDATION_START = /^(Ok|No|Undef|Succeeded|Failed|Loop)/;

/** herd's test-name alphabet (`testname` in lexLog_tools.mll). */
const NOT_TESTNAME = /[^A-Za-z0-9_/.+\-[\]]/g;

/** The test name in herd's alphabet: gpumm's names are free text, herd's stop at a blank. */
export function herdTestName(name: string): string {
  return name.replace(NOT_TESTNAME, '_') || '_';
}

/** `name` if herd reads it as it is, else its characters outside herd's alphabet as `_`, after `prefix`. */
function herdIdent(name: string, prefix: string): string {
  if (HERD_NAME.test(name)) return name;
  const body = name.replace(/[^A-Za-z0-9_.]/g, '_');
  return /^[A-Za-z]/.test(body) ? body : `${prefix}${body}`;
}

/**
 * herd's name for each observable label: `P1:r0` → `1:r0` (the thread's position in the test, as
 * herd numbers its threads), `@x` → `x`, a thread's copy of LDS or private memory `P1:@l` → `l.1`.
 * Names herd cannot read (`%0`, `@a-b`) are spelled with `_` for the rest and a letter in front.
 * If two labels would then meet, the one spelled as it is keeps the name and the others get `_2`,
 * `_3`, … so the mapping stays one-to-one.
 */
export function herdNames(
  test: { threads: readonly { name: string }[] },
  labels: readonly string[],
): Map<string, string> {
  const index = new Map(test.threads.map((th, k) => [th.name, k]));
  const thread = (name: string) => index.get(name) ?? name;
  const wanted = [...new Set(labels)].map((label) => {
    const at = label.indexOf('@');
    if (at < 0) {
      const colon = label.indexOf(':');
      const reg = label.slice(colon + 1);
      const r = herdIdent(reg, 'r_');
      return { label, name: `${thread(label.slice(0, colon))}:${r}`, respelled: r !== reg };
    }
    const loc = label.slice(at + 1);
    const raw = herdIdent(loc, 'l_');
    const l = VALIDATION_START.test(raw) ? `l_${raw}` : raw;
    return { label, name: at > 0 ? `${l}.${thread(label.slice(0, at - 1))}` : l, respelled: l !== loc };
  });
  const out = new Map<string, string>();
  const taken = new Set<string>();
  for (const w of [...wanted.filter((x) => !x.respelled), ...wanted.filter((x) => x.respelled)]) {
    let unique = w.name;
    for (let k = 2; taken.has(unique); k++) unique = `${w.name}_${k}`;
    taken.add(unique);
    out.set(w.label, unique);
  }
  return out;
}

/** Every term label of a condition, in order of appearance. */
export function condLabels(c: Cond): string[] {
  switch (c.kind) {
    case 'cmp':
      return [termLabel(c)];
    case 'not':
      return condLabels(c.arg);
    case 'and':
    case 'or':
      return c.args.flatMap(condLabels);
    case 'true':
    case 'false':
      return [];
    default:
      return assertNever(c, 'condition');
  }
}

type Above = 'top' | 'and' | 'or';

/**
 * A condition in herd's syntax (ConstrGen.pp_prop): atoms `loc=v`, `not (p)`, ` /\ ` and ` \/ `,
 * a disjunction parenthesised inside a conjunction. Values are the unsigned bits of the term's type,
 * as the state lines print them (`i8 -1` is `255`), so herd's reader compares like with like.
 */
export function herdCond(
  test: Test,
  c: Cond,
  names: ReadonlyMap<string, string>,
  above: Above = 'top',
): string {
  switch (c.kind) {
    case 'true':
    case 'false':
      return c.kind;
    case 'cmp': {
      const v = c.rhs.kind === 'undef' ? 'undef' : String(wrap(c.rhs.value, termWidth(test, c)));
      const atom = `${names.get(termLabel(c)) ?? termLabel(c)}=${v}`;
      return c.op === '!=' ? `not (${atom})` : atom;
    }
    case 'not':
      return `not (${herdCond(test, c.arg, names)})`;
    case 'and':
    case 'or': {
      if (c.args.length === 0) return c.kind === 'and' ? 'true' : 'false';
      const body = c.args
        .map((a) => herdCond(test, a, names, c.kind))
        .join(c.kind === 'and' ? ' /\\ ' : ' \\/ ');
      return above === 'and' && c.kind === 'or' ? `(${body})` : body;
    }
    default:
      return assertNever(c, 'condition');
  }
}

/**
 * The `Condition` herd prints: `exists (…)`, `~exists (…)`, `forall (…)`; a test without a condition
 * is herd's default `forall (true)`.
 */
export function herdCondition(
  test: Test,
  names: ReadonlyMap<string, string>,
): { kind: HerdKind; text: string } {
  const c = test.condition;
  if (!c) return { kind: 'Required', text: 'forall (true)' };
  const body = herdCond(test, c.cond, names);
  switch (c.quantifier) {
    case 'exists':
      return { kind: 'Allowed', text: `exists (${body})` };
    case 'not exists':
      return { kind: 'Forbidden', text: `~exists (${body})` };
    default:
      return { kind: 'Required', text: `forall (${body})` };
  }
}

/**
 * The test's hash, as herd hashes a test's initial state and code and not its name, comments or
 * condition: MD5 of the normalised test's memory, placement and code — the lines `gpumm parse`
 * prints from the first location (or thread) to the last thread's `}`, with a newline after each.
 */
export function testHash(test: Test): string {
  const text = print({ ...test, description: '', expects: [], condition: null });
  // Drop the header line and the empty line after it.
  return md5Hex(text.slice(text.indexOf('\n\n') + 2));
}
