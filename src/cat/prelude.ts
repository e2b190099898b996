/**
 * The names herd7 gives every model without an include: the derived relations of its standard
 * library (herd/libdir/stdlib.cat, which herd7 includes in every model) and of its coherence
 * generator (cos.cat), and the internal / external splits of co and fr that herd7 binds with co
 * (herd/machModelChecker.ml). Written here from what each name means, in gpumm's own cat; a model
 * that binds one of these names itself shadows it.
 *
 * Each binding is compiled only where a model uses it (`eval.ts`, lazy bindings), so a model that
 * uses none pays nothing. `include "stdlib.cat"` and `include "cos.cat"` are therefore satisfied
 * by gpumm itself (`load.ts`): gpumm enumerates every coherence order, as cos.cat makes herd7 do.
 * No Node APIs here: the web page imports this file.
 */
import type { Model } from './ast.ts';
import { parseCat } from './parser.ts';

/** herd7's library files whose names gpumm provides itself: an include of one reads nothing. */
export const BUILTIN_INCLUDES: readonly string[] = ['stdlib.cat', 'cos.cat'];

const PRELUDE = `"prelude"
(* Program order and reads-from, within a location / thread and across threads. *)
let po-loc = po & loc
let rfe = rf & ext
let rfi = rf & int
(* Coherence order and from-read, likewise. *)
let coe = co & ext
let coi = co & int
let fre = fr & ext
let fri = fr & int
(* Coherence-after: what comes after a read or write in its location's coherence order. *)
let ca = fr | co
(* Final writes: the last write of each location in coherence order. *)
let FW = W \\ domain(co)
(* herd7's C orderings gpumm names otherwise (herd7's ACQ, REL are the exact orderings, where
   gpumm's ACQ, REL, SC are the events with acquire, release, seq_cst semantics: docs/cat.md). *)
let RLX = Monotonic
let ACQ_REL = AcqRel
(* The empty set; S as the identity relation on S. *)
let emptyset = domain(0)
let toid(s) = [s]
(* Events po-before a fence of S, to events po-after it. *)
let fencerel(S) = (po & (_ * S)) ; po
(* Logic over sets or relations. *)
let imply(a, b) = ~a | b
(* r1 pairs that no r2 ; r3 path goes around. *)
let nodetour(r1, r2, r3) = r1 \\ (r2 ; r3)
let singlestep(r) = nodetour(r, r, r)
`;

let parsed: Model | null = null;

/** The prelude's bindings (parsed once). */
export function prelude(): Model {
  if (!parsed) {
    const r = parseCat(PRELUDE, '<prelude>');
    if (r.diagnostics.length > 0) throw new Error(`cat prelude: ${r.diagnostics[0]!.message}`);
    parsed = r.model;
  }
  return parsed;
}
