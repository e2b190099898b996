/**
 * Prints a `Test` in the normalised litmus form: every placement coordinate spelled out, metadata
 * inline, one statement per line. `parse(print(t))` gives back `t` (up to spans and file name).
 */
import {
  ADDRSPACE_NUMBER,
  type AddressSpace,
  assertNever,
  type BarrierInstr,
  type Cond,
  type Condition,
  type CondTerm,
  type Expectation,
  type FenceInstr,
  type Instr,
  type Location,
  type Operand,
  type Ordering,
  type Placement,
  type PtrRef,
  type SyncScope,
  type Test,
} from '../core/types.ts';

/** The litmus text of a test. */
export function print(test: Test): string {
  const out: string[] = [`AMDGPU ${test.name}`];
  if (test.description !== '') out.push(`"${test.description}"`);
  for (const e of test.expects) out.push(`expect: ${printExpect(e)}`);
  if (test.locations.length > 0) {
    out.push('');
    for (const l of test.locations) out.push(printLocation(l));
  }
  for (const t of test.threads) {
    out.push('', `${t.name} @ ${printPlacement(t.placement)} {`);
    for (const i of t.body) out.push(`  ${printInstr(i)}`);
    out.push('}');
  }
  if (test.condition) out.push('', printCondition(test.condition));
  return `${out.join('\n')}\n`;
}

export function printExpect(e: Expectation): string {
  return e.key === 'condition' ? `condition ${e.value}` : e.value;
}

export function printLocation(l: Location): string {
  const kw = l.space === 'constant' ? 'constant' : 'global';
  const init = l.init === 'undef' ? 'undef' : String(l.init);
  return `@${l.name} = addrspace(${ADDRSPACE_NUMBER[l.space]}) ${kw} ${l.type} ${init}`;
}

export function printPlacement(p: Placement): string {
  if (p.kind === 'host') return 'host';
  return `agent ${p.agent}, cluster ${p.cluster}, workgroup ${p.workgroup}, wavefront ${p.wavefront}`;
}

function ptrType(s: AddressSpace): string {
  return s === 'generic' ? 'ptr' : `ptr addrspace(${ADDRSPACE_NUMBER[s]})`;
}

function ptr(p: PtrRef): string {
  return `${ptrType(p.space)} @${p.loc}`;
}

function op(o: Operand): string {
  return o.kind === 'const' ? String(o.value) : `%${o.name}`;
}

/** ` syncscope("agent-one-as")`, or nothing for system scope. */
export function printSyncScope(s: SyncScope): string {
  if (s.scope === 'system') return s.oneAs ? ' syncscope("one-as")' : '';
  return ` syncscope("${s.scope}${s.oneAs ? '-one-as' : ''}")`;
}

function atomicSuffix(ordering: Ordering, s: SyncScope): string {
  return ordering === 'notatomic' ? '' : `${printSyncScope(s)} ${ordering}`;
}

function meta(i: { nontemporal?: boolean; avNone: boolean }): string {
  return (
    (i.nontemporal ? ', !nontemporal !{i32 1}' : '') + (i.avNone ? ', !mmra !{!"amdgcn-av", !"none"}' : '')
  );
}

/** A fence's `!mmra`: one tag inline, several as a tuple of inline tags. */
function fenceMeta(i: FenceInstr): string {
  const tags = [
    ...(i.avNone ? ['!{!"amdgcn-av", !"none"}'] : []),
    ...i.syncAs.map((a) => `!{!"amdgpu-synchronize-as", !"${a}"}`),
  ];
  if (tags.length === 0) return '';
  return `, !mmra ${tags.length === 1 ? tags[0] : `!{${tags.join(', ')}}`}`;
}

const VOL = (v: boolean): string => (v ? ' volatile' : '');

/** One instruction in LLVM IR spelling. */
export function printInstr(i: Instr): string {
  switch (i.kind) {
    case 'load':
      return (
        `%${i.dst} = load${i.ordering === 'notatomic' ? '' : ' atomic'}${VOL(i.volatile)} ${i.type}, ${ptr(i.ptr)}` +
        `${atomicSuffix(i.ordering, i.syncscope)}${meta(i)}`
      );
    case 'store':
      return (
        `store${i.ordering === 'notatomic' ? '' : ' atomic'}${VOL(i.volatile)} ${i.type} ${op(i.value)}, ${ptr(i.ptr)}` +
        `${atomicSuffix(i.ordering, i.syncscope)}${meta(i)}`
      );
    case 'rmw':
      return (
        `${i.dst === null ? '' : `%${i.dst} = `}atomicrmw${VOL(i.volatile)} ${i.op} ${ptr(i.ptr)}, ${i.type} ${op(i.value)}` +
        `${printSyncScope(i.syncscope)} ${i.ordering}${meta(i)}`
      );
    case 'cmpxchg':
      return (
        `${i.dst === null ? '' : `%${i.dst} = `}cmpxchg${i.weak ? ' weak' : ''}${VOL(i.volatile)} ${ptr(i.ptr)}, ` +
        `${i.type} ${op(i.expected)}, ${i.type} ${op(i.desired)}${printSyncScope(i.syncscope)} ${i.success} ${i.failure}${meta(i)}`
      );
    case 'fence':
      return `fence${printSyncScope(i.syncscope)} ${i.ordering}${fenceMeta(i)}`;
    case 'avstore':
      return `call void @llvm.amdgcn.av.global.store.b128(${ptr(i.ptr)}, ${i.type} ${op(i.value)}, metadata !"${avScope(i.scope)}")`;
    case 'avload':
      return `%${i.dst} = call ${i.type} @llvm.amdgcn.av.global.load.b128(${ptr(i.ptr)}, metadata !"${avScope(i.scope)}")`;
    case 'bin':
      return `%${i.dst} = ${i.op} ${i.type} ${op(i.a)}, ${op(i.b)}`;
    case 'icmp':
      return `%${i.dst} = icmp ${i.pred} ${i.type} ${op(i.a)}, ${op(i.b)}`;
    case 'select':
      return `%${i.dst} = select i1 ${op(i.cond)}, ${i.type} ${op(i.a)}, ${i.type} ${op(i.b)}`;
    case 'extract':
      return `%${i.dst} = extractvalue ${i.type} %${i.src}, ${i.index}`;
    case 'barrier':
      return printBarrier(i);
    case 'wavebarrier':
      return 'call void @llvm.amdgcn.wave.barrier()';
    default:
      return assertNever(i, 'instruction');
  }
}

function printBarrier(i: BarrierInstr): string {
  const o = i.op;
  switch (o) {
    case 'barrier':
      return 'call void @llvm.amdgcn.s.barrier()';
    case 'signal':
      return `call void @llvm.amdgcn.s.barrier.signal(i32 ${i.id})`;
    case 'signal_isfirst':
      return `${i.dst === null ? '' : `%${i.dst} = `}call i1 @llvm.amdgcn.s.barrier.signal.isfirst(i32 ${i.id})`;
    case 'wait':
      return `call void @llvm.amdgcn.s.barrier.wait(i16 ${i.id})`;
    case 'leave':
      return `call void @llvm.amdgcn.s.barrier.leave(i16 ${i.id})`;
    case 'init':
      return `call void @llvm.amdgcn.s.barrier.init(ptr addrspace(3) @${i.object}, i32 ${i.count})`;
    case 'signal_var':
      return `call void @llvm.amdgcn.s.barrier.signal.var(ptr addrspace(3) @${i.object}, i32 ${i.count})`;
    case 'join':
      return `call void @llvm.amdgcn.s.barrier.join(ptr addrspace(3) @${i.object})`;
    default:
      return assertNever(o, 'barrier op');
  }
}

function avScope(s: string): string {
  return s === 'system' ? '' : s;
}

export function printCondition(c: Condition): string {
  const q = c.quantifier === 'not exists' ? '~exists' : c.quantifier;
  return `${q} ${printCond(c.cond)}`;
}

function printTerm(t: CondTerm): string {
  if (t.kind === 'reg') return `${t.thread}:%${t.reg}`;
  return t.thread === null ? `@${t.loc}` : `${t.thread}:@${t.loc}`;
}

/**
 * Conditions print with parentheses around every conjunction and disjunction (each adds its own, so
 * a compound operand is parenthesised exactly once), so precedence never matters.
 */
export function printCond(c: Cond): string {
  switch (c.kind) {
    case 'true':
    case 'false':
      return c.kind;
    case 'cmp': {
      const v = c.rhs.kind === 'undef' ? 'undef' : String(c.rhs.value);
      return `${printTerm(c.lhs)} ${c.op} ${v}`;
    }
    case 'not':
      return `~${printCond(c.arg)}`;
    case 'and':
    case 'or': {
      const body = c.args.map(printCond).join(c.kind === 'and' ? ' /\\ ' : ' \\/ ');
      return `(${body})`;
    }
    default:
      return assertNever(c, 'condition');
  }
}
