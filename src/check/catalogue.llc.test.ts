/**
 * The whole catalogue against the machines of every family, in every mode, with llc-22's code: every
 * test is `sound`, except the pinned findings (src/check/findings.ts), each `UNSOUND` with its forbidden
 * final state and a trace (docs/hardware.md, "Findings on the catalogue", explains each); the sound
 * verdicts that need a named assumption are exactly the pinned ones; and the tests the machines cannot
 * run are so for a reason of ALLOWED_UNSUPPORTED. Skipped, with the reason printed, when llc-22 is not
 * installed.
 */

import { findLlc } from '../lower/llc.ts';
import { LLC_ASSUMED, LLC_UNSOUND } from './findings.ts';
import { catalogueSuite } from './testutil.ts';

/** Why a test may not be checked (anything else fails the test). */
const ALLOWED_UNSUPPORTED = [
  // Host threads: no code sequences for host code (docs/hardware.md, "Host threads").
  /P\d is a host thread: the documents give no code sequences for host code/,
  // TgSplit execution mode allocates no LDS.
  /is LDS, and in TgSplit execution mode no LDS is allocated/,
  // llc-22 has no code for it: the av intrinsics, barriers it crashes on before GFX12, atomics on
  // constant memory, generic pointers on GFX6; barrier ids llc-22 compiles but the family lacks.
  /llc-22 crashes on the av intrinsics: LLVM 22 does not define them|llc-22 crashes|llc-22 fails: Unsupported atomic address space|llc-22 cannot select a generic access|is not available on this family/,
];

const llc = findLlc();
if ('reason' in llc) console.warn(`skipping the llc-22 catalogue check: ${llc.reason}`);

catalogueSuite('llc', LLC_UNSOUND, LLC_ASSUMED, ALLOWED_UNSUPPORTED, 'reason' in llc);
