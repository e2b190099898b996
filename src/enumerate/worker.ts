/** The piscina task: enumerate one slice of a test's search (see `parallel.ts`). */
import { runSlice, type SliceResult, type SliceTask } from './parallel.ts';

export default function task(t: SliceTask): SliceResult {
  return runSlice(t);
}
