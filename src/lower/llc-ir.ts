/**
 * LLVM IR for one table cell or barrier, and the normalised form both llc-22's assembly and gpumm's
 * sequences are compared in: memory operations with their cache-policy bits, waits as sets of
 * counters (merged waits such as `s_wait_loadcnt_dscnt 0x0` count as the counters they wait on,
 * adjacent waits are merged), invalidates and write-backs with their scope, barriers. Register
 * operands and encodings (buffer/global/flat) are dropped. No Node APIs here.
 */

import { ADDRSPACE_NUMBER, type BarrierInstr } from '../core/types.ts';
import type { IsaInstr } from './isa.ts';
import type { Cell } from './types.ts';

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

/** A kernel performing one barrier operation between the markers; null when it has no intrinsic here. */
export function barrierKernel(b: Pick<BarrierInstr, 'op' | 'id'>, fn: string): string | null {
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
    default:
      return null;
  }
  return `define amdgpu_kernel void @${fn}() {\n  call void asm sideeffect "; ${MARK_BEGIN}", ""()\n  ${call}\n  call void asm sideeffect "; ${MARK_END}", ""()\n  ret void\n}\n`;
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

/**
 * GFX12 counters compared. `kmcnt` (scalar memory) is left out: no table row waits on it, and llc's
 * waits for kernel-argument loads (register dependencies) can land between the markers.
 */
const WAIT_COUNTERS = new Set(['loadcnt', 'storecnt', 'dscnt', 'samplecnt', 'bvhcnt', 'expcnt', 'xcnt']);

/**
 * Normalises llc assembly lines: memory ops as `vmem.<op>[ bits]`, `lds.<op>[ ret]`, `smem.load`,
 * waits as `wait(<counters>)`, `inv[:SCOPE]`, `wb[:SCOPE]`, barriers as written. Other instructions
 * (moves, ALU) are dropped.
 */
export function normaliseAsm(lines: readonly string[]): string[] {
  const out: string[] = [];
  for (const l of lines) {
    const [mn = '', ...rest] = l.split(/\s+/);
    const ops = rest.join(' ');
    if (mn === 's_waitcnt') {
      const cs = [...ops.matchAll(/(vmcnt|expcnt|lgkmcnt)\((\d+)\)/g)].map((m) =>
        m[2] === '0' ? m[1]! : `${m[1]}<=${m[2]}`,
      );
      if (cs.length > 0) out.push(`wait(${cs.join(',')})`);
      continue;
    }
    if (mn === 's_waitcnt_vscnt') {
      out.push('wait(vscnt)');
      continue;
    }
    const w = /^s_wait_([a-z_]+)$/.exec(mn);
    if (w && mn !== 's_wait_alu' && mn !== 's_wait_idle') {
      const parts = w[1]!.split('_').filter((p) => WAIT_COUNTERS.has(p));
      const zero = /^0x0$|^0$/.test(ops.trim());
      if (parts.length > 0)
        out.push(`wait(${parts.map((p) => (zero ? p : `${p}<=${ops.trim()}`)).join(',')})`);
      continue;
    }
    if (/^buffer_wbinvl1/.test(mn)) {
      out.push('inv');
      continue;
    }
    if (mn === 'buffer_invl2') {
      out.push('invl2');
      continue;
    }
    if (mn === 'buffer_inv' || mn === 'buffer_wbl2') {
      const sc = ['sc0', 'sc1'].filter((b) => ops.split(/[\s,]+/).includes(b));
      const k = mn === 'buffer_inv' ? 'inv' : 'wbl2';
      out.push(sc.length > 0 ? `${k}:${sc.join(',')}` : k);
      continue;
    }
    const gl = /^buffer_gl([01])_inv$/.exec(mn);
    if (gl) {
      out.push(`inv:gl${gl[1]}`);
      continue;
    }
    if (mn === 'global_inv' || mn === 'global_wb' || mn === 'global_wbinv') {
      const scope = /scope:(SCOPE_\w+)/.exec(ops)?.[1];
      const k = mn === 'global_inv' ? 'inv' : mn === 'global_wb' ? 'wb' : 'wbinv';
      out.push(scope ? `${k}:${scope}` : k);
      continue;
    }
    const vm = /^(buffer|global|flat|scratch)_(load|store|atomic)/.exec(mn);
    if (vm) {
      const op = vm[2]!;
      const bits: string[] = [];
      const words = new Set(ops.split(/[\s,]+/));
      const atomic = op === 'atomic';
      if (words.has('glc')) bits.push(atomic ? 'ret' : 'glc');
      if (words.has('sc0')) bits.push(atomic ? 'ret' : 'sc0');
      if (words.has('slc')) bits.push('slc');
      if (words.has('sc1')) bits.push('sc1');
      if (words.has('dlc')) bits.push('dlc');
      if (words.has('nt')) bits.push('nt');
      const th = /th:(TH_\w+)/.exec(ops)?.[1];
      if (th === 'TH_ATOMIC_RETURN') bits.push('ret');
      else if (th) bits.push(th);
      const scope = /scope:(SCOPE_\w+)/.exec(ops)?.[1];
      if (scope) bits.push(scope);
      out.push(bits.length > 0 ? `vmem.${op} ${bits.join(' ')}` : `vmem.${op}`);
      continue;
    }
    if (mn.startsWith('ds_')) {
      const op = /^ds_(read|load)/.test(mn) ? 'load' : /^ds_(write|store)/.test(mn) ? 'store' : 'atomic';
      out.push(op === 'atomic' && /_rtn/.test(mn) ? 'lds.atomic ret' : `lds.${op}`);
      continue;
    }
    if (/^s_(buffer_)?load/.test(mn)) {
      out.push('smem.load');
      continue;
    }
    if (mn.startsWith('s_barrier')) {
      out.push(ops.trim() === '' ? mn : `${mn} ${ops.trim()}`);
    }
  }
  return mergeWaits(out);
}

/** gpumm's sequence in the same normal form. */
export function normaliseIsa(seq: readonly IsaInstr[]): string[] {
  const out: string[] = [];
  for (const i of seq) {
    switch (i.kind) {
      case 'vmem': {
        const bits: string[] = [];
        // GFX942 atomics: sc0=1 is the returning encoding ("use it to indicate if the instruction returns").
        if (i.op === 'atomic' && (i.returns || i.sc0)) bits.push('ret');
        if (i.op !== 'atomic' && i.glc) bits.push('glc');
        if (i.op !== 'atomic' && i.sc0) bits.push('sc0');
        if (i.slc) bits.push('slc');
        if (i.sc1) bits.push('sc1');
        if (i.dlc) bits.push('dlc');
        if (i.nt) bits.push('nt');
        if (i.th !== null && i.th !== 'TH_ATOMIC_RETURN') bits.push(i.th);
        if (i.scope !== null) bits.push(i.scope);
        out.push(bits.length > 0 ? `vmem.${i.op} ${bits.join(' ')}` : `vmem.${i.op}`);
        break;
      }
      case 'lds':
        out.push(i.op === 'atomic' && i.returns ? 'lds.atomic ret' : `lds.${i.op}`);
        break;
      case 'wait':
        out.push(`wait(${i.counters.join(',')})`);
        break;
      case 'inv':
        if (i.mnemonic === 'buffer_gl0_inv' || i.mnemonic === 'buffer_gl1_inv')
          out.push(`inv:gl${i.mnemonic[9]}`);
        else if (i.mnemonic === 'buffer_invl2') out.push('invl2');
        else if (i.sc !== null) out.push(`inv:${i.sc.replace(' ', ',')}`);
        else out.push(i.scope === null ? 'inv' : `inv:${i.scope}`);
        break;
      case 'wb':
        if (i.mnemonic === 'buffer_wbl2') out.push(i.sc === null ? 'wbl2' : `wbl2:${i.sc.replace(' ', ',')}`);
        else out.push(i.scope === null ? 'wb' : `wb:${i.scope}`);
        break;
      case 'barrier':
        out.push(i.id === null ? i.mnemonic : `${i.mnemonic} ${i.id}`);
        break;
    }
  }
  return mergeWaits(out);
}

/** Merges adjacent waits into one set of counters (sorted), as the hardware sees them. */
export function mergeWaits(items: readonly string[]): string[] {
  const out: string[] = [];
  let pending: Set<string> | null = null;
  const flush = (): void => {
    if (pending) out.push(`wait(${[...pending].sort().join(',')})`);
    pending = null;
  };
  for (const it of items) {
    const m = /^wait\((.*)\)$/.exec(it);
    if (m) {
      pending ??= new Set();
      for (const c of m[1]!.split(',')) pending.add(c);
      continue;
    }
    flush();
    out.push(it);
  }
  flush();
  return out;
}
