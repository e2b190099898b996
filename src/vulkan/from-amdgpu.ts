/**
 * An AMDGPU test as a Vulkan test, the converse of `translate.ts` (docs/model-vulkan.md, "Vulkan
 * and AMDGPU"), for `gpumm convert --to dat3m|khronos` and `gpumm run --model vulkan` of a file in
 * gpumm's own syntax. The AMDGPU memory model's table of LLVM and SPIR-V equivalents read the other
 * way: a plain load / store is a non-private one (`.nonpriv`), the av intrinsics `.vis` / `.av`,
 * atomics keep MakeAvailable / MakeVisible (`.semav` / `.semvis`) at release / acquire unless
 * marked `amdgcn-av none`, and every access is to storage class 0 with every synchronising
 * operation's semantics naming it. Wavefront → subgroup, workgroup → workgroup, agent → queue
 * family, system → device. What Vulkan cannot say gets VK4008. No Node APIs here.
 */

import { diag, type SourceDiagnostic } from '../core/diagnostics.ts';
import type { Cond, Operand, Ordering, Scope, Span, Test } from '../core/types.ts';
import type { VkCond, VkInstr, VkLocalOp, VkScope, VkThread, VkValue, VulkanTest } from './ast.ts';

const LOCAL_OPS: readonly string[] = ['add', 'sub', 'mul', 'and', 'or', 'xor'];

/** The Vulkan test an AMDGPU test means, or diagnostics for what Vulkan cannot say. */
export function amdgpuToVulkan(t: Test): { test: VulkanTest | null; diagnostics: SourceDiagnostic[] } {
  const diagnostics: SourceDiagnostic[] = [];
  const no = (what: string, span: Span, fix?: string) =>
    diagnostics.push(diag('VK4008', span, { what, format: 'Vulkan', fix }));
  const scope = (s: Scope, span: Span): VkScope => {
    switch (s) {
      case 'system':
        return 'dv';
      case 'agent':
        return 'qf';
      case 'cluster':
        no('cluster scope', span, 'Vulkan has no cluster scope');
        return 'qf';
      case 'workgroup':
        return 'wg';
      case 'wavefront':
        return 'sg';
      case 'singlethread':
        no('singlethread scope', span, "Dartagnan's syntax has no invocation scope");
        return 'sg';
    }
  };
  for (const l of t.locations) {
    if (l.barrier) no(`named-barrier object @${l.name}`, l.span);
    else if (l.space === 'local' || l.space === 'private')
      no(
        `@${l.name} in the ${l.space === 'local' ? 'LDS' : 'private'} address space`,
        l.span,
        'Vulkan locations of the model are global',
      );
    else if (l.init === 'undef')
      no(`@${l.name} without an initial value`, l.span, 'Vulkan locations start at a value');
    else if (l.type !== 'i32')
      no(`@${l.name} of type ${l.type}`, l.span, "the Vulkan tests' values are 32-bit integers");
  }
  // Dartagnan's registers are r0, r1, …: an AMDGPU register so named keeps its name, any other
  // gets the first such name its thread does not use.
  const regNames = t.threads.map(() => new Map<string, string>());
  const threads: VkThread[] = t.threads.map((th, k) => {
    const body: VkInstr[] = [];
    const names = regNames[k]!;
    const taken = new Set<string>();
    for (const i of th.body)
      if ('dst' in i && typeof i.dst === 'string' && /^r[0-9]+$/.test(i.dst)) {
        names.set(i.dst, i.dst);
        taken.add(i.dst);
      }
    const reg = (name: string): string => {
      let r = names.get(name);
      if (r === undefined) {
        let n = 0;
        while (taken.has(`r${n}`)) n++;
        r = `r${n}`;
        taken.add(r);
        names.set(name, r);
      }
      return r;
    };
    const value = (o: Operand): VkValue => (o.kind === 'const' ? o : { kind: 'reg', name: reg(o.name) });
    if (th.placement.kind === 'host') no(`host thread ${th.name}`, th.span);
    else if (th.placement.cluster !== 0) no(`${th.name} in cluster ${th.placement.cluster}`, th.span);
    const sem = (o: Ordering) => ({
      acquire: o === 'acquire' || o === 'acq_rel' || o === 'seq_cst',
      release: o === 'release' || o === 'acq_rel' || o === 'seq_cst',
    });
    for (const i of th.body) {
      const span = i.span;
      if ('type' in i && typeof i.type === 'string' && i.type !== 'i32')
        no(`an ${i.type} operation`, span, "the Vulkan tests' values are 32-bit integers");
      const warnOrdering = (o: Ordering) => {
        if (o === 'seq_cst')
          no(
            'a seq_cst operation',
            span,
            'Vulkan has no sequentially consistent order (SPIR-V treats it as AcquireRelease)',
          );
        if (o === 'unordered') no('an unordered atomic', span);
      };
      const base = (loc: string) => ({ loc, sc: 0, semsc: 0, nonpriv: false, span });
      switch (i.kind) {
        case 'load':
          if (i.ordering === 'notatomic')
            body.push({
              kind: 'ld',
              dst: reg(i.dst),
              ...base(i.ptr.loc),
              atomic: false,
              nonpriv: true,
              scope: null,
              acquire: false,
              vis: false,
              semvis: false,
            });
          else {
            warnOrdering(i.ordering);
            const { acquire } = sem(i.ordering);
            body.push({
              kind: 'ld',
              dst: reg(i.dst),
              ...base(i.ptr.loc),
              atomic: true,
              scope: scope(i.syncscope.scope, span),
              acquire,
              vis: false,
              semvis: acquire && !i.avNone,
              semsc: acquire ? 1 : 0,
            });
          }
          break;
        case 'store':
          if (i.ordering === 'notatomic')
            body.push({
              kind: 'st',
              ...base(i.ptr.loc),
              value: value(i.value),
              fresh: false,
              atomic: false,
              nonpriv: true,
              scope: null,
              release: false,
              av: false,
              semav: false,
            });
          else {
            warnOrdering(i.ordering);
            const { release } = sem(i.ordering);
            body.push({
              kind: 'st',
              ...base(i.ptr.loc),
              value: value(i.value),
              fresh: false,
              atomic: true,
              scope: scope(i.syncscope.scope, span),
              release,
              av: false,
              semav: release && !i.avNone,
              semsc: release ? 1 : 0,
            });
          }
          break;
        case 'rmw': {
          warnOrdering(i.ordering);
          if (!(['xchg', 'add', 'sub', 'and', 'or', 'xor'] as string[]).includes(i.op))
            no(`atomicrmw ${i.op}`, span);
          const { acquire, release } = sem(i.ordering);
          body.push({
            kind: 'rmw',
            dst: reg(i.dst ?? `rmw.result.${body.length}`),
            ...base(i.ptr.loc),
            op: i.op as 'xchg',
            value: value(i.value),
            fresh: false,
            atomic: true,
            scope: scope(i.syncscope.scope, span),
            acquire,
            release,
            semav: release && !i.avNone,
            semvis: acquire && !i.avNone,
            semsc: acquire || release ? 1 : 0,
          });
          break;
        }
        case 'avload':
          body.push({
            kind: 'ld',
            dst: reg(i.dst),
            ...base(i.ptr.loc),
            atomic: false,
            scope: scope(i.scope, span),
            acquire: false,
            vis: true,
            semvis: false,
          });
          break;
        case 'avstore':
          body.push({
            kind: 'st',
            ...base(i.ptr.loc),
            value: value(i.value),
            fresh: false,
            atomic: false,
            scope: scope(i.scope, span),
            release: false,
            av: true,
            semav: false,
          });
          break;
        case 'fence': {
          warnOrdering(i.ordering);
          if (i.syncAs.length > 0) no('amdgpu-synchronize-as tags', span);
          const { acquire, release } = sem(i.ordering);
          body.push({
            kind: 'membar',
            acquire,
            release,
            scope: scope(i.syncscope.scope, span),
            semsc: 1,
            semav: release && !i.avNone,
            semvis: acquire && !i.avNone,
            span,
          });
          break;
        }
        case 'barrier':
          if (i.op !== 'barrier') no(`the barrier operation ${i.op}`, span);
          else
            body.push({
              kind: 'cbar',
              acquire: false,
              release: false,
              scope: 'wg',
              execScope: 'wg',
              semsc: 0,
              semav: false,
              semvis: false,
              id: '0',
              resource: null,
              quorum: null,
              span,
            });
          break;
        case 'bin':
          if (!LOCAL_OPS.includes(i.op))
            no(`${i.op} (register arithmetic beyond add, sub, mul, and, or, xor)`, span);
          body.push({
            kind: 'local',
            op: i.op as VkLocalOp,
            dst: reg(i.dst),
            a: value(i.a),
            b: value(i.b),
            span,
          });
          break;
        case 'wavebarrier':
          break;
        case 'cmpxchg':
        case 'icmp':
        case 'select':
        case 'extract':
          no(
            `\`${i.kind}\``,
            span,
            "Dartagnan's Vulkan syntax has no compare-exchange and no comparisons into registers",
          );
          break;
      }
    }
    const p = th.placement.kind === 'device' ? th.placement : { agent: 0, workgroup: 0, wavefront: 0 };
    return {
      name: `P${k}`,
      number: k,
      placement: { queueFamily: p.agent, workgroup: p.workgroup, subgroup: p.wavefront },
      body,
      span: th.span,
    };
  });
  const threadIndex = new Map(t.threads.map((th, k) => [th.name, k]));
  const cond = (c: Cond): VkCond => {
    switch (c.kind) {
      case 'true':
      case 'false':
        return { kind: c.kind };
      case 'not':
        return { kind: 'not', arg: cond(c.arg) };
      case 'and':
      case 'or':
        return { kind: c.kind, args: c.args.map(cond) };
      case 'cmp': {
        if (c.rhs.kind === 'undef')
          no('a comparison with undef', c.lhs.span, 'Vulkan reads always return a written value');
        const rhs = {
          kind: 'const' as const,
          value: c.rhs.kind === 'int' ? c.rhs.value : 0,
          span: c.lhs.span,
        };
        const lhs =
          c.lhs.kind === 'reg'
            ? {
                kind: 'reg' as const,
                thread: `P${threadIndex.get(c.lhs.thread) ?? 0}`,
                reg:
                  regNames[threadIndex.get(c.lhs.thread) ?? 0]!.get(c.lhs.reg.replace(/^%/, '')) ?? c.lhs.reg,
                span: c.lhs.span,
              }
            : { kind: 'mem' as const, loc: c.lhs.loc.replace(/^@/, ''), span: c.lhs.span };
        return { kind: 'cmp', op: c.op, lhs, rhs };
      }
    }
  };
  const condition = t.condition
    ? { quantifier: t.condition.quantifier, cond: cond(t.condition.cond), span: t.condition.span }
    : null;
  if (diagnostics.length > 0) return { test: null, diagnostics };
  // The expectations are the AMDGPU model's verdicts, not the Vulkan model's.
  if (t.expects.length > 0)
    diagnostics.push(
      diag('VK4010', t.expects[0]!.span, {
        what: 'an expect: line',
        format: 'Vulkan',
        how: 'dropped, it states a verdict of the AMDGPU model',
      }),
    );
  return {
    test: {
      arch: 'VULKAN',
      format: 'dat3m',
      name: t.name,
      description: t.description ? [t.description] : [],
      expects: [],
      locations: t.locations.map((l) => ({
        name: l.name,
        init: l.init === 'undef' ? 0 : l.init,
        sameAs: null,
        span: l.span,
      })),
      regInits: [],
      threads,
      ssw: [],
      filter: null,
      condition,
      assertions: [],
      file: t.file,
    },
    diagnostics,
  };
}
