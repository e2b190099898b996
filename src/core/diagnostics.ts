/**
 * Diagnostics as data, for every stage: the front ends (litmus LT, Vulkan VK, cat CAT, tables TBL),
 * the command line (CL), lowering (LW), the model (MD), the machines (MC) and the explorer's server
 * (SRV). Detection code reports a stable code, where (a span, when the input has a place) and
 * arguments; the wording (message and hint) lives only in the one table below, so tests assert codes
 * and positions, never prose. Only the edges turn a diagnostic into text: the terminal's formatter
 * (src/cli/format.ts) and the editor's markers (web/src/engine/diagnostics.ts). One object literal
 * holds every code, so a code given twice does not compile; diagnostics.test.ts checks that every
 * code the sources name is in it. docs/litmus.md lists them all.
 */
import type { Span } from './types.ts';

export type Severity = 'error' | 'warning';

/** One problem found by any stage. */
export interface Diagnostic {
  code: DiagnosticCode;
  severity: Severity;
  message: string;
  /** What to do about it. */
  hint?: string;
  /** Where in the input; absent when the whole input, a command or a request is at fault. */
  span?: Span;
  /** The spec text that makes it a problem (a lowering refusal cites its table's row). */
  cite?: string;
}

/** A diagnostic of a file's text: the front ends always say where, and what to do. */
export type SourceDiagnostic = Diagnostic & { span: Span; hint: string };

/** The span of a whole file (or of `<command-line>`): its first character, for file-wide problems. */
export function fileSpan(file: string): Span {
  return { file, offset: 0, line: 1, col: 1, len: 0 };
}

type Args = Record<string, string | undefined>;

interface Entry {
  severity: Severity;
  message: (a: Args) => string;
  hint: (a: Args) => string;
  /**
   * Arguments that are gpumm's own sentences rather than text from the input, left whole (cutting
   * one in its middle loses what it says); whoever builds one cuts the input it quotes.
   */
  prose?: readonly string[];
}

const ORDERINGS_TEXT = 'unordered, monotonic, acquire, release, acq_rel, seq_cst';
const SCOPES_TEXT =
  '"" (system, also written by omitting syncscope), "agent", "cluster", "workgroup", "wavefront", "singlethread", ' +
  'and each with "-one-as" ("one-as" alone is system)';

/** Every diagnostic gpumm reports, of every stage, keyed by a stable code. */
export const DIAGNOSTICS = {
  // Lexical
  LT1001: {
    severity: 'error',
    message: () => 'unterminated string',
    hint: () => 'close the string with " on the same line',
  },
  LT1002: {
    severity: 'error',
    message: (a) => `unexpected character '${a.char}'`,
    hint: () => 'comments start with ; or //; identifiers are letters, digits, _ . - and +',
  },
  // Syntax
  LT2001: {
    severity: 'error',
    message: () => 'missing test header',
    hint: () =>
      'start the file with a line "AMDGPU <test-name>", optionally followed by a "quoted description"',
  },
  LT2002: {
    severity: 'error',
    message: (a) => `unsupported architecture '${a.arch}'`,
    hint: () =>
      'write "AMDGPU <test-name>" (gpumm\'s LLVM IR syntax) or "VULKAN <test-name>" (Dartagnan\'s Vulkan ' +
      'syntax); a Khronos Vulkan-MemoryModel test is read from a file ending in .test',
  },
  LT2003: {
    severity: 'error',
    message: (a) => `expected ${a.expected}, found ${a.found}`,
    hint: (a) => a.hint ?? 'see docs/litmus.md for the grammar',
  },
  LT2004: {
    severity: 'error',
    message: (a) => `unknown instruction '${a.name}'`,
    hint: () =>
      'allowed: load, store, atomicrmw, cmpxchg, fence, call (av intrinsics and barrier intrinsics), ' +
      'add/sub/mul/and/or/xor/shl/lshr/ashr/udiv/urem, icmp, select, extractvalue',
  },
  LT2005: {
    severity: 'error',
    message: (a) => `unknown ordering '${a.name}'`,
    hint: () => `orderings are ${ORDERINGS_TEXT}`,
  },
  LT2006: {
    severity: 'error',
    message: (a) => `unknown syncscope "${a.name}"`,
    hint: () => `syncscopes are ${SCOPES_TEXT}`,
  },
  LT2007: {
    severity: 'error',
    message: (a) => `unknown expectation '${a.text}'`,
    hint: () =>
      'write one of: "expect: condition holds|fails|unknown", "expect: race-free|racy", ' +
      '"expect: undef|no-undef", "expect: ub|no-ub"',
  },
  LT2008: {
    severity: 'error',
    message: (a) => `unknown atomicrmw operation '${a.name}'`,
    hint: () => 'atomicrmw operations are xchg, add, sub, and, or, xor, max, min, umax, umin',
  },
  LT2009: {
    severity: 'error',
    message: (a) => `unknown type '${a.name}'`,
    hint: () =>
      'integer types are i1, i8, i16, i32, i64, i128, or vectors such as <4 x i32>; pointers are ptr',
  },
  LT2010: {
    severity: 'error',
    message: (a) => `unexpected ${a.found} after the end of the statement`,
    hint: () => 'one statement per line; remove the extra tokens',
  },
  LT2011: {
    severity: 'warning',
    message: (a) => `metadata '!${a.name}' is ignored`,
    hint: () =>
      'gpumm gives meaning to !nontemporal and the !mmra tags !{!"amdgcn-av", !"none"} and !{!"amdgpu-synchronize-as", …}; other metadata is dropped',
  },
  LT2012: {
    severity: 'error',
    message: (a) => `unknown intrinsic '@${a.name}'`,
    hint: () =>
      'known: llvm.amdgcn.av.global.load.b128, llvm.amdgcn.av.global.store.b128, llvm.amdgcn.s.barrier, ' +
      'llvm.amdgcn.s.barrier.signal, .signal.isfirst, .signal.var, .wait, .init, .join, .leave, llvm.amdgcn.wave.barrier',
  },
  LT2013: {
    severity: 'error',
    message: (a) => `thread ${a.thread} is not closed`,
    hint: () => 'end the thread body with a line containing only }',
  },
  LT2014: {
    severity: 'error',
    message: (a) => `unknown placement coordinate '${a.name}'`,
    hint: () =>
      'write "P0 @ agent 0, cluster 0, workgroup 1, wavefront 0" (any subset; omitted ones are 0) or "P0 @ host"',
  },
  LT2015: {
    severity: 'error',
    message: () => 'instruction outside a thread',
    hint: () => 'put instructions inside a thread block: "P0 @ workgroup 0 {" … "}"',
  },
  LT2016: {
    severity: 'error',
    message: (a) => `unsupported address space ${a.n}`,
    hint: () => 'address spaces are 0 (generic), 1 (global), 3 (local/LDS), 4 (constant), 5 (private)',
  },
  LT2017: {
    severity: 'error',
    message: (a) => `integer ${a.text} is out of range`,
    hint: () => `integers must lie between ${Number.MIN_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER}`,
  },
  LT2018: {
    severity: 'error',
    message: (a) => `unknown icmp predicate '${a.name}'`,
    hint: () => 'predicates are eq, ne, ugt, uge, ult, ule, sgt, sge, slt, sle',
  },
  LT2019: {
    severity: 'error',
    message: () => 'more than one final condition',
    hint: () => 'a test has one condition: combine them with /\\ or \\/',
  },
  LT2020: {
    severity: 'error',
    message: (a) => `unsupported !mmra value ${a.text}`,
    hint: () =>
      'AMDGPU MMRA tags are !{!"amdgcn-av", !"none"} and, on fences, !{!"amdgpu-synchronize-as", !"global"} or !"local"; ' +
      'several tags are a tuple of tags, !{!0, !1}',
  },
  LT2021: {
    severity: 'error',
    message: (a) => `unknown address space '${a.name}' in amdgpu-synchronize-as`,
    hint: () =>
      'LLVM\'s memory legalizer knows only "global" and "local" (it warns about any other name and drops it)',
  },
  LT2022: {
    severity: 'warning',
    message: (a) => `amdgpu-synchronize-as on ${a.instr === 'rmw' ? 'atomicrmw' : a.instr} is ignored`,
    hint: () =>
      'LLVM reads amdgpu-synchronize-as on fences only; an atomic access orders the address space it accesses',
  },
  LT2023: {
    severity: 'error',
    message: () => 'the region (GDS) address space 2 is not modelled',
    hint: () =>
      'amdgpu-usage-2018.rst: "The memory model does not support the region address space" and region ' +
      'memory is "not implemented for AMDHSA"; use global (1) or local (3) memory',
  },
  LT2024: {
    severity: 'error',
    message: (a) => `nested more than ${a.limit} levels deep`,
    hint: () =>
      'brackets and negations in a condition or a type nest at most this deep; flatten the expression',
  },
  // Semantic
  LT3001: {
    severity: 'error',
    message: (a) => `${a.instr} cannot have ${a.ordering} ordering`,
    hint: (a) => `allowed for ${a.instr}: ${a.allowed}`,
  },
  LT3002: {
    severity: 'error',
    message: (a) => a.what ?? '',
    hint: (a) => a.fix ?? '',
  },
  LT3003: {
    severity: 'error',
    message: (a) => `undefined location '@${a.name}'`,
    hint: (a) => `declare it before the threads, e.g. "@${a.name} = addrspace(1) global i32 0"${a.near}`,
  },
  LT3004: {
    severity: 'error',
    message: (a) => `location '@${a.name}' is declared twice`,
    hint: (a) => `the first declaration is at line ${a.line}; rename one of them`,
  },
  LT3005: {
    severity: 'error',
    message: (a) => `register '%${a.name}' is used before it is defined in ${a.thread}`,
    hint: () =>
      'registers are per thread and must be defined (%r = …) by an earlier instruction of the same thread',
  },
  LT3006: {
    severity: 'error',
    message: (a) => `register '%${a.name}' is defined twice in ${a.thread}`,
    hint: (a) => `registers are assigned once (SSA); the first definition is at line ${a.line}`,
  },
  LT3007: {
    severity: 'error',
    message: (a) => `thread ${a.name} is declared twice`,
    hint: (a) => `the first ${a.name} is at line ${a.line}; give each thread its own name (P0, P1, …)`,
  },
  LT3008: {
    severity: 'error',
    message: (a) => `placement of ${a.thread} contradicts itself: ${a.why}`,
    hint: () => 'give each coordinate once; a host thread takes no GPU coordinates',
  },
  LT3009: {
    severity: 'error',
    message: (a) => `local (LDS) location '@${a.name}' is used from ${a.where}`,
    hint: () =>
      'LDS exists once per workgroup on one agent: use it from threads of one agent only, never from the host; ' +
      'use addrspace(1) global memory to communicate across agents',
  },
  LT3010: {
    severity: 'error',
    message: (a) => `pointer in address space ${a.ptr} cannot name '@${a.name}', which is ${a.loc} memory`,
    hint: (a) => `use "ptr addrspace(${a.n}) @${a.name}" or a generic "ptr @${a.name}"`,
  },
  LT3011: {
    severity: 'error',
    message: (a) => `the condition names ${a.what}, which the test does not define`,
    hint: (a) => a.hint ?? 'a condition term is P<n>:%reg, @loc, or P<n>:@loc for a local location',
  },
  LT3012: {
    severity: 'error',
    message: (a) => `'@${a.name}' is constant memory and cannot be written`,
    hint: () => 'declare it in addrspace(1) with "global" if threads write it',
  },
  LT3013: {
    severity: 'error',
    message: (a) => `undefined metadata '!${a.name}'`,
    hint: () =>
      'define it at top level, e.g. "!0 = !{i32 1}" or "!1 = !{!"amdgcn-av", !"none"}", or write it inline',
  },
  LT3014: {
    severity: 'error',
    message: (a) => `${a.intrinsic} needs global memory, but '@${a.name}' is ${a.loc}`,
    hint: () => 'the av intrinsics take ptr addrspace(1)',
  },
  LT3015: {
    severity: 'error',
    message: (a) => a.what ?? '',
    hint: () =>
      'named-barrier objects are LDS globals of type target("amdgcn.named.barrier", 0) and are used only by ' +
      'barrier intrinsics',
  },
  LT3016: {
    severity: 'error',
    message: (a) => `metadata '!${a.name}' is defined twice`,
    hint: () => 'number each metadata node once',
  },
  LT3017: {
    severity: 'error',
    message: (a) => `'@${a.name}' has one copy per workgroup (local) or per thread (private); say whose copy`,
    hint: (a) => `write ${a.example}:@${a.name} with a thread of the workgroup you mean`,
  },
  LT3018: {
    severity: 'error',
    message: (a) => `extractvalue needs the result of a cmpxchg, but '%${a.name}' is not one`,
    hint: () => 'extractvalue { i32, i1 } %pair, 0 gives the old value and , 1 the success flag of a cmpxchg',
  },
  LT3019: {
    severity: 'error',
    message: (a) => `a second 'expect: ${a.key}' line`,
    hint: (a) => `the first is at line ${a.line}; keep one`,
  },
  LT3020: {
    severity: 'error',
    message: () => 'the test has no threads',
    hint: () => 'add at least one thread: "P0 @ workgroup 0 {" … "}"',
  },
  LT3021: {
    severity: 'error',
    message: (a) => a.what ?? '',
    hint: (a) => a.fix ?? '',
  },
  LT3022: {
    severity: 'error',
    message: (a) => a.what ?? '',
    hint: () =>
      'shaders use -1 (workgroup barrier), -3 (cluster barrier, GFX12.5), 0 (NULL barrier) or 1–16 (named barriers)',
  },
  LT3023: {
    severity: 'error',
    message: (a) =>
      `${a.thread} and ${a.other} are lanes of one wavefront but perform different barrier operations`,
    hint: () =>
      'seeds/001: "s_barrier instructions are convergent within a wave, and thus can only be performed in ' +
      'wave-uniform control flow"; give every thread of a wavefront the same barrier operations, or put ' +
      'them in different wavefronts (wavefront N)',
  },
  // cat models (src/cat/, docs/cat.md)
  CAT1001: {
    severity: 'error',
    message: (a) => `unexpected character '${a.char}' in a cat model`,
    hint: () =>
      'comments are (* … *); names are letters, digits, _ . and -; operators are | & \\ ; * + ? ~ ^-1 [ ]',
  },
  CAT1002: {
    severity: 'error',
    message: () => 'unterminated comment',
    hint: () => 'close the comment with *) (comments nest)',
  },
  CAT1003: {
    severity: 'error',
    message: () => 'unterminated string',
    hint: () => 'close the string with " on the same line',
  },
  CAT2001: {
    severity: 'error',
    message: (a) => `expected ${a.expected}, found ${a.found}`,
    hint: (a) => a.hint ?? 'see docs/cat.md for the grammar',
  },
  CAT2002: {
    severity: 'error',
    message: (a) => `herd7's ${a.construct} is not supported by gpumm`,
    hint: (a) => a.hint ?? 'docs/cat.md lists what gpumm reads of the cat language',
  },
  CAT2003: {
    severity: 'error',
    message: (a) => `nested more than ${a.limit} levels deep`,
    hint: () =>
      'brackets, prefix and postfix operators, let … in and if nest at most this deep; name the parts with let',
  },
  CAT3001: {
    severity: 'error',
    message: (a) => `unknown name '${a.name}'`,
    hint: (a) =>
      a.near
        ? `did you mean ${a.near}? docs/cat.md lists the primitives`
        : 'docs/cat.md lists the primitives',
  },
  CAT3002: {
    severity: 'error',
    message: (a) => `${a.what} must be ${a.expected}, found ${a.found}`,
    hint: () =>
      'turn a set S into a relation with [S] or S*S, a relation r into a set with domain(r) or range(r)',
  },
  CAT3003: {
    severity: 'error',
    message: (a) => `'${a.name}' ${a.why}`,
    hint: () => 'functions are defined with let f(x, y) = … and applied as f(a, b)',
  },
  CAT3004: {
    severity: 'error',
    message: (a) => `cannot include '${a.file}': ${a.why}`,
    hint: () =>
      "include names a .cat file beside the including one, or one of gpumm's models/ (herd7's stdlib.cat " +
      'and cos.cat are built in; its other library files are not shipped)',
  },
  CAT3005: {
    severity: 'error',
    message: (a) => `'${a.file}' includes itself`,
    hint: () => 'remove the include cycle',
  },
  CAT3006: {
    severity: 'error',
    message: (a) => `'${a.name}' has no meaning in gpumm: ${a.why}`,
    hint: () => 'docs/cat.md lists what a cat model sees of a gpumm test',
  },
  CAT3007: {
    severity: 'error',
    message: (a) => `'${a.name}' is recursive through a function`,
    hint: () => 'recursion goes through let rec … and … over sets and relations, not through functions',
  },
  CAT3008: {
    severity: 'error',
    message: (a) => `the model expands to more than ${a.limit} operations`,
    hint: () =>
      'a function is expanded where it is applied: name a value computed once with let instead of applying a function to it again and again',
  },
  // Command line and files (positioned in the file, or in the command line as <command-line>:1:col)
  // Vulkan tests: Dartagnan's herd-like syntax and the Khronos `.test` format (docs/vulkan-litmus.md)
  VK1001: {
    severity: 'error',
    message: () => 'unterminated string',
    hint: () => 'close the description with "',
  },
  VK1002: {
    severity: 'error',
    message: (a) => `unexpected character '${a.char}'`,
    hint: () =>
      'a Vulkan litmus file has names, integers, "strings", (* comments *), // comments and the ' +
      'punctuation { } ( ) [ ] ; , | : = @ ~ /\\ \\/ == != < <= > >=',
  },
  VK1003: {
    severity: 'error',
    message: () => 'unterminated comment',
    hint: () => 'close the comment with *)',
  },
  VK2001: {
    severity: 'error',
    message: () => 'missing test header',
    hint: () => 'start the file with a line "VULKAN <test-name>"',
  },
  VK2002: {
    severity: 'error',
    message: (a) => `expected ${a.expected}, found ${a.found}`,
    hint: (a) => a.hint ?? 'see docs/vulkan-litmus.md for the syntax',
  },
  VK2003: {
    severity: 'error',
    message: (a) => `unknown instruction '${a.name}'`,
    hint: () =>
      'instructions are ld, st, rmw, membar, cbar, avdevice, visdevice, add/sub/mul/and/or/xor, ' +
      'beq/bne/blt/ble/bgt/bge, goto and labels (LC00:)',
  },
  VK2004: {
    severity: 'error',
    message: (a) => `'.${a.name}' is not a modifier of ${a.op}`,
    hint: (a) => `${a.op} takes ${a.allowed}`,
  },
  VK2005: {
    severity: 'error',
    message: (a) => `'.${a.name}' conflicts with '.${a.other}'`,
    hint: (a) => a.why ?? 'give each kind of modifier once',
  },
  VK2006: {
    severity: 'error',
    message: (a) => `this row has ${a.cells} cells but the test has ${a.threads} threads`,
    hint: () => 'give every thread one cell per row, separated by |, and end the row with ;',
  },
  VK2007: {
    severity: 'error',
    message: (a) => `thread name '${a.name}' ${a.why}`,
    hint: () => 'name the threads P0, P1, … once each, in the row that places them',
  },
  VK2008: {
    severity: 'error',
    message: (a) => `nested more than ${a.limit} levels deep`,
    hint: () => 'brackets and negations in a condition nest at most this deep; flatten the expression',
  },
  VK3001: {
    severity: 'error',
    message: (a) => `${a.op} has no storage class`,
    hint: () => 'give every access one storage class: .sc0, .sc1, .sc2 or .sc3',
  },
  VK3002: {
    severity: 'error',
    message: (a) => `${a.what} needs a scope`,
    hint: () => 'scopes are .sg (subgroup), .wg (workgroup), .qf (queue family) and .dv (device)',
  },
  VK3003: {
    severity: 'error',
    message: (a) => `${a.what}`,
    hint: (a) => a.fix ?? 'see docs/vulkan-litmus.md, "Instructions"',
  },
  VK3004: {
    severity: 'error',
    message: (a) => `.${a.flag} needs ${a.needs} semantics`,
    hint: () =>
      'Vulkan spec, "Memory Semantics": MakeAvailable needs Release or AcquireRelease, MakeVisible ' +
      'needs Acquire or AcquireRelease',
  },
  VK3005: {
    severity: 'warning',
    message: () => 'storage-class semantics without acquire or release have no effect',
    hint: () => 'add .acq, .rel or .acq_rel, or drop the .semsc modifiers',
  },
  VK3006: {
    severity: 'warning',
    message: (a) => `this ${a.what} names no storage-class semantics: it orders no memory`,
    hint: () => 'name the storage classes it orders: .semsc0 … .semsc3',
  },
  VK3007: {
    severity: 'error',
    message: () => 'a scope on a plain access',
    hint: () => 'a scope belongs to an atomic (.atom) or an availability/visibility operation (.av, .vis)',
  },
  VK3008: {
    severity: 'error',
    message: (a) => `unknown label '${a.name}' in ${a.thread}`,
    hint: (a) => (a.near ? `labels of ${a.thread}: ${a.near}` : `${a.thread} has no labels`),
  },
  VK3009: {
    severity: 'error',
    message: (a) => `label '${a.name}' defined twice in ${a.thread}`,
    hint: (a) => `the first is at line ${a.line}; rename one`,
  },
  VK3010: {
    severity: 'error',
    message: (a) => `register ${a.reg} of ${a.thread} is read but never assigned`,
    hint: (a) => `assign it in ${a.thread} or give it an initial value: ${a.thread}:${a.reg} = 0`,
  },
  VK3011: {
    severity: 'error',
    message: (a) => `unknown thread '${a.name}'`,
    hint: (a) => (a.near ? `the test's threads: ${a.near}` : 'the test has no threads'),
  },
  VK3012: {
    severity: 'error',
    message: (a) => `${a.thread} has no register ${a.reg}`,
    hint: (a) => (a.near ? `its registers: ${a.near}` : `${a.thread} assigns no register`),
  },
  VK3013: {
    severity: 'error',
    message: (a) => `${a.what} declared twice`,
    hint: (a) => `the first is at line ${a.line}; keep one`,
  },
  VK3014: {
    severity: 'error',
    message: (a) => `${a.what}`,
    hint: () => 'write x = y (or SLOC x y) with y a location declared with an initial value',
  },
  VK3015: {
    severity: 'error',
    message: (a) => `${a.what}`,
    hint: () => 'a named barrier is cbar… id, resource, quorum with a quorum of at least 1',
  },
  VK3016: {
    severity: 'error',
    message: (a) => `integer ${a.text} is out of range`,
    hint: () => 'values are integers of magnitude below 2^53',
  },
  VK3017: {
    severity: 'error',
    message: (a) => `unknown location '${a.name}' in the condition`,
    hint: (a) => (a.near ? `the test's locations: ${a.near}` : 'the test accesses no memory'),
  },
  VK4001: {
    severity: 'error',
    message: (a) => `unknown token '${a.name}'`,
    hint: () =>
      'tokens are st ld rmw membar cbar atom acq rel sc0 sc1 sc2 sc3 semsc0 semsc1 semsc2 semsc3 ' +
      'scopesg scopewg scopeqf scopedev avdevice visdevice semav semvis av vis nonpriv',
  },
  VK4002: {
    severity: 'error',
    message: () => 'an instruction before the first NEWTHREAD',
    hint: () => 'start each thread with NEWTHREAD (after NEWQF / NEWWG / NEWSG as needed)',
  },
  VK4003: {
    severity: 'error',
    message: (a) => `unknown predicate '${a.name}'`,
    hint: () =>
      'gpumm decides consistent[X], racefree[X], #dr=0, #dr>0 and #dr!=0, joined by &&, ||, ! and parentheses',
  },
  VK4004: {
    severity: 'error',
    message: (a) => `${a.directive} takes ${a.takes}`,
    hint: (a) => `for example: ${a.example}`,
  },
  VK4005: {
    severity: 'error',
    message: (a) => `thread number ${a.number} used twice`,
    hint: (a) => `the first is at line ${a.line}; number each NEWTHREAD once`,
  },
  VK4006: {
    severity: 'error',
    message: () => 'an instruction without an operation',
    hint: () => 'name the operation: st, ld, rmw (or ld.st.atom), membar, cbar, avdevice or visdevice',
  },
  VK4007: {
    severity: 'error',
    message: () => 'a predicate about inconsistent executions',
    hint: () =>
      'gpumm enumerates consistent executions only: assert consistent[X] (with NOSOLUTION for "never")',
  },
  VK4008: {
    severity: 'error',
    message: (a) => `${a.what} cannot be written in the ${a.format} syntax`,
    hint: (a) => a.fix ?? 'convert to another syntax (gpumm convert --to …)',
  },
  VK4009: {
    severity: 'warning',
    message: (a) => `${a.what} has no exact AMDGPU spelling: ${a.how}`,
    hint: () => 'the AMDGPU test orders more than the Vulkan one (docs/model-vulkan.md, "Vulkan and AMDGPU")',
  },
  VK4010: {
    severity: 'warning',
    message: (a) => `${a.what} has no ${a.format} spelling: ${a.how}`,
    hint: () => 'reading the converted test back gives a test without it',
  },
  CL1001: {
    severity: 'error',
    message: (a) => `'${a.file}': ${a.why}`,
    hint: (a) =>
      a.kind === 'cat'
        ? "check the path; cat models end in .cat (gpumm's own: --model amdgpu-cat, --model rc11)"
        : a.kind === 'table'
          ? 'check the path; write a table with gpumm lower --table --target T --json > FILE'
          : a.kind === 'results'
            ? "check the path: a campaign's results file is the one its --out names"
            : 'check the path; litmus files end in .litmus',
  },
  CL1002: {
    severity: 'error',
    message: (a) => `'${a.file}' is a directory`,
    hint: (a) =>
      a.kind === 'cat'
        ? 'give the path of a .cat file'
        : a.kind === 'table'
          ? 'give the path of a table file (gpumm lower --table --json)'
          : a.kind === 'results'
            ? "give the paths of a campaign's results files, e.g. results-*.jsonl"
            : 'pass litmus files, e.g. litmus/*.litmus',
  },
  CL1003: {
    severity: 'error',
    message: (a) => a.what ?? '',
    hint: (a) => a.fix ?? 'see gpumm --help',
    prose: ['what', 'fix'],
  },
  CL1004: {
    severity: 'error',
    message: (a) =>
      `--state ${a.state}: test ${a.test} has ${a.count === '1' ? 'one final state' : `${a.count} final states`}`,
    hint: (a) =>
      a.count === '0'
        ? 'the test has no final state to draw'
        : `choose a state from 0 to ${Number(a.count) - 1}, in the order \`gpumm run\` lists them`,
  },
  CL1005: {
    severity: 'error',
    message: (a) => `'${a.file}' is not UTF-8 text: byte ${a.byte} here is not part of a UTF-8 character`,
    hint: (a) => {
      const [files, one] =
        a.kind === 'cat'
          ? ['cat models', 'cat model']
          : a.kind === 'table'
            ? ['tables', 'table']
            : a.kind === 'results'
              ? ["campaigns' results", 'results file']
              : ['litmus files', 'test'];
      return `gpumm reads ${files} as UTF-8: save the file as UTF-8 (a binary file is not a ${one})`;
    },
  },
  CL1006: {
    severity: 'error',
    message: (a) => `cannot write '${a.file}': ${a.why}`,
    hint: () => 'give --out a path in a folder that exists and that you may write to',
  },
  CL1007: {
    severity: 'error',
    message: (a) => `cannot write the output: ${a.why}`,
    hint: () =>
      'free space where standard output goes, or send it elsewhere (a file on another disk, a pipe)',
  },
  CL1008: {
    severity: 'error',
    message: (a) => `'${a.file}' is larger than ${a.limit}`,
    hint: (a) =>
      `gpumm reads inputs of at most ${a.limit}; a larger one is refused before it is read whole (GPUMM_MAX_INPUT=<MiB> raises the limit)`,
  },
  // Campaigns (`gpumm campaign`, docs/campaigns.md)
  CL1009: {
    severity: 'error',
    message: (a) => `'${a.file}' already holds a campaign's results`,
    hint: () => '--resume to continue it, or remove it',
  },
  CL1010: {
    severity: 'error',
    message: (a) => `'${a.file}' holds a campaign of other settings (${a.fields})`,
    hint: (a) =>
      `${a.detail}: resume it with the settings it was started with (its first line), or give another --out`,
    prose: ['detail'],
  },
  CL1012: {
    severity: 'error',
    message: (a) => `'${a.file}' is not a shard of the campaign of '${a.first}' (${a.fields})`,
    hint: (a) => `${a.detail}: merge the shards of one campaign (same targets, lowerings, budgets and gpumm)`,
    prose: ['detail'],
  },
  CL1013: {
    severity: 'warning',
    message: (a) =>
      `the files merged are not the whole campaign: shard${a.plural} ${a.missing} of ${a.count} missing`,
    hint: (a) =>
      `the merged file holds only the tests of the shards given; merge every shard i/${a.count} (0 ≤ i < ${a.count}) for the whole campaign`,
  },
  CL1014: {
    severity: 'warning',
    message: (a) => `the merged results hold ${a.have} of the campaign's ${a.count} tests`,
    hint: () =>
      'a shard stopped before its end (killed, out of time): run it again with --resume, then merge again',
  },
  // A campaign's results files, as `campaign report`, `merge` and `--resume` read them (src/campaign/read.ts)
  CL1020: {
    severity: 'error',
    message: (a) => `not a line of a campaign's results: ${a.what}`,
    hint: (a) =>
      a.fix ??
      'a results file is JSON lines as `gpumm campaign … --out FILE` writes them: the header, then test and mutation lines',
    prose: ['what', 'fix'],
  },
  CL1021: {
    severity: 'warning',
    message: () => 'the last line is cut short (the campaign stopped while writing it): it is left out',
    hint: () => 'resuming the campaign with the same --out drops the line and runs its test again',
  },
  // A campaign as a Slurm job array (`gpumm campaign slurm`; docs/campaigns.md)
  CL1030: {
    severity: 'error',
    message: () => '--submit: sbatch is not installed here',
    hint: () =>
      'submit from a machine of the cluster (a login node), or write the script with --script FILE and run sbatch FILE there',
  },
  CL1031: {
    severity: 'error',
    message: (a) => `sbatch refused the job: ${a.why}`,
    hint: () =>
      'sinfo lists the partitions and their time limits; write the script with --script FILE to read what was submitted',
    prose: ['why'],
  },
  CL1032: {
    severity: 'error',
    message: (a) => `${a.what} '${a.value}' cannot be written in a Slurm batch script: ${a.why}`,
    hint: () => 'choose a folder (or name) without line breaks or backslashes',
    prose: ['why'],
  },
  CL1033: {
    severity: 'error',
    message: (a) => `cannot create the folder '${a.dir}': ${a.why}`,
    hint: () => 'give --out-dir a folder you may create, on a file system every node of the cluster sees',
  },
  // Code-sequence tables read by `gpumm check --table` (docs/tables.md)
  TBL1001: {
    severity: 'error',
    message: (a) => `${a.what}`,
    hint: () => 'a table file is JSON as `gpumm lower --table --target T --json` writes it',
  },
  TBL2001: {
    severity: 'error',
    message: (a) => `${a.path}: ${a.what}`,
    hint: () =>
      'a table has "target", "columns" (each with a "label") and "cells" (each with a "key" and "results": ' +
      'one per column, each with "asm", its lines of machine code); docs/tables.md',
    prose: ['what'],
  },
  TBL2002: {
    severity: 'error',
    message: (a) => `unknown cell key "${a.key}"`,
    hint: (a) =>
      a.near
        ? `nearest keys: ${a.near}`
        : 'keys are spelt as `gpumm lower --table` prints them, folded (`[-one-as]`, `[*]`) or not: "load acquire agent global"',
    prose: ['near'],
  },
  TBL2003: {
    severity: 'error',
    message: (a) => `${a.what} "${a.name}" is given twice`,
    hint: (a) => `the first is at line ${a.line}; keep one`,
  },
  TBL2004: {
    severity: 'error',
    message: (a) => `"${a.field}" is ${a.got}, but ${a.owner} says ${a.want}`,
    hint: (a) => `the ${a.by} decides: correct the field, or delete it`,
    prose: ['owner', 'by'],
  },
  TBL2005: {
    severity: 'error',
    message: (a) => `${a.target} has no column "${a.label}"`,
    hint: (a) => `its columns: ${a.known}`,
  },
  TBL2006: {
    severity: 'error',
    message: (a) => `this cell has ${a.got} results, the table ${a.want} columns`,
    hint: () => 'give one result per column, in the order of "columns"',
  },
  TBL2007: {
    severity: 'error',
    message: (a) => `target "${a.name}" ${a.why}`,
    hint: (a) => a.fix ?? 'see gpumm check --help for the targets',
    prose: ['why', 'fix'],
  },
  TBL2008: {
    severity: 'error',
    message: (a) => `the table is for ${a.file}, but --target ${a.option} was given`,
    hint: (a) =>
      `drop --target (the table's own is used), or start from ${a.option}'s table: gpumm lower --table --target ${a.option} --json`,
  },
  TBL3001: {
    severity: 'error',
    message: (a) => `'${a.line}' in cell "${a.key}", column ${a.column}: ${a.why}`,
    hint: (a) =>
      a.intel
        ? 'write one instruction per string as gpumm lower --table prints it: lsc_fence.ugm.evict.gpu, lsc_load.ugm, "local: lsc_load.slm"'
        : 'write one instruction per string as gpumm lower --table prints it (global_load glc=1, s_waitcnt vmcnt(0), global_inv scope:SCOPE_DEV) or as llc-22 does',
  },
  // Lowering (src/lower/): `gpumm lower`, `check`'s documents' code. Arguments are positional.
  LW2001: {
    severity: 'error',
    message: (a) => `unknown target "${a[0]}"`,
    hint: (a) => `nearest known names: ${a[1]}`,
    prose: ['1'],
  },
  LW2002: {
    severity: 'error',
    message: (a) => `${a[0]} cannot have ${a[1]} ordering`,
    hint: (a) => `use one of: ${a[2]}`,
    prose: ['2'],
  },
  LW2003: {
    severity: 'error',
    message: (a) => `${a[0]} to the constant address space is not allowed`,
    hint: () =>
      'the constant address space cannot change during a kernel dispatch; only plain loads are allowed',
  },
  LW2004: {
    severity: 'error',
    message: (a) => `the generic (flat) address space does not exist on ${a[0]}`,
    hint: () => 'use a global, local or private pointer, or a GFX7+ target',
  },
  LW2005: {
    severity: 'error',
    message: (a) => `no memory-model code-sequence table for ${a[0]} (${a[1]})`,
    hint: () =>
      'tables exist for GFX6–GFX9 (gfx600…gfx903), GFX90A, GFX942/GFX950, GFX10–11 (gfx1010, gfx1030, gfx1100), GFX12 (gfx1200, gfx1201) and GFX12.5 (gfx1250, gfx1251)',
  },
  LW2006: {
    severity: 'error',
    message: (a) => `barrier operation "${a[0]}" is not available on ${a[1]}`,
    hint: (a) => a[2] ?? '',
    prose: ['2'],
  },
  LW2007: {
    severity: 'error',
    message: (a) => `barrier id ${a[0]} is not available to ${a[1]} on ${a[2]}`,
    hint: (a) => a[3] ?? '',
    prose: ['3'],
  },
  LW2008: {
    severity: 'warning',
    message: (a) => `${a[0]} has no lowering on ${a[1]}`,
    hint: () =>
      "Intel's graphics compiler has no such intrinsic, and the AMDGPU rule (the monotonic atomic access of the scope, 128 bits wide) has no Xe counterpart: Xe's monotonic atomics are LSC atomics, whose data sizes end at 64 bits",
  },
  LW2009: {
    severity: 'error',
    message: (a) => `option ${a[0]} does not apply to ${a[1]}`,
    hint: (a) => a[2] ?? '',
    prose: ['2'],
  },
  LW2010: {
    severity: 'error',
    message: (a) => `cmpxchg failure ordering ${a[0]} is not allowed`,
    hint: () => 'use monotonic, acquire or seq_cst',
  },
  LW2011: {
    severity: 'error',
    message: () => 'no litmus file given',
    hint: () =>
      'gpumm lower FILE --target <name>, or gpumm lower --table --target <name> for the whole table',
  },
  LW2012: {
    severity: 'error',
    message: (a) => `the local address space cannot be used in TgSplit execution mode (${a[0]})`,
    hint: () => 'drop --tgsplit, or use a global pointer: in TgSplit mode no LDS is allocated',
  },
  LW2013: {
    severity: 'error',
    message: (a) => `barrier member count ${a[0]} does not fit the 7 bits m0[22:16] of ${a[1]}`,
    hint: () => 'a named barrier counts at most 127 members',
  },
  LW2014: {
    severity: 'warning',
    message: (a) => `${a[0]} has no meaning on ${a[1]}`,
    hint: (a) => a[2] ?? '',
    prose: ['2'],
  },
  LW2015: {
    severity: 'error',
    message: (a) => `processor ${a[0]} is listed more than once (as ${a[1]})`,
    hint: () =>
      'list each processor once: an alias (fiji for gfx803, bmg-g21 for bmg) is the same processor and lowers alike; --target gfx942,pvc',
  },
  LW2016: {
    severity: 'error',
    message: (a) => `the --target list "${a[0]}" has an empty name`,
    hint: () => 'separate target names by single commas, with none at either end: --target gfx942,pvc',
  },
  // The model (src/events/skeleton.ts, src/enumerate/verdict.ts): what keeps it from deciding a test.
  // MD003 (a -one-as syncscope in a test touching several address spaces) and MD005 (an unknown
  // register, which the front end refuses first) are retired; their codes are not reused.
  MD001: {
    severity: 'error',
    message: (a) => `unknown location @${a.loc}`,
    hint: () => 'declare the location in the memory section before the threads, e.g. `@x = global i32 0`',
  },
  MD002: {
    severity: 'error',
    message: (a) => `host thread ${a.thread} cannot access LDS location @${a.loc}`,
    hint: () => 'host threads share only system scope; keep LDS (addrspace(3)) locations to device threads',
  },
  MD004: {
    severity: 'error',
    message: (a) => a.what ?? '',
    hint: () => 'docs/model.md (choice 7) lists the barrier operations the model decides',
    prose: ['what'],
  },
  MD006: {
    severity: 'error',
    message: (a) => a.what ?? '',
    hint: () => 'name the copy with a thread whose workgroup owns it, e.g. P0:@x',
    prose: ['what'],
  },
  MD007: {
    severity: 'error',
    message: (a) =>
      `the test has ${a.size} events (instructions and initial writes); the model decides tests of at most ${a.max}`,
    hint: (a) =>
      `litmus tests of the model have at most ${a.max} events: split the test into smaller ones (gpumm lower and gpumm parse take tests of any size)`,
  },
  // The machines (src/sim/program.ts) and the code they run (src/check/): why a check runs no machine.
  MC1001: {
    severity: 'error',
    message: (a) =>
      `${a.thread} is a host thread: the documents give no code sequences for host code and describe the CPU only as a cache the GPU's probes keep coherent, so no machine runs it (docs/hardware.md, "Host threads")`,
    hint: () => 'check the device threads in a test of their own',
  },
  MC1002: {
    severity: 'error',
    message: (a) => `${a.thread}: line ${a.line} dispatches on an unknown location`,
    hint: () => 'a generic access is lowered once per address space its location can be in',
  },
  MC1003: {
    severity: 'error',
    message: (a) => `${a.thread}: line ${a.line} has no branch for ${a.space} memory`,
    hint: () => 'the code of a generic access needs a branch for each address space it may reach',
  },
  MC1004: {
    severity: 'error',
    message: (a) =>
      `${a.thread}: ${a.kind} at line ${a.line} became ${a.count} memory instructions (${a.seq})`,
    hint: () => 'a machine runs one memory instruction per access of the test',
  },
  MC1005: {
    severity: 'error',
    message: (a) => `${a.thread}: line ${a.line} has memory instructions but no access`,
    hint: () => 'only loads, stores and atomics of the test lower to memory instructions',
  },
  MC1006: {
    severity: 'error',
    message: (a) => `${a.thread}: unknown location @${a.loc}`,
    hint: () => 'declare the location in the memory section before the threads',
  },
  MC1007: {
    severity: 'error',
    message: (a) => `${a.thread}: @${a.loc} is LDS, and in TgSplit execution mode no LDS is allocated`,
    hint: () => 'check the test without --tgsplit, or put the location in global memory',
  },
  MC1008: {
    severity: 'error',
    message: (a) => `${a.thread}: ${a.instr} on non-LDS location @${a.loc}`,
    hint: () => 'LDS instructions (ds_*) reach addrspace(3) locations only',
  },
  MC1009: {
    severity: 'error',
    message: (a) => `${a.thread}: ${a.instr} cannot reach LDS location @${a.loc}`,
    hint: () => 'LDS locations are reached by LDS instructions (ds_*) or flat ones',
  },
  MC1010: {
    severity: 'error',
    message: (a) => `${a.thread}: ${a.instr}${a.sep ?? ' '}is not implemented by the ${a.family} machine`,
    hint: () => 'docs/hardware.md lists the instructions each machine runs',
  },
  MC1011: {
    severity: 'error',
    message: (a) => `${a.thread}: ${a.instr} waits on ${a.counters}, which ${a.family} does not have`,
    hint: () => 'docs/hardware.md lists the counters of each family',
  },
  MC1012: {
    severity: 'error',
    message: (a) => `${a.thread}: ${a.instr}${a.sep ?? ' '}${a.why}`,
    hint: () => 'docs/hardware.md says what each machine runs of the instruction',
    prose: ['why'],
  },
  MC1013: {
    severity: 'error',
    message: (a) => `${a.thread}: unknown instruction`,
    hint: () => 'docs/hardware.md lists the instructions each machine runs',
  },
  MC2001: {
    severity: 'error',
    message: (a) => `${a.thread}: line ${a.line}: ${a.why}`,
    hint: () =>
      'llc-22 compiles the whole test as one module: check this test against the documents’ code only',
    prose: ['why'],
  },
  MC2007: {
    severity: 'error',
    message: (a) => a.what ?? '',
    hint: () => 'check the test against the documents’ code (--lowering doc), which needs no llc-22',
    prose: ['what'],
  },
  MC2002: {
    severity: 'error',
    message: (a) => `${a.file} has no column ${a.column}`,
    hint: () => 'a table file has one column per target, mode and language it was written for',
  },
  MC2003: {
    severity: 'error',
    message: (a) => `${a.at}: ${a.file} has no cell "${a.key}"${a.nor ?? ''}`,
    hint: () => 'add the cell to the table file, or check tests that need only the cells it has',
    prose: ['nor'],
  },
  MC2004: {
    severity: 'error',
    message: (a) => `${a.at}: a table has no cell for this instruction (${a.key})`,
    hint: () => 'instructions outside the tables keep gpumm’s own lowering; this one has none',
  },
  MC2005: {
    severity: 'error',
    message: (a) => `${a.at}: ${a.file} gives "${a.key}" no code in column ${a.column} (${a.none})`,
    hint: () => 'give the cell code in that column, or check the test in another context',
  },
  MC2006: {
    severity: 'error',
    message: (a) => `${a.at}: ${a.code} ${a.what}`,
    hint: () => 'the documents have no code sequence for the instruction in this context',
    prose: ['what'],
  },
  // The explorer's server (gpumm serve): answers to requests it refuses.
  SRV4001: {
    severity: 'error',
    message: (a) => a.what ?? '',
    hint: () => 'the explorer sends what its own page needs; docs/explorer.md describes the endpoints',
    prose: ['what'],
  },
  SRV5001: {
    severity: 'error',
    message: (a) => a.what ?? '',
    hint: () => 'try again; if it persists, run the test with gpumm on the command line',
    prose: ['what'],
  },
} satisfies Record<string, Entry>;

export type DiagnosticCode = keyof typeof DIAGNOSTICS;

/**
 * Longest argument a message quotes whole. Arguments are mostly text from the input (a name, a
 * token), which can be a megabyte long; the span still points at all of it.
 */
export const MAX_QUOTE = 120;

/**
 * `s` cut to at most `max` characters: its start, an ellipsis, and its last few characters (so
 * a closing quote survives), never splitting a surrogate pair.
 */
export function clipQuote(s: string, max = MAX_QUOTE): string {
  if (s.length <= max) return s;
  const tail = 12;
  let head = max - tail - 1;
  let from = s.length - tail;
  if (isHighSurrogate(s.charCodeAt(head - 1))) head--;
  if (isLowSurrogate(s.charCodeAt(from))) from++;
  return `${s.slice(0, head)}…${s.slice(from)}`;
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

/** Builds a diagnostic from its code, where it is, and the values its wording needs. */
export function diag(code: DiagnosticCode, span: Span, args?: Args): SourceDiagnostic;
/** A diagnostic of no place in the input (`span` null): the whole input, a command or a request. */
export function diag(code: DiagnosticCode, span: Span | null, args?: Args): Diagnostic;
export function diag(code: DiagnosticCode, span: Span | null, args: Args = {}): Diagnostic {
  const e: Entry = DIAGNOSTICS[code];
  const clipped: Args = {};
  for (const [k, v] of Object.entries(args))
    clipped[k] = v === undefined || e.prose?.includes(k) ? v : clipQuote(v);
  const d: Diagnostic = { code, severity: e.severity, message: e.message(clipped) };
  const hint = e.hint(clipped);
  if (span) {
    d.hint = hint;
    d.span = span;
  } else if (hint !== '') d.hint = hint;
  return d;
}

/**
 * A diagnostic on one line, `CODE message`: where it becomes part of a verdict (a check's reason for
 * running no machine) rather than a report of its own.
 */
export function diagnosticLine(d: Pick<Diagnostic, 'code' | 'message'>): string {
  return `${d.code} ${d.message}`;
}

/** True when any diagnostic is an error (warnings do not stop a test from being used). */
export function hasErrors(ds: readonly Pick<Diagnostic, 'severity'>[]): boolean {
  return ds.some((d) => d.severity === 'error');
}
