/**
 * The whole catalogue against the machines of every family, in every mode, with the documents' code: every
 * test is `sound`, except the pinned findings (src/check/findings.ts), each `UNSOUND` with its forbidden
 * final state and a trace (docs/hardware.md, "Findings on the catalogue", explains each); the sound
 * verdicts that need a named assumption are exactly the pinned ones; and the tests the machines cannot
 * run are so for a reason of ALLOWED_UNSUPPORTED. The same with llc-22's code is
 * catalogue.llc.test.ts; bench/check-catalogue.ts times both on every target.
 */

import { DOC_ASSUMED, DOC_UNSOUND } from './findings.ts';
import { catalogueSuite } from './testutil.ts';

/** Why a test may not be checked (anything else fails the test). */
const ALLOWED_UNSUPPORTED = [
  // Host threads: no code sequences for host code (docs/hardware.md, "Host threads").
  /P\d is a host thread: the documents give no code sequences for host code/,
  // TgSplit execution mode allocates no LDS.
  /is LDS, and in TgSplit execution mode no LDS is allocated/,
  // No code for it: the av intrinsics on Intel Xe (LW2008), barrier operations or ids the target does
  // not have (LW2006, LW2007), generic pointers on GFX6 (LW2004), LDS atomics in TgSplit mode (LW2012).
  /LW200[467]|LW2012|LW2008 .* has no lowering on (dg2|pvc|lnl)/,
];

catalogueSuite('doc', DOC_UNSOUND, DOC_ASSUMED, ALLOWED_UNSUPPORTED);
