import ar from './ar';
import de from './de';
import { en } from './en';
import es from './es';
import fr from './fr';
import { format, isRtl, LANGUAGES, pickLanguage } from './index';
import pt from './pt';
import { ERROR_REASONS, reasonsShownBy } from '../../../../src/common/errors/reasons';
import { reasonSentence } from './errors';

describe('the widget languages', () => {
  it('picks the first supported language of the wishes, by its base, else English', () => {
    expect(pickLanguage(['de-AT', 'fr'])).toBe('de');
    expect(pickLanguage([undefined, 'xx', 'pt_BR'])).toBe('pt');
    expect(pickLanguage(['AR'])).toBe('ar');
    expect(pickLanguage(['ja-JP'])).toBe('en');
    expect(pickLanguage([])).toBe('en');
  });

  it('has six languages, one of them right to left', () => {
    expect(LANGUAGES).toHaveLength(6);
    expect(LANGUAGES.filter(isRtl)).toEqual(['ar']);
  });

  it('translates every key and keeps every placeholder', () => {
    const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const catalog of [ar, de, es, fr, pt]) {
      expect(Object.keys(catalog).sort()).toEqual(Object.keys(en).sort());
      for (const [key, text] of Object.entries(catalog)) {
        expect(text.trim()).not.toBe('');
        expect(placeholders(text)).toEqual(placeholders(en[key as keyof typeof en]));
      }
    }
  });

  it('fills placeholders and leaves unknown ones', () => {
    expect(format('{count} unread, {x}', { count: 2 })).toBe('2 unread, {x}');
  });

  it('words every error slug the widget can meet, in every language (issue 32)', () => {
    const missing = reasonsShownBy('widget').filter(
      (reason) => !Object.prototype.hasOwnProperty.call(en, `error.reason.${reason}`),
    );
    expect(missing).toEqual([]);
    const stale = Object.keys(en)
      .filter((key) => key.startsWith('error.reason.'))
      .map((key) => key.slice('error.reason.'.length))
      .filter((reason) => !(reason in ERROR_REASONS));
    expect(stale).toEqual([]);
    // The other languages have the same keys (above), so each slug is worded in all six.
  });

  it("shows the catalog's sentence for a slug, and nothing for a slug it lacks", () => {
    expect(reasonSentence('conversation_closed')).toBe(en['error.reason.conversation_closed']);
    expect(reasonSentence('no_such_reason')).toBeUndefined();
    expect(reasonSentence(undefined)).toBeUndefined();
  });
});
