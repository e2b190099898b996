/**
 * What the AMDGPU code-sequence tables share: the rows whose text and sequence are the same in every
 * family that has them, and the helpers every family builds its own rows with. A family is a plain
 * object of hooks (`Family`) — its cited name, its "any scope" list, how it encodes a row's memory
 * instruction — much as LLVM's SIMemoryLegalizer.cpp gives each generation a cache-control object
 * and keeps one legalizer. The rows here ask the hooks; a family file lists its table in the
 * document's order, taking these rows where its document says the same and writing its own where
 * it differs. The GFX90A and GFX942 tables go further: one table, two sets of hooks (gfx90a-942.ts).
 *
 * Every row is cited as `<family name> table, "<row>"` (table.ts `makeLookup`), so a shared row is
 * still cited with its own family's name.
 */

import { ORDERINGS, type Ordering, SCOPES } from '../core/types.ts';
import type { Counter, IsaInstr, VmemEncoding } from './isa.ts';
import { wait } from './isa.ts';
import type { Built, RowEnv, RowInstr, RowKey, RowSpace, TableRow } from './table.ts';
import { ST_WF, ST_WF_WG, sameAsHsa } from './table.ts';
import type { RowScope } from './types.ts';

/** A family as the shared rows see it. */
export interface Family {
  /** The name its rows are cited with: `GFX90A` in `GFX90A table, "<row>"`. */
  name: string;
  /** The scopes of a row "for any scope": with `cluster` on GFX12.5. */
  anyScope: readonly RowScope[];
  /** The row's memory instruction with no bits of the row's own (a returning atomic as it returns). */
  op: (k: RowKey, env: RowEnv) => IsaInstr;
  /** The family's whole table, for "Same as corresponding …" rows (read when a row is built). */
  table: () => readonly TableRow[];
  /**
   * Waits every row puts before an atomic store or atomicrmw (GFX12.5 `s_wait_xcnt 0x0` on flat and
   * global ones); absent: none.
   */
  atomicWriteWaits?: (k: RowKey) => IsaInstr[];
  /**
   * The sequence of a volatile or nontemporal non-atomic global/generic/private/constant load or
   * store (the key says which; volatile wins), as LLVM's `enableVolatileAndOrNonTemporal` says per
   * generation. Absent on GFX6–9, whose document has no such rows.
   */
  volatileOrNontemporal?: (k: RowKey, env: RowEnv) => IsaInstr[];
}

/** The encoding of an address space from GFX90A on: flat for generic, scratch for private, else global. */
export function encoding(space: RowSpace): VmemEncoding {
  return space === 'generic' ? 'flat' : space === 'private' ? 'scratch' : 'global';
}

/** One `s_waitcnt` on the counters that survive the row's omissions (nothing when none do): GFX6–11. */
export function waitcnt(counters: readonly Counter[], drop: readonly Counter[] = []): IsaInstr[] {
  const cs = counters.filter((c) => !drop.includes(c));
  return cs.length === 0 ? [] : [wait(...cs)];
}

/** One `s_wait_<counter> 0x0` per counter, in the order the document lists them: GFX12 on. */
export function waits(counters: readonly Counter[], drop: readonly Counter[] = []): IsaInstr[] {
  return counters.filter((c) => !drop.includes(c)).map((c) => wait(c));
}

/** A row's own instructions before the row it refers to ("1. …; 2. Following instructions same as …"). */
export function prefix(pre: IsaInstr[], b: Built): Built {
  return { seq: [...pre, ...b.seq], rows: b.rows };
}

/** "Same as corresponding <ordering> row, except must generate all instructions even for OpenCL." */
export function asHsa(
  f: Family,
  k: RowKey,
  ordering: Ordering,
  env: RowEnv,
  lookup: (k: RowKey) => Built,
): Built {
  return sameAsHsa(f.table(), f.name, k, ordering, env, lookup);
}

/** The instruction column as the documents write it. */
const INSTR_TEXT: Record<RowInstr, string> = {
  load: 'load atomic',
  store: 'store atomic',
  rmw: 'atomicrmw',
  fence: 'fence',
};

const SPACES: readonly RowSpace[] = ['global', 'generic', 'local', 'private', 'constant', 'none'];

/**
 * A row whose columns are its text, as the documents write them: `load atomic acquire workgroup
 * global` is the load row for acquire at workgroup scope on global memory, `fence acq_rel
 * agent/system none` the acq_rel fence row at agent and system scope. `spaces`: where a row serves
 * more address spaces than its text lists (the row's comment says why). Throws on text that is not
 * a row's columns (a bug).
 */
export function row(text: string, build: TableRow['build'], spaces?: readonly RowSpace[]): TableRow {
  const words = text.split(' ');
  const instr = (Object.keys(INSTR_TEXT) as RowInstr[]).find((i) => text.startsWith(`${INSTR_TEXT[i]} `));
  const rest = instr === undefined ? [] : words.slice(INSTR_TEXT[instr].split(' ').length);
  const [ordering, scopes, listed] = [rest[0], rest[1]?.split('/'), rest[2]?.split('/')];
  const ok =
    instr !== undefined &&
    rest.length === 3 &&
    ORDERINGS.includes(ordering as Ordering) &&
    scopes!.every((x) => SCOPES.includes(x as RowScope)) &&
    listed!.every((x) => SPACES.includes(x as RowSpace));
  if (!ok) throw new Error(`not a row's columns: ${text}`);
  return {
    row: text,
    instr: [instr],
    orderings: [ordering as Ordering],
    scopes: scopes as RowScope[],
    spaces: spaces ?? (listed as RowSpace[]),
    build,
  };
}

/** The row text of a scope list: `singlethread/wavefront`. */
const scopeText = (scopes: readonly RowScope[]): string => scopes.join('/');

/** A row whose sequence is the row's memory instruction alone. */
function instrOnly(
  f: Family,
  row: string,
  instr: RowInstr,
  ordering: Ordering,
  scopes: readonly RowScope[],
  spaces: readonly RowSpace[],
): TableRow {
  return { row, instr: [instr], orderings: [ordering], scopes, spaces, build: (k, env) => [f.op(k, env)] };
}

/**
 * The rows every family's document words and fills alike; each takes the family's hooks. Comments
 * quote the rows as every document has them.
 */
export function sharedRows(f: Family) {
  const rmwPrivate: TableRow = {
    row: 'atomicrmw private (Memory Model text: treated as non-atomic)',
    instr: ['rmw'],
    orderings: ['notatomic'],
    scopes: f.anyScope,
    spaces: ['private'],
    build: (k, _env, lookup) => {
      const ld = lookup({ ...k, instr: 'load' });
      const st = lookup({ ...k, instr: 'store' });
      return { seq: [...ld.seq, ...st.seq], rows: [...ld.rows, ...st.rows] };
    },
  };
  const seqCstLoadSinglethread: TableRow = {
    row: `load atomic seq_cst ${scopeText(ST_WF)} global/local/generic`,
    instr: ['load'],
    orderings: ['seq_cst'],
    scopes: ST_WF,
    spaces: ['global', 'local', 'generic'],
    build: (k, env, lookup) => asHsa(f, k, 'acquire', env, lookup),
  };
  return {
    /**
     * "load none none global/generic/private/constant", "store none none global/generic/private/constant"
     * — !volatile & !nontemporal: buffer/global/flat_load, _store; otherwise the family's
     * `volatileOrNontemporal`. Stores to the constant address space are rejected before lookup.
     */
    nonAtomic: (instr: 'load' | 'store'): TableRow => ({
      row: `${instr} none none global/generic/private/constant`,
      instr: [instr],
      orderings: ['notatomic'],
      scopes: f.anyScope,
      spaces:
        instr === 'load' ? ['global', 'generic', 'private', 'constant'] : ['global', 'generic', 'private'],
      build: (k, env) =>
        (k.volatile || k.nontemporal) && f.volatileOrNontemporal
          ? f.volatileOrNontemporal(k, env)
          : [f.op(k, env)],
    }),
    /** "load none none local" — ds_load. */
    loadLocal: instrOnly(f, 'load none none local', 'load', 'notatomic', f.anyScope, ['local']),
    /** "store none none local" — ds_store. */
    storeLocal: instrOnly(f, 'store none none local', 'store', 'notatomic', f.anyScope, ['local']),
    /**
     * Memory Model text, private: "all accesses are treated as non-atomic": an atomicrmw is its plain
     * load and store, each lowered by the family's non-atomic private rows.
     */
    rmwPrivate,
    /** "load/store atomic, atomicrmw monotonic singlethread/wavefront/workgroup local" — ds_load, ds_store, ds_atomic. */
    monotonicLocal: (instr: 'load' | 'store' | 'rmw'): TableRow =>
      instrOnly(
        f,
        `${INSTR_TEXT[instr]} monotonic ${scopeText(ST_WF_WG)} local`,
        instr,
        'monotonic',
        ST_WF_WG,
        ['local'],
      ),
    /**
     * "load atomic acquire, store atomic release, atomicrmw acquire/release/acq_rel singlethread/wavefront
     * global/local/generic" — buffer/global/ds/flat_load, _store, _atomic: nothing else (but the
     * family's `atomicWriteWaits`).
     */
    singlethread: (instr: 'load' | 'store' | 'rmw', ordering: Ordering): TableRow => ({
      row: `${INSTR_TEXT[instr]} ${ordering} ${scopeText(ST_WF)} global/local/generic`,
      instr: [instr],
      orderings: [ordering],
      scopes: ST_WF,
      spaces: ['global', 'local', 'generic'],
      build: (k, env) => [...(instr === 'load' ? [] : (f.atomicWriteWaits?.(k) ?? [])), f.op(k, env)],
    }),
    /** "fence acquire/release/acq_rel singlethread/wavefront none" — none. */
    fenceNone: (ordering: Ordering): TableRow => ({
      row: `fence ${ordering} ${scopeText(ST_WF)} none`,
      instr: ['fence'],
      orderings: [ordering],
      scopes: ST_WF,
      spaces: ['none'],
      build: () => [],
    }),
    /** "store atomic release, atomicrmw release workgroup local" — ds_store, ds_atomic (GFX6–9, GFX90A, GFX942). */
    localRelease: (instr: 'store' | 'rmw'): TableRow =>
      instrOnly(
        f,
        `${INSTR_TEXT[instr]} release workgroup local`,
        instr,
        'release',
        ['workgroup'],
        ['local'],
      ),
    /**
     * "load atomic seq_cst singlethread/wavefront global/local/generic" — "Same as corresponding load
     * atomic acquire, except must generate all instructions even for OpenCL."
     */
    seqCstLoadSinglethread,
    /**
     * "load atomic seq_cst <scopes> <spaces>" — 1. the row's waits (`pre`, the family's); 2. "Following
     * instructions same as corresponding load atomic acquire, except must generate all instructions
     * even for OpenCL."
     */
    seqCstLoad: (
      scopes: readonly RowScope[],
      spaces: readonly RowSpace[],
      pre: (k: RowKey, env: RowEnv) => IsaInstr[],
    ): TableRow => ({
      row: `load atomic seq_cst ${scopeText(scopes)} ${spaces.join('/')}`,
      instr: ['load'],
      orderings: ['seq_cst'],
      scopes,
      spaces,
      build: (k, env, lookup) => prefix(pre(k, env), asHsa(f, k, 'acquire', env, lookup)),
    }),
    /**
     * "store atomic seq_cst <any scope> global/local/generic", "atomicrmw seq_cst <any scope>
     * global/local/generic", "fence seq_cst <any scope> none" — "Same as corresponding store atomic
     * release / atomicrmw acq_rel / fence acq_rel, except must generate all instructions even for
     * OpenCL." The three rows that end every table from GFX90A on.
     */
    seqCstAnyScope: (
      [
        ['store', 'release', ['global', 'local', 'generic']],
        ['rmw', 'acq_rel', ['global', 'local', 'generic']],
        ['fence', 'acq_rel', ['none']],
      ] as const
    ).map(
      ([instr, same, spaces]): TableRow => ({
        row: `${INSTR_TEXT[instr]} seq_cst ${scopeText(f.anyScope)} ${spaces.join('/')}`,
        instr: [instr],
        orderings: ['seq_cst'],
        scopes: f.anyScope,
        spaces,
        build: (k, env, lookup) => asHsa(f, k, same, env, lookup),
      }),
    ),
  };
}
