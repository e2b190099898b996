/**
 * LLVM IR for one table cell or barrier, and the form both llc-22's assembly and gpumm's sequences
 * are compared in: the instructions as written, less what docs/targets/divergences.md ("What is
 * compared") lists with the reason it cannot change memory ordering — ALU work, address operands,
 * data-width suffixes, modifier order, and the split of a run of waits. No Node APIs here.
 */

import {
  ADDRSPACE_NUMBER,
  assertNever,
  type BarrierInstr,
  type Operand,
  type PtrRef,
  type Test,
} from '../core/types.ts';
import { printInstr, printSyncScope } from '../syntax/printer.ts';
import { type Counter, formatIsa, hexM0, type IsaInstr } from './isa.ts';
import type { Cell } from './types.ts';

/**
 * What llc-22 does with an av intrinsic (`@llvm.amdgcn.av.global.load.b128`, `.store.b128`): LLVM 22
 * does not define them, and AMDGPU instruction selection crashes on a call of either (llc.test.ts
 * checks it on one processor of each table). gpumm lowers them by its own rule (lower.ts `lowerAvCell`);
 * there is no llc-22 code to compare or check.
 */
export const LLC_AV_FAILS =
  'crashes on the av intrinsics: LLVM 22 does not define them, and AMDGPU instruction selection fails on the call';

/** Begin/end markers (inline asm comments) bracketing the instruction under test. */
export const MARK_BEGIN = 'GPUMM_BEGIN';
export const MARK_END = 'GPUMM_END';

function syncscopeText(c: Cell): string {
  const { scope, oneAs } = c.syncscope;
  if (scope === 'system') return oneAs ? ' syncscope("one-as")' : '';
  return ` syncscope("${scope}${oneAs ? '-one-as' : ''}")`;
}

function ptrType(c: Cell): string {
  const n = ADDRSPACE_NUMBER[c.space ?? 'global'];
  return n === 0 ? 'ptr' : `ptr addrspace(${n})`;
}

/** Metadata of the source instruction that the generated IR keeps (besides `!nontemporal`, a cell flag). */
export interface KernelMeta {
  /** `!mmra !{!"amdgcn-av", !"none"}` (MODULE_TAIL's `!1`). */
  avNone?: boolean;
}

/**
 * A kernel `fn` performing exactly the cell's instruction between the markers. Operands are forced
 * into registers before the begin marker and results are used after the end marker, so the waits
 * llc inserts for register dependencies fall outside the markers. Only for cells with orderings
 * LLVM IR accepts. `meta` carries the instruction's other metadata, so llc compiles what was written.
 */
export function cellKernel(c: Cell, fn: string, meta: KernelMeta = {}): string {
  const begin = (ops: string): string =>
    ops === ''
      ? `  call void asm sideeffect "; ${MARK_BEGIN}", ""()`
      : `  call void asm sideeffect "; ${MARK_BEGIN}", "v,v"(${ops})`;
  const end = `  call void asm sideeffect "; ${MARK_END}", ""()`;
  const use = (v: string): string => `  call void asm sideeffect "; USE", "v"(i32 ${v})`;
  const pt = ptrType(c);
  const vol = c.volatile ? ' volatile' : '';
  const nt = (c.nontemporal ? ', !nontemporal !0' : '') + (meta.avNone ? ', !mmra !1' : '');
  const atomic = c.ordering !== 'notatomic';
  const ss = atomic ? syncscopeText(c) : '';
  const ord = atomic ? ` ${c.ordering}` : '';
  const body: string[] = [];
  let params = `${pt} %p, i32 %x`;
  switch (c.instr) {
    case 'load':
      body.push(begin(`${pt} %p, i32 %x`));
      body.push(`  %v = load${atomic ? ' atomic' : ''}${vol} i32, ${pt} %p${ss}${ord}, align 4${nt}`);
      body.push(end, use('%v'));
      break;
    case 'store':
      body.push(begin(`${pt} %p, i32 %x`));
      body.push(`  store${atomic ? ' atomic' : ''}${vol} i32 %x, ${pt} %p${ss}${ord}, align 4${nt}`);
      body.push(end);
      break;
    case 'rmw':
      body.push(begin(`${pt} %p, i32 %x`));
      body.push(`  %v = atomicrmw${vol} add ${pt} %p, i32 %x${ss}${ord}, align 4${nt}`);
      body.push(end);
      if (c.returns) body.push(use('%v'));
      break;
    case 'cmpxchg':
      body.push(begin(`${pt} %p, i32 %x`));
      body.push(`  %v = cmpxchg${vol} ${pt} %p, i32 %x, i32 5${ss} ${c.ordering} ${c.failure}, align 4${nt}`);
      body.push(end);
      if (c.returns) body.push('  %o = extractvalue { i32, i1 } %v, 0', use('%o'));
      break;
    case 'fence':
      params = '';
      body.push(begin(''), `  fence${syncscopeText(c)} ${c.ordering}${fenceMmra(c, meta)}`, end);
      break;
  }
  return `define amdgpu_kernel void @${fn}(${params}) {\n${body.join('\n')}\n  ret void\n}\n`;
}

/**
 * A fence's `!mmra`: `amdgcn-av none` (`!1`) and its `amdgpu-synchronize-as` tags, one tag as is, several
 * as a tuple of inline tags.
 */
function fenceMmra(c: Cell, meta: KernelMeta): string {
  const tags = [
    ...(meta.avNone ? ['!1'] : []),
    ...(c.syncAs ?? []).map((a) => `!{!"amdgpu-synchronize-as", !"${a}"}`),
  ];
  if (tags.length === 0) return '';
  return `, !mmra ${tags.length === 1 ? tags[0] : `!{${tags.join(', ')}}`}`;
}

/** IR name of a named-barrier object in generated modules. */
function barrierGlobal(object: string): string {
  return `@nb.${object}`;
}

/** Declarations of named-barrier objects, in the order given (llc-22 numbers a kernel's objects so). */
export function namedBarrierDecls(objects: readonly string[]): string {
  return objects
    .map(
      (o) => `${barrierGlobal(o)} = internal addrspace(3) global target("amdgcn.named.barrier", 0) poison\n`,
    )
    .join('');
}

/**
 * A kernel performing one barrier operation between the markers; null when it has no intrinsic.
 * llc-22 gives a kernel's named-barrier objects the ids 1, 2, … in declaration order among the
 * objects the kernel uses, so the kernel uses every object of `objects` (the module's, declared in
 * that order by `namedBarrierDecls`) before the begin marker: the ids are then those gpumm gives
 * (declaration order, lower.ts `lowerTest`).
 */
export function barrierKernel(
  b: Pick<BarrierInstr, 'op' | 'id' | 'object' | 'count'>,
  fn: string,
  objects: readonly string[] = [],
): string | null {
  const obj = `ptr addrspace(3) ${barrierGlobal(b.object ?? '')}`;
  let call: string;
  switch (b.op) {
    case 'barrier':
      call = 'call void @llvm.amdgcn.s.barrier()';
      break;
    case 'signal':
      call = `call void @llvm.amdgcn.s.barrier.signal(i32 ${b.id ?? -1})`;
      break;
    case 'signal_isfirst':
      call = `%f = call i1 @llvm.amdgcn.s.barrier.signal.isfirst(i32 ${b.id ?? -1})`;
      break;
    case 'wait':
      call = `call void @llvm.amdgcn.s.barrier.wait(i16 ${b.id ?? -1})`;
      break;
    case 'leave':
      call = `call void @llvm.amdgcn.s.barrier.leave(i16 ${b.id ?? 1})`;
      break;
    case 'init':
      call = `call void @llvm.amdgcn.s.barrier.init(${obj}, i32 ${b.count ?? 1})`;
      break;
    case 'join':
      call = `call void @llvm.amdgcn.s.barrier.join(${obj})`;
      break;
    case 'signal_var':
      call = `call void @llvm.amdgcn.s.barrier.signal.var(${obj}, i32 ${b.count ?? 0})`;
      break;
    default:
      return null;
  }
  const named = b.object === null ? [] : objects.includes(b.object) ? objects : [...objects, b.object];
  const use =
    named.length === 0
      ? ''
      : `  call void asm sideeffect "; USE", "${named.map(() => 's').join(',')}"(${named
          .map((o) => `ptr addrspace(3) ${barrierGlobal(o)}`)
          .join(', ')})\n`;
  return `define amdgpu_kernel void @${fn}() {\n${use}  call void asm sideeffect "; ${MARK_BEGIN}", ""()\n  ${call}\n  call void asm sideeffect "; ${MARK_END}", ""()\n  ret void\n}\n`;
}

/** A kernel performing `llvm.amdgcn.wave.barrier` between the markers (llc prints `; wave barrier`). */
export function waveBarrierKernel(fn: string): string {
  return `define amdgpu_kernel void @${fn}() {\n  call void asm sideeffect "; ${MARK_BEGIN}", ""()\n  call void @llvm.amdgcn.wave.barrier()\n  call void asm sideeffect "; ${MARK_END}", ""()\n  ret void\n}\n`;
}

/** Declarations and metadata every generated module needs. */
export const MODULE_TAIL = `declare void @llvm.amdgcn.s.barrier()
declare void @llvm.amdgcn.wave.barrier()
declare void @llvm.amdgcn.s.barrier.signal(i32)
declare i1 @llvm.amdgcn.s.barrier.signal.isfirst(i32)
declare void @llvm.amdgcn.s.barrier.wait(i16)
declare void @llvm.amdgcn.s.barrier.leave(i16)
declare void @llvm.amdgcn.s.barrier.init(ptr addrspace(3), i32)
declare void @llvm.amdgcn.s.barrier.join(ptr addrspace(3))
declare void @llvm.amdgcn.s.barrier.signal.var(ptr addrspace(3), i32)
!0 = !{i32 1}
!1 = !{!"amdgcn-av", !"none"}
`;

/** Assembly between the markers of each function of llc's output, by function name. */
export function splitFunctions(asm: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  let fn: string | null = null;
  let inside = false;
  let lines: string[] = [];
  for (const raw of asm.split('\n')) {
    const label = /^([A-Za-z_][\w.]*):\s*;\s*@/.exec(raw);
    if (label) {
      fn = label[1]!;
      inside = false;
      lines = [];
      continue;
    }
    if (fn === null) continue;
    if (raw.includes(MARK_BEGIN)) {
      inside = true;
      continue;
    }
    if (raw.includes(MARK_END)) {
      inside = false;
      out.set(fn, lines);
      continue;
    }
    if (!inside) continue;
    const t = raw.trim();
    if (t === '' || t.startsWith(';')) continue;
    lines.push(t.replace(/\s*;.*$/, ''));
  }
  return out;
}

/** Wait counters in the order a run of waits is printed: the GFX6–11 `s_waitcnt` ones first. */
const WAIT_ORDER: readonly Counter[] = [
  'vmcnt',
  'expcnt',
  'lgkmcnt',
  'vscnt',
  'loadcnt',
  'samplecnt',
  'bvhcnt',
  'storecnt',
  'dscnt',
  'kmcnt',
  'xcnt',
];
const LEGACY: readonly Counter[] = ['vmcnt', 'expcnt', 'lgkmcnt'];

/** A run of consecutive waits: each counter at the smallest value waited for. */
type WaitRun = Map<Counter, number>;

/**
 * Prints a run of waits as instructions: one `s_waitcnt` for the GFX6–11 counters, one
 * `s_waitcnt_vscnt null, …`, one `s_wait_<counter>` for each GFX12 counter, in WAIT_ORDER. A run
 * completes when every counter named has reached its value, and no instruction issues between its
 * waits, so the split (GFX12 `s_wait_loadcnt_dscnt` = `s_wait_loadcnt` + `s_wait_dscnt`), the order
 * and repeats within a run change nothing (docs/targets/divergences.md, "What is compared").
 */
function printWaitRun(run: WaitRun): string[] {
  const out: string[] = [];
  const legacy = LEGACY.filter((c) => run.has(c)).map((c) => `${c}(${run.get(c)})`);
  if (legacy.length > 0) out.push(`s_waitcnt ${legacy.join(' ')}`);
  for (const c of WAIT_ORDER) {
    if (LEGACY.includes(c) || !run.has(c)) continue;
    const v = `0x${run.get(c)!.toString(16)}`;
    out.push(c === 'vscnt' ? `s_waitcnt_vscnt null, ${v}` : `s_wait_${c} ${v}`);
  }
  return out;
}

/** An instruction in the compared form, or a wait to merge with its neighbours. */
type Item = string | WaitRun;

/** Merges adjacent waits and prints the sequence. */
function printItems(items: readonly Item[]): string[] {
  const out: string[] = [];
  let run: WaitRun | null = null;
  const flush = (): void => {
    if (run) out.push(...printWaitRun(run));
    run = null;
  };
  for (const it of items) {
    if (typeof it === 'string') {
      flush();
      out.push(it);
      continue;
    }
    run ??= new Map();
    for (const [c, v] of it) run.set(c, Math.min(v, run.get(c) ?? v));
  }
  flush();
  return out;
}

/** Cache-policy modifiers in the order both sides print them (the assembler accepts any order). */
const MODIFIER_ORDER = ['th', 'scope', 'glc', 'slc', 'dlc', 'sc0', 'sc1', 'nt'];

/** Sorts modifiers into MODIFIER_ORDER (`th:…`/`scope:…` by their prefix), unknown ones last. */
function sortModifiers(mods: string[]): string[] {
  const rank = (m: string): number => {
    const i = MODIFIER_ORDER.indexOf(m.split(':')[0]!);
    return i < 0 ? MODIFIER_ORDER.length : i;
  };
  return [...mods].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/**
 * Operand words that name where data comes from or goes, never how memory is ordered: registers
 * (`v0`, `v[0:1]`, `s[4:5]`, `ttmp0`, `null`, `off`, `exec`, `vcc`), immediates and offsets
 * (`0x0`, `offset:16`), and the MUBUF addressing flags `offen`, `idxen`, `addr64`.
 */
const ADDRESS_OPERAND =
  /^(?:[vs]\d+|[vs]\[\d+:\d+\]|ttmp\d+|ttmp\[\d+:\d+\]|null|off|exec|exec_lo|exec_hi|vcc|vcc_lo|vcc_hi|-?\d+|0x[0-9a-f]+|offset:\S+|offen|idxen|addr64)$/i;

/** The operand words of an instruction that are kept (modifiers), sorted. */
function modifiers(ops: string): string[] {
  return sortModifiers(ops.split(/[\s,]+/).filter((w) => w !== '' && !ADDRESS_OPERAND.test(w)));
}

/**
 * Instructions dropped from llc's output: vector and scalar ALU work (moves, logic, arithmetic,
 * compares, `s_getpc`, `s_nop`, and `s_wait_alu`/`s_delay_alu`, which wait for ALU results, not memory;
 * `s_waitcnt_depctr`, the GFX10 hazard recognizer's wait on dependency counters — `depctr_vm_vsrc(0)`:
 * until earlier vector memory instructions have read their source registers, not until they are
 * performed; dropping a wait only lets the machine do more). They
 * compute register values; the memory model is about which memory operations have been performed, and
 * no such instruction performs, waits for or invalidates one. `s_mov_b32 m0, …` is kept (m0 carries
 * the barrier id and member count), with its value when the dropped scalar instructions before it
 * compute a constant.
 */
const DROPPED =
  /^(?:v_\w+|s_(?:getpc|get_pc|mov|movk|cmov|and|or|xor|andn2|orn2|and_not1|or_not1|nand|nor|xnor|not|lshl|lshr|ashr|add|addc|addk|sub|subb|mul|cmp|cmpk|cselect|bfe|bfm|min|max|abs|sext|brev|bcnt0|bcnt1|ff0|ff1|flbit|setreg|nop|delay_alu|wait_alu|waitcnt_depctr)\w*)$/;

/** Scalar constant tracking for `m0`: the few SALU forms llc -O0 uses to build a barrier operand. */
function evalSalu(mn: string, ops: string[], sregs: Map<string, number>): void {
  const [dst, a, b] = ops;
  if (dst === undefined || !/^s\d+$/.test(dst)) return;
  const val = (o: string | undefined): number | undefined =>
    o === undefined ? undefined : /^-?(\d+|0x[0-9a-f]+)$/i.test(o) ? Number(o) : sregs.get(o);
  const x = val(a);
  const y = val(b);
  let r: number | undefined;
  if (mn === 's_mov_b32') r = x;
  else if (x !== undefined && y !== undefined) {
    if (mn === 's_and_b32') r = x & y;
    else if (mn === 's_or_b32') r = x | y;
    else if (mn === 's_lshl_b32') r = x << y;
    else if (mn === 's_add_u32' || mn === 's_add_i32' || mn === 's_add_co_u32') r = x + y;
  }
  if (r === undefined) sregs.delete(dst);
  else sregs.set(dst, r >>> 0);
}

/** One llc line in the compared form (null when dropped); waits as runs. */
function asmItem(line: string, sregs: Map<string, number>): Item | null {
  const [mn = '', ...rest] = line.split(/\s+/);
  const ops = rest.join(' ').trim();
  const words = ops.split(/[\s,]+/).filter((w) => w !== '');
  if (mn === 's_mov_b32' && words[0] === 'm0') {
    const src = words[1] ?? '';
    const v = /^-?(\d+|0x[0-9a-f]+)$/i.test(src) ? Number(src) >>> 0 : sregs.get(src);
    return `s_mov_b32 m0, ${v === undefined ? '?' : hexM0(v)}`;
  }
  if (DROPPED.test(mn)) {
    evalSalu(mn, words, sregs);
    return null;
  }
  if (mn === 's_waitcnt') {
    const run: WaitRun = new Map();
    for (const m of ops.matchAll(/(vmcnt|expcnt|lgkmcnt)\((\d+)\)/g)) run.set(m[1] as Counter, Number(m[2]));
    // A bare `s_waitcnt 0` waits for every counter.
    if (run.size === 0 && /^(0|0x0)$/.test(ops)) for (const c of LEGACY) run.set(c, 0);
    return run;
  }
  if (mn === 's_waitcnt_vscnt') return new Map([['vscnt', Number(words[words.length - 1] ?? '0')]]);
  const w = /^s_wait_([a-z_]+)$/.exec(mn);
  if (w && w[1] !== 'idle' && w[1] !== 'event') {
    const run: WaitRun = new Map();
    for (const c of w[1]!.split('_')) run.set(c as Counter, Number(ops));
    return run;
  }
  const vm = /^(buffer|global|flat|scratch)_(load|store|atomic)_/.exec(mn);
  if (vm) return [`${vm[1]}_${vm[2]}`, ...modifiers(ops)].join(' ');
  if (mn.startsWith('ds_')) {
    const op = /^ds_(read|load)_/.test(mn) ? 'load' : /^ds_(write|store)_/.test(mn) ? 'store' : 'atomic';
    return op === 'atomic' && /_rtn_/.test(mn) ? 'ds_atomic rtn' : [`ds_${op}`, ...modifiers(ops)].join(' ');
  }
  if (/^s_(buffer_)?load_/.test(mn)) return ['s_load', ...modifiers(ops)].join(' ');
  if (mn.startsWith('s_barrier')) return ops === '' ? mn : `${mn} ${ops}`;
  return [mn, ...modifiers(ops)].join(' ');
}

/**
 * llc assembly lines in the compared form: every instruction as written except the dropped ALU work
 * (DROPPED) and the operands and spellings listed in docs/targets/divergences.md, "What is compared":
 * address and data operands (ADDRESS_OPERAND), the data-width and atomic-operation suffixes of memory
 * mnemonics (`global_load_dword` → `global_load`, `flat_atomic_add_u32` → `flat_atomic`,
 * `ds_read_b32`/`ds_load_b32` → `ds_load`, `ds_add_rtn_u32` → `ds_atomic rtn`, `s_load_dword` →
 * `s_load`), the order of modifiers, and runs of waits (printWaitRun).
 */
export function normaliseAsm(lines: readonly string[]): string[] {
  const sregs = new Map<string, number>();
  const items: Item[] = [];
  for (const l of lines) {
    const it = asmItem(l, sregs);
    if (it !== null) items.push(it);
  }
  return printItems(items);
}

/** gpumm's sequence in the same form. */
export function normaliseIsa(seq: readonly IsaInstr[]): string[] {
  const items: Item[] = [];
  for (const i of seq) {
    switch (i.kind) {
      case 'vmem': {
        const bits: string[] = [];
        if (i.th !== null) bits.push(`th:${i.th}`);
        if (i.scope !== null) bits.push(`scope:${i.scope}`);
        for (const b of ['glc', 'slc', 'dlc', 'sc0', 'sc1', 'nt'] as const) if (i[b]) bits.push(b);
        items.push([`${i.enc}_${i.op}`, ...sortModifiers(bits)].join(' '));
        break;
      }
      case 'lds':
        items.push(i.op === 'atomic' && i.returns ? 'ds_atomic rtn' : `ds_${i.op}`);
        break;
      case 'wait':
        items.push(new Map(i.counters.map((c, k) => [c, i.counts?.[k] ?? 0])));
        break;
      case 'inv':
      case 'wb': {
        const mods = i.sc !== null ? i.sc.split(' ') : i.scope !== null ? [`scope:${i.scope}`] : [];
        items.push([i.mnemonic, ...mods].join(' '));
        break;
      }
      case 'barrier':
      case 'setm0':
        items.push(formatIsa(i));
        break;
      case 'lsc':
      case 'lsc_fence':
      case 'xe_barrier':
      case 'xe_generic':
        throw new Error(`Intel Xe instruction ${formatIsa(i)} has no llc-22 form`);
      default:
        assertNever(i, 'ISA instruction');
    }
  }
  return printItems(items);
}

/** Marker before the `k`-th IR instruction of a thread kernel (`threadKernel`). */
export const MARK_INSTR = 'GPUMM_I';

/**
 * A test's memory locations as module globals, for thread kernels: global and constant locations with
 * their initial values, LDS locations and named-barrier objects without (LDS has no initialisers).
 * Private locations are allocas of each kernel. Internal linkage: a kernel then addresses them
 * PC-relatively, with no GOT load before the code under test.
 */
export function locationDecls(test: Test, prefix = ''): string {
  return test.locations
    .map((l) => {
      const name = `${prefix}${l.name}`;
      if (l.barrier)
        return `@${name} = internal addrspace(3) global target("amdgcn.named.barrier", 0) poison\n`;
      if (l.space === 'private') return '';
      const n = ADDRSPACE_NUMBER[l.space];
      if (l.space === 'local') return `@${name} = internal addrspace(${n}) global ${l.type} poison\n`;
      const init = l.init === 'undef' ? 'undef' : String(l.init);
      return `@${name} = internal addrspace(${n}) ${l.space === 'constant' ? 'constant' : 'global'} ${l.type} ${init}\n`;
    })
    .join('');
}

/** Byte alignment of an integer type (`i8` 1 … `i64` 8). */
function alignOf(type: string): number {
  const m = /^i(\d+)$/.exec(type.trim());
  return m ? Math.max(1, Number(m[1]) / 8) : 4;
}

/**
 * Thread `t` of `test` as one kernel `fn`: its IR instructions in order, each preceded by the marker
 * `GPUMM_I<k>` (k its index in the thread body), and `GPUMM_END` after the last, so llc-22 compiles
 * the thread as it would see it — waits it adds or drops because of earlier instructions included —
 * and its assembly splits back into the machine code of each IR instruction (`splitRegions`).
 * `prefix` is put before every global's name (several tests in one module). An error when an
 * instruction has no IR llc-22 compiles (the av intrinsics).
 */
export function threadKernel(test: Test, t: number, fn: string, prefix = ''): string | { error: string } {
  const th = test.threads[t]!;
  const decl = new Map(test.locations.map((l) => [l.name, l]));
  const entry: string[] = [];
  const privates = new Set<string>();
  const ptr = (p: PtrRef): string => {
    const l = decl.get(p.loc)!;
    const own = ADDRSPACE_NUMBER[l.space];
    const base = l.space === 'private' ? `%${p.loc}.priv` : `@${prefix}${p.loc}`;
    if (l.space === 'private' && !privates.has(p.loc)) {
      privates.add(p.loc);
      entry.push(`  ${base} = alloca ${l.type}, align ${alignOf(l.type)}, addrspace(5)`);
      if (l.init !== 'undef')
        entry.push(`  store ${l.type} ${l.init}, ptr addrspace(5) ${base}, align ${alignOf(l.type)}`);
    }
    if (p.space !== 'generic') return `ptr addrspace(${own}) ${base}`;
    return l.space === 'private'
      ? `ptr ${((): string => {
          const g = `%${p.loc}.flat`;
          if (!entry.some((e) => e.startsWith(`  ${g} =`)))
            entry.push(`  ${g} = addrspacecast ptr addrspace(5) ${base} to ptr`);
          return g;
        })()}`
      : `ptr addrspacecast (ptr addrspace(${own}) ${base} to ptr)`;
  };
  const op = (o: Operand): string => (o.kind === 'const' ? String(o.value) : `%${o.name}`);
  const md = (i: { nontemporal: boolean; avNone: boolean }): string =>
    (i.nontemporal ? ', !nontemporal !0' : '') + (i.avNone ? ', !mmra !1' : '');
  const body: string[] = [];
  for (const [k, i] of th.body.entries()) {
    body.push(`  call void asm sideeffect "; ${MARK_INSTR}${k}", ""()`);
    const vol = 'volatile' in i && i.volatile ? ' volatile' : '';
    switch (i.kind) {
      case 'load': {
        const at = i.ordering === 'notatomic' ? '' : ` atomic`;
        const ord = i.ordering === 'notatomic' ? '' : `${printSyncScope(i.syncscope)} ${i.ordering}`;
        body.push(
          `  %${i.dst} = load${at}${vol} ${i.type}, ${ptr(i.ptr)}${ord}, align ${alignOf(i.type)}${md(i)}`,
        );
        break;
      }
      case 'store': {
        const at = i.ordering === 'notatomic' ? '' : ` atomic`;
        const ord = i.ordering === 'notatomic' ? '' : `${printSyncScope(i.syncscope)} ${i.ordering}`;
        body.push(
          `  store${at}${vol} ${i.type} ${op(i.value)}, ${ptr(i.ptr)}${ord}, align ${alignOf(i.type)}${md(i)}`,
        );
        break;
      }
      case 'rmw':
        body.push(
          `  ${i.dst === null ? '' : `%${i.dst} = `}atomicrmw${vol} ${i.op} ${ptr(i.ptr)}, ${i.type} ${op(i.value)}${printSyncScope(i.syncscope)} ${i.ordering}, align ${alignOf(i.type)}${md(i)}`,
        );
        break;
      case 'cmpxchg':
        body.push(
          `  ${i.dst === null ? '' : `%${i.dst} = `}cmpxchg${i.weak ? ' weak' : ''}${vol} ${ptr(i.ptr)}, ${i.type} ${op(i.expected)}, ${i.type} ${op(i.desired)}${printSyncScope(i.syncscope)} ${i.success} ${i.failure}, align ${alignOf(i.type)}${md(i)}`,
        );
        break;
      case 'avload':
      case 'avstore':
        return { error: `${th.name}: line ${i.span.line}: llc-22 ${LLC_AV_FAILS}` };
      default:
        // Fences, arithmetic, barriers: their litmus spelling is LLVM IR (named barriers are the
        // module's LDS objects, declared by `locationDecls`).
        body.push(
          `  ${i.kind === 'barrier' && i.object !== null ? printInstr(i).replace(`@${i.object}`, `@${prefix}${i.object}`) : printInstr(i)}`,
        );
    }
  }
  body.push(`  call void asm sideeffect "; ${MARK_END}", ""()`);
  // Every value read is used after the end marker: SelectionDAG deletes a load whose value is unused,
  // even at -O0.
  const use = (type: string, v: string): string[] =>
    alignOf(type) >= 4
      ? [`  call void asm sideeffect "; USE", "v"(${type} ${v})`]
      : [`  ${v}.u = zext ${type} ${v} to i32`, `  call void asm sideeffect "; USE", "v"(i32 ${v}.u)`];
  for (const i of th.body) {
    if (i.kind === 'load' || (i.kind === 'rmw' && i.dst !== null)) body.push(...use(i.type, `%${i.dst}`));
    else if (i.kind === 'cmpxchg' && i.dst !== null)
      body.push(
        `  %${i.dst}.old = extractvalue { ${i.type}, i1 } %${i.dst}, 0`,
        ...use(i.type, `%${i.dst}.old`),
      );
  }
  // llc-22 numbers a kernel's named-barrier objects 1, 2, … in order of use: use them all first, in
  // declaration order, so the ids are those gpumm gives (lower.ts `lowerTest`).
  const objects = test.locations.filter((l) => l.barrier).map((l) => `ptr addrspace(3) @${prefix}${l.name}`);
  const useObjects =
    objects.length === 0
      ? []
      : [`  call void asm sideeffect "; USE", "${objects.map(() => 's').join(',')}"(${objects.join(', ')})`];
  return `define amdgpu_kernel void @${fn}() {\n${[...entry, ...useObjects, ...body].join('\n')}\n  ret void\n}\n`;
}

/**
 * The assembly of each IR instruction of each thread kernel (`threadKernel`): per function, the
 * lines between marker `GPUMM_I<k>` and the next marker, by k. Comments and blank lines dropped.
 */
export function splitRegions(asm: string): Map<string, string[][]> {
  const out = new Map<string, string[][]>();
  let regions: string[][] | null = null;
  let cur: string[] | null = null;
  const mark = new RegExp(`${MARK_INSTR}(\\d+)`);
  for (const raw of asm.split('\n')) {
    const label = /^([A-Za-z_][\w.]*):\s*;\s*@/.exec(raw);
    if (label) {
      regions = [];
      out.set(label[1]!, regions);
      cur = null;
      continue;
    }
    if (regions === null) continue;
    const m = mark.exec(raw);
    if (m) {
      cur = [];
      regions[Number(m[1])] = cur;
      continue;
    }
    if (raw.includes(MARK_END)) {
      cur = null;
      continue;
    }
    if (cur === null) continue;
    const t = raw.trim();
    if (t === '' || t.startsWith(';')) continue;
    cur.push(t.replace(/\s*;.*$/, ''));
  }
  return out;
}
