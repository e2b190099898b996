/**
 * Live progress of `gpumm run` on stderr when it is a terminal (cli-progress): for the test being
 * searched, the share of the search space done, final states and executions found, executions per
 * second and the time left; over several files, files done of the total.
 *
 * Only on a terminal: in a log or a pipe, redrawn bars are noise, and stderr keeps carrying
 * diagnostics and verdict lines only. Never on stdout, so reports and `--json` stay clean. The bars
 * appear once the run has taken `PROGRESS_MS` (a quick run shows nothing) and are erased at the end.
 */

import { clearScreenDown } from 'node:readline';
import type { MultiBar } from 'cli-progress';
import { PROGRESS_MS, type SearchProgress } from '../enumerate/verdict.ts';

/** `12.3 s`, `42 min`, `5.1 h`, `230 days`, `≫ 1000 years`: a rough duration for estimates and ETAs. */
export function roughDuration(secs: number): string {
  if (secs < 120) return `${secs.toFixed(1)} s`;
  if (secs < 2 * 3600) return `${Math.round(secs / 60)} min`;
  if (secs < 2 * 86400) return `${(secs / 3600).toFixed(1)} h`;
  if (secs < 1000 * 86400) return `${Math.round(secs / 86400)} days`;
  if (secs < 1000 * 365 * 86400) return `${Math.round(secs / (365 * 86400))} years`;
  return '≫ 1000 years';
}

/** `950`, `12.3k`, `4.1M`: a count in a few characters. */
function short(n: number): string {
  if (n < 1e4) return String(Math.round(n));
  if (n < 1e6) return `${(n / 1e3).toFixed(n < 1e5 ? 1 : 0)}k`;
  if (n < 1e9) return `${(n / 1e6).toFixed(n < 1e8 ? 1 : 0)}M`;
  return n.toExponential(1);
}

/** The stream the bars are drawn on: a terminal says so with `isTTY` (Node's `tty.WriteStream`). */
export type ProgressStream = NodeJS.WritableStream & { isTTY?: boolean; columns?: number };

/** The progress display of one `gpumm run`. */
export interface RunProgress {
  /** A test starts. */
  test(name: string): void;
  /** The current test's search so far. */
  update(p: SearchProgress): void;
  /** The current test is done: one more file of the total. */
  done(): void;
  /** Writes `text` (whole lines) to the stream above the bars. */
  log(text: string): void;
  /** Erases the bars. Call it before the run writes its reports. */
  stop(): void;
}

/** The line of the current test: name, bar, share done, states, executions and rate, time left. */
export function testLine(name: string, p: SearchProgress, bar: string): string {
  const secs = p.elapsedMs / 1000;
  const rate = secs > 0 ? `${short(p.executions / secs)}/s` : '-';
  const eta =
    p.fraction >= 1 ? 'done' : p.fraction > 0 ? roughDuration((secs * (1 - p.fraction)) / p.fraction) : '?';
  const shownName = name.length > 28 ? `${name.slice(0, 27)}…` : name;
  return `${shownName} ${bar} ${(p.fraction * 100).toFixed(1)}% | ${short(p.states)} states | ${short(p.executions)} executions, ${rate} | ETA ${eta}`;
}

/**
 * Progress for a run of `files` tests on `stream`, or null when `stream` is not a terminal (cli-progress
 * is loaded only then). `delayMs`: how long the run goes before the bars appear.
 */
export async function startProgress(
  stream: ProgressStream,
  files: number,
  delayMs = PROGRESS_MS,
): Promise<RunProgress | null> {
  if (stream.isTTY !== true) return null;
  const { MultiBar: Bars, Presets } = (await import('cli-progress')).default;
  const t0 = performance.now();
  let bars: MultiBar | null = null;
  let name = '';
  let last: SearchProgress = { fraction: 0, states: 0, executions: 0, elapsedMs: 0 };
  let filesDone = 0;
  let logged = false;

  // The lines are formatted here from the latest figures, not by cli-progress's templates from the
  // bars' values: its ETA averages the last few updates of a value it assumes grows evenly, and
  // the share of a search does not. cli-progress redraws them on its timer.
  const barText = (fraction: number, width: number) => {
    const full = Math.round(Math.max(0, Math.min(1, fraction)) * width);
    return `${Presets.shades_classic.barCompleteChar.repeat(full)}${Presets.shades_classic.barIncompleteChar.repeat(width - full)}`;
  };
  const show = () => {
    if (bars || performance.now() - t0 < delayMs) return;
    // linewrap: the terminal keeps wrapping lines, so the lines logged above the bars are whole;
    // the bars themselves are cut to the width (one column spare, so the cursor never wraps).
    const cut = (line: string) => line.slice(0, (stream.columns ?? 80) - 1);
    bars = new Bars({ stream, clearOnComplete: true, hideCursor: true, fps: 8, linewrap: true });
    // A logged line is written from the top bar's line down and may wrap: clear the old bars below
    // first, or a longer bar shows through after it.
    bars.on('redraw-pre', () => {
      if (!logged) return;
      logged = false;
      clearScreenDown(stream);
    });
    const fileLine = () => `files ${barText(filesDone / files, 20)} ${filesDone}/${files}`;
    if (files > 1) bars.create(files, 0, {}, { format: () => cut(fileLine()) });
    bars.create(1, 0, {}, { format: () => cut(testLine(name, last, barText(last.fraction, 20))) });
  };

  return {
    test(n) {
      name = n;
      last = { fraction: 0, states: 0, executions: 0, elapsedMs: 0 };
      show();
    },
    update(p) {
      last = p;
      show();
    },
    done() {
      filesDone++;
      show();
    },
    log(text) {
      if (bars) {
        logged = true;
        bars.log(text);
      } else stream.write(text);
    },
    stop() {
      if (!bars) return;
      // Lines logged since the last redraw are written by a redraw, which stop() does not do.
      bars.update();
      bars.stop();
      bars = null;
    },
  };
}
