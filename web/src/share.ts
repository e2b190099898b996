/**
 * Sharing a test by URL: its text (deflated, base64url) and the page's choices go in the fragment,
 * which never reaches a server. `#z.<data>` is deflate-raw; `#b.<data>` plain UTF-8 for a browser
 * without CompressionStream.
 */

import type { RunSettings } from './engine/protocol.ts';

export interface Shared {
  text: string;
  params: Record<string, string>;
}

function toBase64Url(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(s: string): Uint8Array {
  const b = atob(s.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(b, (c) => c.charCodeAt(0));
}

async function pipe(bytes: Uint8Array, stream: CompressionStream | DecompressionStream): Promise<Uint8Array> {
  // A copy: its buffer is an ArrayBuffer, which Blob takes (a view of any buffer it does not).
  const out = new Response(new Blob([bytes.slice()]).stream().pipeThrough(stream));
  return new Uint8Array(await out.arrayBuffer());
}

/** The fragment for a test and the page's choices. */
export async function encodeShare(s: Shared): Promise<string> {
  const bytes = new TextEncoder().encode(s.text);
  const data =
    typeof CompressionStream === 'function'
      ? `z.${toBase64Url(await pipe(bytes, new CompressionStream('deflate-raw')))}`
      : `b.${toBase64Url(bytes)}`;
  const params = new URLSearchParams({ ...s.params, t: data });
  return `#${params.toString()}`;
}

/** The test and choices of a fragment, or null when it holds none (or is damaged). */
export async function decodeShare(hash: string): Promise<Shared | null> {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const data = params.get('t');
  // Only the two forms encodeShare writes: anything else is a damaged link, not a test.
  if (!data || !(data.startsWith('z.') || data.startsWith('b.'))) return null;
  params.delete('t');
  try {
    const bytes = fromBase64Url(data.slice(2));
    const raw = data.startsWith('z.') ? await pipe(bytes, new DecompressionStream('deflate-raw')) : bytes;
    const text = new TextDecoder('utf-8', { fatal: true }).decode(raw);
    return { text, params: Object.fromEntries(params) };
  } catch {
    return null;
  }
}

/**
 * The model options of a run as link parameters, each the CLI's flag's value: `thinair` (1:
 * `--no-thin-air` off), `values` (`--value-rules`), `observe`, and for Vulkan tests `unroll`,
 * `chains` (0: `--no-av-vis-chains`), `fr` (`--vulkan-fr`), `device` (`--device-scope`).
 */
export function settingsParams(s: RunSettings): Record<string, string> {
  return {
    thinair: s.noThinAir ? '0' : '1',
    values: s.valueRules,
    observe: s.observe,
    unroll: String(s.vulkan.unroll),
    chains: s.vulkan.chains ? '1' : '0',
    fr: s.vulkan.fr,
    device: s.vulkan.deviceScope,
  };
}

/** `base` with the options a link gives; a missing or unknown value keeps `base`'s. */
export function settingsFromParams(p: Record<string, string>, base: RunSettings): RunSettings {
  const pick = <T extends string>(v: string | undefined, allowed: readonly T[], dflt: T): T =>
    allowed.includes(v as T) ? (v as T) : dflt;
  const unroll = Number(p.unroll);
  return {
    noThinAir: p.thinair === '1' ? false : p.thinair === '0' ? true : base.noThinAir,
    valueRules: pick(p.values, ['literal', 'repaired'] as const, base.valueRules),
    observe: pick(p.observe, ['all', 'condition'] as const, base.observe),
    vulkan: {
      unroll: /^\d{1,4}$/.test(p.unroll ?? '') && unroll <= MAX_SHARED_UNROLL ? unroll : base.vulkan.unroll,
      chains: p.chains === '0' ? false : p.chains === '1' ? true : base.vulkan.chains,
      fr: pick(p.fr, ['dartagnan', 'literal'] as const, base.vulkan.fr),
      deviceScope: pick(p.device, ['system', 'agent'] as const, base.vulkan.deviceScope),
    },
  };
}

/** The most loop iterations a link may ask for (the page's field takes any; a link is someone else's). */
const MAX_SHARED_UNROLL = 64;
