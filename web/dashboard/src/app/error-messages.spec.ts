import { ERROR_REASONS, FIELD_CODES, reasonsShownBy } from '../../../../src/common/errors/reasons';
import { errorMessages, GENERIC_FIELD_CODES } from './error-messages';

describe("the dashboard's error sentences", () => {
  const keys = Object.keys(errorMessages);

  it('word every slug of the server registry the dashboard can meet', () => {
    const missing = reasonsShownBy('dashboard').filter(
      (reason) => !keys.includes(`error.reason.${reason}`),
    );
    expect(missing).toEqual([]);
  });

  it('word only slugs the server still sends', () => {
    const stale = keys
      .map((key) => key.replace(/^error\.reason\./, ''))
      .filter((reason) => !(reason in ERROR_REASONS));
    expect(stale).toEqual([]);
  });

  it("know the server's generic field codes", () => {
    expect([...GENERIC_FIELD_CODES].sort()).toEqual(Object.keys(FIELD_CODES).sort());
  });

  it('are sentences', () => {
    for (const text of Object.values(errorMessages)) expect(text).toMatch(/^[A-Z].*[.!?]$/);
  });
});
