import {
  AA_RATIO,
  contrastRatio,
  DARK_TEXT,
  formatRatio,
  LIGHT_TEXT,
  parseHex,
  textColorOn,
} from './contrast';

describe('contrast (WCAG)', () => {
  it('reads #rgb and #rrggbb, and nothing else', () => {
    expect(parseHex('#2563eb')).toEqual([0x25, 0x63, 0xeb]);
    expect(parseHex('#FFF')).toEqual([255, 255, 255]);
    expect(parseHex('blue')).toBeUndefined();
    expect(parseHex('#12345')).toBeUndefined();
  });

  it('measures the ratio as WCAG does', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#ffffff', '#ffffff')).toBeCloseTo(1, 5);
    // Known pairs: #767676 is the lightest grey that passes AA on white.
    expect(contrastRatio('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
    expect(contrastRatio('#2563eb', '#ffffff')).toBeCloseTo(5.17, 2);
    expect(contrastRatio('#ffffff', '#2563eb')).toBe(contrastRatio('#2563eb', '#ffffff'));
  });

  it('puts light text on dark brand colours and dark text on pale ones', () => {
    expect(textColorOn('#2563eb')).toBe(LIGHT_TEXT);
    expect(textColorOn('#0f172a')).toBe(LIGHT_TEXT);
    expect(textColorOn('#fde68a')).toBe(DARK_TEXT);
    expect(textColorOn('#ffffff')).toBe(DARK_TEXT);
    expect(textColorOn('#22c55e')).toBe(DARK_TEXT); // white on it is 2.3:1
    expect(contrastRatio('#fde68a', textColorOn('#fde68a'))).toBeGreaterThanOrEqual(AA_RATIO);
    expect(textColorOn('not a colour')).toBe(LIGHT_TEXT);
  });

  it('never rounds a failing ratio up to a passing one', () => {
    expect(formatRatio(4.47)).toBe('4.4:1');
    expect(formatRatio(21)).toBe('21.0:1');
  });
});
