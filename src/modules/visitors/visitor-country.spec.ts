import { countryFrom } from './visitor-country';

describe('countryFrom', () => {
  it('reads the configured header as an upper-case ISO 3166-1 alpha-2 code', () => {
    expect(countryFrom({ 'cf-ipcountry': 'de' }, 'cf-ipcountry')).toBe('DE');
    expect(countryFrom({ 'cf-ipcountry': ' FR ' }, 'cf-ipcountry')).toBe('FR');
  });

  it('ignores the header when none is configured', () => {
    expect(countryFrom({ 'cf-ipcountry': 'DE' }, undefined)).toBeUndefined();
  });

  it.each([['XX'], ['T1'], ['ZZ'], ['DEU'], [''], ['d3']])('refuses %j as a country', (value) => {
    expect(countryFrom({ 'cf-ipcountry': value }, 'cf-ipcountry')).toBeUndefined();
  });

  it('refuses an absent or repeated header', () => {
    expect(countryFrom({}, 'cf-ipcountry')).toBeUndefined();
    expect(countryFrom({ 'x-country': ['DE', 'FR'] }, 'x-country')).toBeUndefined();
  });
});
