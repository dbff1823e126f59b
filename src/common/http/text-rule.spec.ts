import { findInputProblem, MAX_DEPTH } from './text-rule';

describe('the rules for input at the edge', () => {
  it('accepts ordinary text, emoji and numbers', () => {
    expect(
      findInputProblem({ a: 'Hello \ud83d\ude00', b: [1, -2.5, Number.MAX_SAFE_INTEGER] }),
    ).toBeUndefined();
  });

  it('names a NUL character by its path', () => {
    expect(findInputProblem({ rules: [{ keywords: ['ok', 'a\u0000b'] }] })).toEqual({
      'rules.0.keywords.1': ['The rules.0.keywords.1 field must not contain NUL characters.'],
    });
  });

  it.each(['\ud800', 'a\udc00', 'x\ud83d'])('refuses the lone surrogate in %j', (text) => {
    expect(Object.keys(findInputProblem({ email: text }) ?? {})).toEqual(['email']);
  });

  it('refuses a bad key, showing it escaped', () => {
    expect(findInputProblem({ custom: { 'a\u0000': 1 } })).toEqual({
      'custom.a\\u0000': ['The custom.a\\u0000 field name is not valid text.'],
    });
  });

  it.each([1e308, 2 ** 53, -(2 ** 63)])('refuses the number %d', (value) => {
    expect(Object.keys(findInputProblem({ agent_id: value }) ?? {})).toEqual(['agent_id']);
  });

  it('stops at a depth no request needs, without recursion', () => {
    let deep: unknown = 1;
    for (let level = 0; level < 100_000; level++) deep = [deep];
    const errors = findInputProblem({ x: deep });
    expect(Object.values(errors ?? {})[0]).toEqual([expect.stringMatching(/nested too deeply/)]);
    let fine: unknown = 'ok';
    for (let level = 0; level < MAX_DEPTH - 1; level++) fine = { a: fine };
    expect(findInputProblem(fine)).toBeUndefined();
  });
});
