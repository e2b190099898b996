/**
 * Text from the input made safe to show: every character a terminal acts on (ESC, the C1 controls,
 * Unicode's bidirectional controls) written as an escape. The command line, the campaign's reports and
 * the lexers' checks share it; no Node APIs here.
 */

/**
 * Characters a terminal acts on or that reorder the text it shows: C0 controls (tab included),
 * DEL, C1 controls (U+009B is a one-character CSI), the bidirectional controls of Unicode TR9
 * ("Trojan Source", CVE-2021-42574), and the line and paragraph separators.
 */
export function isControlChar(cp: number): boolean {
  return (
    cp < 0x20 ||
    (cp >= 0x7f && cp < 0xa0) ||
    cp === 0x061c ||
    cp === 0x200e ||
    cp === 0x200f ||
    (cp >= 0x202a && cp <= 0x202e) ||
    (cp >= 0x2066 && cp <= 0x2069) ||
    cp === 0x2028 ||
    cp === 0x2029
  );
}

/**
 * How one code point is shown, or null when it is shown as itself. Escaped: the control
 * characters of `isControlChar` (ESC starts the ANSI sequences that recolour or rewrite a
 * terminal), lone surrogates and the byte-order mark.
 */
export function escapeOf(cp: number): string | null {
  const hex = (w: number) => cp.toString(16).padStart(w, '0');
  if (cp < 0xa0 && isControlChar(cp)) return `\\x${hex(2)}`;
  if (isControlChar(cp) || (cp >= 0xd800 && cp <= 0xdfff) || cp === 0xfeff) return `\\u{${hex(4)}}`;
  return null;
}

/** `s` with every character a terminal would act on written as an escape (`\x1b`, `\u{202e}`). */
export function escapeText(s: string): string {
  // Fast path: the common message has nothing to escape.
  if (
    !/[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ufeff\ud800-\udfff]/.test(s)
  )
    return s;
  let out = '';
  for (const ch of s) {
    // for…of yields a lone surrogate as a one-unit string and a pair as one code point.
    const cp = ch.codePointAt(0)!;
    out += escapeOf(cp) ?? ch;
  }
  return out;
}

/** The characters a terminal acts on that JSON.stringify leaves as they are (it escapes only C0). */
const JSON_UNSAFE = /[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ufeff]/g;

/**
 * `value` as JSON for stdout (`JSON.stringify(value, null, 2)`), with every character a terminal
 * would act on inside a string written as a `\uXXXX` escape: the same JSON to a reader, nothing raw
 * from the input on a screen.
 */
export function jsonText(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(
    JSON_UNSAFE,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * Text for stdout that holds input (a test printed back): every line's controls escaped as
 * `escapeText` does, line breaks and tabs kept.
 */
export function outputText(text: string): string {
  return text
    .split('\n')
    .map((line) => line.split('\t').map(escapeText).join('\t'))
    .join('\n');
}
