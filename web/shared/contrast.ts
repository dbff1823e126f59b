/**
 * Colour contrast as WCAG 2.x defines it: the widget picks dark or light text on the site's
 * brand colour by contrast ratio, and the site editor warns when a colour falls below AA.
 */

/** WCAG AA for normal text. */
export const AA_RATIO = 4.5;
/** The widget's text on the brand colour: light, or dark where light would be harder to read. */
export const LIGHT_TEXT = '#ffffff';
export const DARK_TEXT = '#0f172a';

/** `#rgb` or `#rrggbb` as 0-255 channels; undefined for anything else. */
export function parseHex(color: string): [number, number, number] | undefined {
  const match = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(color.trim());
  if (!match) return undefined;
  let hex = match[1];
  if (hex.length === 3) hex = [...hex].map((digit) => digit + digit).join('');
  return [0, 2, 4].map((at) => parseInt(hex.slice(at, at + 2), 16)) as [number, number, number];
}

/** The relative luminance of an sRGB colour (0 for black, 1 for white). */
export function relativeLuminance(color: string): number {
  const channels = parseHex(color);
  if (!channels) throw new Error(`not a hex colour: ${color}`);
  const [r, g, b] = channels.map((value) => {
    const c = value / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The contrast ratio of two colours, from 1 (none) to 21 (black on white). */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [
    number,
    number,
  ];
  return (light + 0.05) / (dark + 0.05);
}

/** The text colour for a background: light unless dark text contrasts more with it. */
export function textColorOn(background: string): string {
  if (!parseHex(background)) return LIGHT_TEXT;
  return contrastRatio(background, DARK_TEXT) > contrastRatio(background, LIGHT_TEXT)
    ? DARK_TEXT
    : LIGHT_TEXT;
}

/** A ratio as people read it: one decimal, floored so 4.47 never shows as a passing 4.5. */
export function formatRatio(ratio: number): string {
  return `${(Math.floor(ratio * 10) / 10).toFixed(1)}:1`;
}
