/**
 * Why llc-22 emits something else than the document for a cell: one list of causes, each with the
 * place in LLVM that makes the choice, and a classifier that gives every recorded divergence the
 * causes that explain it. A cause is a projection — it erases, on both sequences, exactly the detail
 * it is about (a counter, a cache bit, an encoding) — and applies only where its condition holds (a
 * family, a mode, a kind of cell). A divergence is explained when the projections of its applicable
 * causes make the two sequences equal; it is given the smallest such set found by dropping causes one
 * at a time. A divergence no cause explains is `unexplained`, which the differential test rejects.
 * No Node APIs here.
 *
 * LLVM sources read: llvm/lib/Target/AMDGPU/SIMemoryLegalizer.cpp at llvm/llvm-project 3cb53d76 (the
 * version with cluster scope and GFX12.5, as in LLVM 22), SIInsertWaitcnts.cpp.
 */

/** What a cause sees of a divergence: its row, targets, cells and both sequences. */
export interface CauseContext {
  row: string;
  targets: readonly string[];
  cells: readonly string[];
  doc: readonly string[];
  llc: readonly string[];
}

/** One reason the two sequences differ. */
export interface Cause {
  id: string;
  /** One sentence: what llc-22 does instead. */
  what: string;
  /** Where in LLVM the choice is made (function and condition), or why it is not LLVM's choice. */
  where: string;
  /** Why the difference does or does not matter to the memory model. */
  why: string;
  applies: (c: CauseContext) => boolean;
  /** Erases the detail the cause is about (applied to both sequences). */
  project: (seq: readonly string[], c: CauseContext) => string[];
}

const LEGACY = /^s_waitcnt (?!_)/;

/** Removes waits on the given counters (other counters of the same `s_waitcnt` stay). */
function dropCounters(seq: readonly string[], counters: readonly string[]): string[] {
  const out: string[] = [];
  for (const s of seq) {
    if (LEGACY.test(s)) {
      const kept = s
        .slice('s_waitcnt '.length)
        .split(' ')
        .filter((t) => !counters.includes(t.replace(/\(.*$/, '')));
      if (kept.length > 0) out.push(`s_waitcnt ${kept.join(' ')}`);
      continue;
    }
    if (s.startsWith('s_waitcnt_vscnt') && counters.includes('vscnt')) continue;
    const w = /^s_wait_([a-z]+) /.exec(s);
    if (w && counters.includes(w[1]!)) continue;
    out.push(s);
  }
  return out;
}

const isWait = (s: string): boolean => /^s_wait/.test(s);
const VM_COUNTERS = ['vmcnt', 'vscnt', 'loadcnt', 'storecnt', 'samplecnt', 'bvhcnt'];
const LDS_COUNTERS = ['lgkmcnt', 'dscnt'];
const CACHE_OPS =
  /^(buffer_wbinvl1|buffer_invl2|buffer_inv|buffer_wbl2|buffer_gl[01]_inv|global_inv|global_wb)/;
const VMEM = /^(buffer|global|flat|scratch)_(load|store|atomic)/;

/** Rewrites the memory instructions of a sequence. */
const mapVmem =
  (f: (enc: string, op: string, mods: string[]) => string) =>
  (seq: readonly string[]): string[] =>
    seq.map((s) => {
      const m = VMEM.exec(s);
      if (!m) return s;
      return f(m[1]!, m[2]!, s.split(' ').slice(1));
    });

const family = (c: CauseContext): string => c.row.split(' ')[0]!;
const allTargets = (c: CauseContext, re: RegExp): boolean => c.targets.every((t) => re.test(t));
const allCells = (c: CauseContext, re: RegExp): boolean => c.cells.every((x) => re.test(x));
const anyCell = (c: CauseContext, re: RegExp): boolean => c.cells.some((x) => re.test(x));
const GFX12ISH = (c: CauseContext): boolean => family(c) === 'GFX12' || family(c) === 'GFX125x';
/** Rows of non-atomic accesses (private atomics are treated as non-atomic), where volatile and nontemporal act. */
const nonAtomicRow = (c: CauseContext): boolean => /none none|private|constant/.test(c.row);

/** The causes, narrowest first (the classifier tries to drop the broadest first). */
export const CAUSES: readonly Cause[] = [
  {
    id: 'barrier-unavailable',
    what: 'gpumm rejects the barrier operation or id (LW2006, LW2007); llc-22 compiles it on GFX12 and crashes on GFX6–11.',
    where:
      'Not SIMemoryLegalizer: the barrier intrinsics are selected as written (SIISelLowering); llc-22 checks neither the privileged trap barriers -2/-4 nor the GFX12.5-only ids and named barriers on GFX12, and segfaults on split or named barrier intrinsics before GFX12.',
    why: 'seeds/001 "s_barrier IDs GFX12" makes these ids unavailable to the shader; gpumm reports them instead of emitting code.',
    applies: (c) => c.doc[0]?.startsWith('(gpumm:') === true,
    project: () => [],
  },
  {
    id: 'llc-rejects-constant-atomic',
    what: 'llc-22 fails on atomics of the constant address space ("Unsupported atomic address space").',
    where:
      'SIMemOpAccess::constructFromMIWithMMO: reportUnsupported when the instruction address space has no atomic address space (constant is OTHER).',
    why: "The document lists constant among the rows' address spaces; gpumm lowers the cell, llc-22 has no code to compare.",
    applies: (c) => c.llc[0]?.startsWith('(llc-22 error') === true,
    project: () => [],
  },
  {
    id: 'scalar-constant-load',
    what: 'llc-22 loads from the constant address space with a scalar `s_load` (no cache bits, no volatile wait).',
    where:
      'Instruction selection, not SIMemoryLegalizer: a uniform load from constant memory is selected to SMEM (SITargetLowering / AMDGPUInstructionSelector, "isUniformMMO"); SIMemoryLegalizer then has nothing to set on it.',
    why: 'Constant memory is not written while the kernel runs, so no other thread can make a load of it observe a different order: the encoding and bits cannot change an outcome.',
    applies: (c) => allCells(c, / constant( |$)/) && c.llc.includes('s_load'),
    project: (seq) => seq.filter((s) => !isWait(s)).map((s) => (VMEM.test(s) || s === 's_load' ? 'load' : s)),
  },
  {
    id: 'barrier-zero-waits',
    what: 'Without BackOffBarrier llc-22 emits a bare `s_barrier`: the waits before it drain counters that are already zero in the test kernel.',
    where:
      'SIInsertWaitcnts, not SIMemoryLegalizer: the waits before `s_barrier` on targets without BackOffBarrier are inserted for outstanding counters only (generateWaitcntInstBefore).',
    why: 'seeds/001 allows it: "The waitcnts can independently be moved earlier, or removed entirely as long as the associated counter remains at zero before issuing the s_barrier instruction."',
    applies: (c) => c.row.includes('no BackOffBarrier'),
    project: (seq) => seq.filter((s) => !isWait(s)),
  },
  {
    id: 'gfx6-wbinvl1',
    what: 'GFX6 invalidates with `buffer_wbinvl1` (all L1 lines) where the document has `buffer_wbinvl1_vol`.',
    where:
      'SIGfx6CacheControl::insertAcquire builds BUFFER_WBINVL1 for agent and system scope (GFX6 has no `_vol` form); SIGfx7CacheControl::insertAcquire uses BUFFER_WBINVL1_VOL.',
    why: 'Invalidating every L1 line includes invalidating the volatile ones: stronger, never weaker.',
    applies: (c) => allTargets(c, /^gfx60/),
    project: (seq) => seq.map((s) => (s === 'buffer_wbinvl1_vol' ? 'buffer_wbinvl1' : s)),
  },
  {
    id: 'lds-m0-init',
    what: 'GFX6–8: llc-22 sets `s_mov_b32 m0, -1` before LDS instructions.',
    where:
      'Instruction selection, not SIMemoryLegalizer: on subtargets where DS instructions read m0 as the LDS size limit (SITargetLowering, "ldsRequiresM0Init"), m0 is initialised to -1.',
    why: 'm0 bounds LDS addresses; it neither performs nor orders a memory operation.',
    applies: (c) => c.llc.includes('s_mov_b32 m0, 0xffffffff'),
    project: (seq) => seq.filter((s) => s !== 's_mov_b32 m0, 0xffffffff'),
  },
  {
    id: 'enc-flat-global',
    what: 'GFX7–8: llc-22 accesses global memory with `flat_*` where gpumm uses `buffer_*`.',
    where:
      'Instruction selection, not SIMemoryLegalizer: amdhsa enables FeatureFlatForGlobal on GFX7–8, so global pointers use FLAT instructions.',
    why: 'The document allows both ("buffer/global/flat_load"); both go through the vector L1 and L2 with the same glc/slc policy. A `flat_*` also counts on lgkmcnt, which shows up as a wait difference of its own.',
    applies: (c) => allTargets(c, /^gfx(7|8)\d\d/) && c.llc.some((s) => s.startsWith('flat_')),
    project: mapVmem((enc, op, mods) =>
      [enc === 'buffer' ? `flat_${op}` : `${enc}_${op}`, ...mods].join(' '),
    ),
  },
  {
    id: 'enc-mubuf-scratch',
    what: 'llc-22 accesses private memory with MUBUF `buffer_*` where the document has `scratch_*` (GFX9, GFX90A, GFX10).',
    where:
      'Instruction selection, not SIMemoryLegalizer: flat scratch is used only when enabled (FeatureEnableFlatScratch, on by default from GFX940 and GFX11); otherwise private accesses are MUBUF through the scratch V#.',
    why: 'Private memory is per work-item: no other thread can observe its accesses, whatever the encoding.',
    applies: (c) => c.doc.some((s) => s.startsWith('scratch_')) && c.llc.some((s) => s.startsWith('buffer_')),
    project: mapVmem((enc, op, mods) =>
      [enc === 'scratch' ? `buffer_${op}` : `${enc}_${op}`, ...mods].join(' '),
    ),
  },
  {
    id: 'gfx1250-private-flat',
    what: 'GFX12.5: llc-22 accesses private memory with `flat_*` where gpumm keeps `scratch_*` for unordered and non-atomic private accesses.',
    where:
      'Instruction selection, not SIMemoryLegalizer (llc-22 -O0 selects FLAT for these private accesses on gfx1250).',
    why: 'Private memory is per work-item: no other thread can observe its accesses, whatever the encoding.',
    applies: (c) => family(c) === 'GFX125x' && allCells(c, / private/),
    project: mapVmem((enc, op, mods) =>
      [enc === 'scratch' ? `flat_${op}` : `${enc}_${op}`, ...mods].join(' '),
    ),
  },
  {
    id: 'private-rmw-expansion',
    what: 'llc-22 expands a private atomicrmw into load, operation and store, with a wait for the loaded register in between.',
    where:
      'Not SIMemoryLegalizer: private atomics are expanded to non-atomic IR (SITargetLowering::shouldExpandAtomicRMWInIR, private address space); SIInsertWaitcnts waits for the loaded value before the store uses it.',
    why: 'Private memory is per work-item, so the expansion is atomic; the wait is a register dependency.',
    applies: (c) => allCells(c, /^(atomicrmw|cmpxchg)\S* .* private( |$)/),
    project: (seq) => seq.filter((s) => !isWait(s)),
  },
  {
    id: 'one-as',
    what: "`-one-as` syncscopes (and OpenCL cells, compiled `-one-as`): llc-22 orders only the instruction's own address space, so it drops the `lgkmcnt`/`dscnt` waits that order LDS against global memory, and on local atomics every global wait and cache operation.",
    where:
      'SIMemOpAccess::toSIAtomicScope gives one-as scopes IsCrossAddressSpaceOrdering = false; SI*CacheControl::insertWait then adds no LDS wait ("LGKMCnt |= IsCrossAddrSpaceOrdering", "DSCnt |= IsCrossAddrSpaceOrdering").',
    why: 'The documents have no `-one-as` rows; the model reads `-one-as` as ordering one address space only (docs/model.md), which needs no LDS wait.',
    applies: (c) => allCells(c, /[a-z]-one-as /) || allTargets(c, /\/opencl$/),
    // On local cells the one address space is LDS: no global waits or cache maintenance either.
    project: (seq, c) =>
      allCells(c, / local( |$)/)
        ? seq.filter((s) => !isWait(s) && !CACHE_OPS.test(s))
        : dropCounters(seq, LDS_COUNTERS),
  },
  {
    id: 'seqcst-load-lds-wait',
    what: "seq_cst loads: llc-22 waits `lgkmcnt(0)` (`dscnt` on GFX12) before the load, which the document's rows do not.",
    where:
      'SIMemoryLegalizer::expandLoad: for SequentiallyConsistent it calls insertWait(BEFORE) over the ordering address spaces (all atomic ones) with cross-address-space ordering, whose LDS clause adds lgkmcnt.',
    why: 'An extra wait only delays the load; it can forbid no outcome the document allows.',
    applies: (c) => /load atomic seq_cst/.test(c.row),
    project: (seq) => dropCounters(seq, LDS_COUNTERS),
  },
  {
    id: 'gfx942-rmw-sc-bits',
    what: 'GFX942/GFX950 atomicrmw: llc-22 sets only `sc1` at system scope and uses `sc0` only for "returns"; the table puts `sc0`/`sc1` on release atomics by scope.',
    where:
      'SIGfx940CacheControl::enableRMWCacheBypass: "RMW atomic operations implicitly bypass the L1 cache and only use SC1 to indicate system or agent scope. The SC0 bit is used to indicate if they are return or no-return."',
    why: 'Read-modify-writes are performed at L2 whatever the bits; the bits only select the returning form and the system-scope coherence.',
    applies: (c) => family(c) === 'GFX942',
    project: (seq) => seq.map((s) => (/_atomic/.test(s) ? s.replace(/ sc[01]/g, '') : s)),
  },
  {
    id: 'gfx10-atomic-wait-kind',
    what: "GFX10–11: after an acquire-or-stronger atomic llc-22 waits only on the counter of the atomic's kind — `vmcnt(0)` after a returning one, `vscnt(0)` after one without return — where the document waits on both.",
    where:
      'SIMemoryLegalizer::expandAtomicCmpxchgOrRmw: the wait after the atomic is insertWait(..., isAtomicRet(MI) ? SIMemOp::LOAD : SIMemOp::STORE, Position::AFTER); SIGfx10CacheControl::insertWait turns LOAD into vmcnt and STORE into vscnt.',
    why: 'A returning atomic is counted by vmcnt, one without return by vscnt: the other counter tracks earlier accesses, which the release half has already waited for.',
    applies: (c) => family(c) === 'GFX10-11',
    project: (seq) => {
      const at = seq.findIndex((s) => /^(flat|global|buffer)_atomic/.test(s));
      return at < 0
        ? [...seq]
        : [...seq.slice(0, at + 1), ...dropCounters(seq.slice(at + 1), ['vmcnt', 'vscnt'])];
    },
  },
  {
    id: 'flat-atomic-lds-wait',
    what: 'GFX12: after an acquire generic (flat) atomic at workgroup scope llc-22 also waits `s_wait_dscnt 0x0`, in CU mode too, where the document waits on nothing.',
    where:
      "SIMemoryLegalizer::expandAtomicCmpxchgOrRmw: the wait after the atomic is insertWait over MOI.getInstrAddrSpace(), which for a flat instruction includes LDS; SIGfx12CacheControl::insertWait's LDS clause adds DSCnt at workgroup scope whenever the ordering crosses address spaces, whatever the wavefront mode.",
    why: 'A flat access may reach LDS; waiting for it only delays later accesses (stronger).',
    applies: (c) => GFX12ISH(c) && allCells(c, / generic( |$)/),
    project: (seq) => {
      const at = seq.findIndex((s) => /^flat_atomic/.test(s));
      return at < 0 ? [...seq] : [...seq.slice(0, at + 1), ...dropCounters(seq.slice(at + 1), ['dscnt'])];
    },
  },
  {
    id: 'gfx12-load-wait-counters',
    what: 'GFX12: llc-22 waits on `samplecnt`/`bvhcnt` beside `loadcnt` in every wait that is not an acquire (release, seq_cst, after a volatile access), and not in acquire waits (acquire fences included); the document places them otherwise.',
    where:
      'SIGfx12CacheControl::insertWait: BVHCNT and SAMPLECNT waits are added with LOADCNT only "if (Order != AtomicOrdering::Acquire && ST.hasImageInsts())" ("Acquire sequences only need to wait on the previous atomic operation").',
    why: 'samplecnt and bvhcnt count image-sample and BVH instructions, which no atomic is and no litmus test performs.',
    applies: GFX12ISH,
    project: (seq) => dropCounters(seq, ['samplecnt', 'bvhcnt']),
  },
  {
    id: 'gfx12-wb-system-only',
    what: 'GFX12: llc-22 emits `global_wb` only for system scope; the document also has `global_wb scope:SCOPE_DEV` (agent) and `scope:SCOPE_SE` (workgroup, WGP mode).',
    where:
      'SIGfx12CacheControl::insertRelease: "global_wb is only necessary at system scope for GFX12.0, they\'re also necessary at device scope for GFX12.5. Emitting it for lower scopes is a slow no-op."',
    why: 'Which code is right depends on the reading of the GFX12 L0 and GL1 (docs/hardware.md, "GFX12 L0: two readings"). The current AMDGPUUsage adds "global_wb can be omitted for scopes other than SCOPE_SYS in gfx120x" and LLVM calls the write-back below system scope "a slow no-op": nothing dirty is left below the L2, and llc-22\'s code is sound (`gpumm check --hw-text amdgpuusage`, the default for llc-22\'s code). The seed\'s text lets the L0 and GL1 take writes ("Writes can happen in this cache and the transaction is acknowledged from this level of cache"): then a plain store stays in the L0, and llc-22\'s code is unsound (`--hw-text seed`).',
    applies: (c) => family(c) === 'GFX12',
    project: (seq) => seq.filter((s) => !/^global_wb scope:SCOPE_(DEV|SE)$/.test(s)),
  },
  {
    id: 'gfx1250-cache-waits',
    what: 'GFX12.5: llc-22 omits `s_wait_loadcnt`/`s_wait_storecnt` that the document places before `global_wb` and after `global_inv`.',
    where:
      'SIGfx12CacheControl::insertRelease builds GLOBAL_WB and then insertWait at the same position; insertAcquire builds GLOBAL_INV with no wait after it. The soft waits are then relaxed by SIInsertWaitcnts when nothing is outstanding.',
    why: 'Not a harmless omission: LLVM\'s legalizer now waits after GLOBAL_INV ("it may get reorded with following load instructions") and before GLOBAL_WB (so "the proceeding store/rmw operations have completed in L2 so their data will be written back"), as the AMDGPUUsage rows do. On the machine, where a later load may overtake an agent-scope invalidate and a write-back covers only the stores already performed, llc-22\'s code is unsound (docs/hardware.md, "GFX12.5 invalidate and write-back"). Observed also with loads and stores before and after the cell in the kernel.',
    applies: (c) => family(c) === 'GFX125x',
    project: (seq) => dropCounters(seq, ['loadcnt', 'storecnt']),
  },
  {
    id: 'gfx1250-xcnt',
    what: 'GFX12.5: llc-22 puts `s_wait_xcnt 0x0` before volatile non-atomic accesses and unordered stores; the document has it only before atomic stores and read-modify-writes.',
    where:
      "Not SIMemoryLegalizer's tables: xcnt waits come from SIInsertWaitcnts (outstanding address translations).",
    why: 'xcnt counts address translations in flight, not memory operations: waiting on it orders no access.',
    applies: (c) => family(c) === 'GFX125x',
    project: (seq) => seq.filter((s) => s !== 's_wait_xcnt 0x0'),
  },
  {
    id: 'lds-scope-not-narrowed',
    what: 'Atomics on local memory with a non-one-as syncscope: llc-22 orders every address space (vector-memory and LDS waits, invalidates), where the document narrows LDS scopes wider than workgroup to workgroup and orders LDS only.',
    where:
      'SIMemOpAccess::toSIAtomicScope: a non-one-as syncscope orders every atomic address space (SIAtomicAddrSpace::ATOMIC) with cross-address-space ordering, so insertRelease/insertAcquire/insertWait cover global memory (and the LDS clause adds lgkmcnt/dscnt) even when the instruction accesses only LDS; SIMemOpInfo narrows only the scope of the instruction itself.',
    why: 'Stronger: ordering more address spaces only removes outcomes.',
    applies: (c) => allCells(c, / local( |$)/) && !anyCell(c, /[a-z]-one-as /),
    project: (seq) => seq.filter((s) => !isWait(s) && !CACHE_OPS.test(s)),
  },
  {
    id: 'cu-mode-waits',
    what: 'CU mode (GFX10–12): llc-22 drains the vector-memory counters around workgroup-scope release and acquire-release atomics, which the documents omit in CU mode.',
    where:
      'Partly SIGfx10CacheControl::insertWait: at workgroup-scope release of an address-space set that includes LDS (every non-one-as syncscope, and flat instructions) it builds S_WAITCNT_lds_direct ("SIInsertWaitcnts will later replace this with a vmcnt()"); its WORKGROUP case itself adds no vector-memory wait in CU mode. llc-22 -O0 also drains vmcnt/vscnt where that does not apply (global -one-as atomics): that place was not found in SIMemoryLegalizer.cpp, so those entries record observed behaviour.',
    why: "Stronger: the documents need no wait because a CU's waves share one L0; waiting anyway removes no allowed-outcome guarantee.",
    applies: (c) => allTargets(c, /\/cu(\/|$)/),
    project: (seq) => dropCounters(seq, VM_COUNTERS),
  },
  {
    id: 'tgsplit-waits',
    what: 'TgSplit mode (GFX90A, GFX942, GFX950): llc-22 keeps `lgkmcnt(0)` in release and seq_cst waits where the tables say "If TgSplit execution mode, omit lgkmcnt(0)".',
    where:
      'SIGfx90ACacheControl::insertWait in TgSplit mode promotes WORKGROUP to AGENT for global, scratch and GDS and removes LDS ("LDS cannot be allocated"), but keeps GDS; SIGfx6CacheControl::insertWait\'s GDS clause then adds lgkmcnt(0) at agent and system scope when the ordering crosses address spaces ("LGKMCnt |= IsCrossAddrSpaceOrdering"), which every non-one-as syncscope does.',
    why: 'Stronger: an extra wait only delays.',
    applies: (c) => allTargets(c, /\/tgsplit/),
    project: (seq) => dropCounters(seq, ['lgkmcnt']),
  },
  {
    id: 'unordered-is-atomic',
    what: '`unordered` loads and stores: llc-22 ignores volatile and nontemporal on them; the documents use the non-atomic rows, where both change the code.',
    where:
      'SIMemoryLegalizer::expandLoad/expandStore: an atomic (unordered included) returns before enableVolatileAndOrNonTemporal ("Atomic instructions already bypass caches ... Only non-atomic volatile and nontemporal instructions need additional treatment"), and unordered gets no cache bypass.',
    why: 'volatile and nontemporal are hints about caching and external observers; the model gives them no ordering meaning.',
    applies: (c) => allCells(c, /unordered/),
    project: (seq) => mapVmem((enc, op) => `${enc}_${op}`)(seq).filter((s) => !isWait(s)),
  },
  {
    id: 'volatile-nt-bits',
    what: 'Non-atomic volatile and nontemporal accesses: llc-22 sets other cache bits than the document (GFX6–9: `glc slc` for nontemporal; GFX11: `dlc`; GFX12: keeps `th:TH_*_NT` with `scope:SCOPE_SYS`).',
    where: '<family>CacheControl::enableVolatileAndOrNonTemporal (SIGfx6/SIGfx10/SIGfx11/SIGfx12/SIGfx940).',
    why: 'Cache-policy hints: they decide where a line is kept, and the model gives volatile and nontemporal no ordering meaning.',
    applies: (c) => nonAtomicRow(c) && allCells(c, /volatile|nontemporal|\[\*\]/),
    project: mapVmem((enc, op) => `${enc}_${op}`),
  },
  {
    id: 'volatile-waits',
    what: 'Non-atomic volatile accesses (GFX6–11, GFX90A, GFX942): llc-22 waits for the access to complete after it ("s_waitcnt vmcnt(0)"), as the document\'s GFX10+ rows do and the 2018 GFX6–9 rows do not.',
    where:
      '<family>CacheControl::enableVolatileAndOrNonTemporal: insertWait(MI, SIAtomicScope::SYSTEM, AddrSpace, Op, false, Position::AFTER).',
    why: 'Stronger: a wait only delays.',
    applies: (c) => nonAtomicRow(c) && !GFX12ISH(c) && anyCell(c, /volatile|\[\*\]/),
    project: (seq) => seq.filter((s) => !isWait(s)),
  },
  {
    id: 'gfx12-volatile-waits',
    what: "GFX12: around volatile non-atomic accesses llc-22 waits on loadcnt, samplecnt, bvhcnt, kmcnt and storecnt before a store and on the access's counter after it, where the document's waits differ.",
    where:
      'SIGfx12CacheControl::enableVolatileAndOrNonTemporal: insertWaitsBeforeSystemScopeStore (S_WAIT_LOADCNT, SAMPLECNT, BVHCNT if image instructions, KMCNT, STORECNT) for volatile stores, then insertWait(SYSTEM, AFTER); finalizeStore adds the same waits before every SCOPE_SYS store.',
    why: 'Stronger: a wait only delays. The `s_wait_kmcnt` is one of these (scalar loads before a system-scope store).',
    applies: (c) => nonAtomicRow(c) && GFX12ISH(c) && anyCell(c, /volatile|\[\*\]/),
    project: (seq) => seq.filter((s) => !isWait(s)),
  },
];

const BY_ID = new Map(CAUSES.map((c) => [c.id, c]));

/** The cause with this id (throws on an unknown id: ids come from CAUSES). */
export function causeById(id: string): Cause {
  const c = BY_ID.get(id);
  if (!c) throw new Error(`unknown divergence cause ${id}`);
  return c;
}

function projectAll(seq: readonly string[], causes: readonly Cause[], ctx: CauseContext): string {
  let s = [...seq];
  for (const k of causes) s = k.project(s, ctx);
  return s.join('\u0000');
}

/**
 * The causes that explain a divergence (smallest set found), or `['unexplained']`. Causes are
 * dropped broadest first while the projections still make the sequences equal.
 */
export function classify(c: CauseContext): string[] {
  let set = CAUSES.filter((k) => k.applies(c));
  const equal = (ks: readonly Cause[]): boolean => projectAll(c.doc, ks, c) === projectAll(c.llc, ks, c);
  if (!equal(set)) return ['unexplained'];
  for (let i = set.length - 1; i >= 0; i--) {
    const without = set.filter((_, j) => j !== i);
    if (equal(without)) set = without;
  }
  return set.map((k) => k.id);
}
