import { ApiError, type ApiErrorBody, setReasonSentences } from './client';

const body: ApiErrorBody = {
  status: false,
  code: '422',
  message: 'Another label already has this name.',
  error_code: 'validation_failed',
  error_reason: 'name_taken',
  errors: { name: ['Another label already has this name.'], color: ['Color must be a string.'] },
  field_reasons: { name: ['name_taken'], color: ['not_string'] },
};

describe('ApiError (issue 32: errors as codes)', () => {
  afterEach(() => setReasonSentences(() => undefined));

  it("speaks the app's catalog for the error's slug and each field's, else the server's text", () => {
    setReasonSentences((reason) => (reason === 'name_taken' ? 'Name in use.' : undefined));
    const error = new ApiError(422, body);
    expect(error.message).toBe('Name in use.');
    expect(error.reason).toBe('name_taken');
    expect(error.fieldReasons()).toEqual({ name: 'name_taken', color: 'not_string' });
    expect(error.fieldErrors()).toEqual({ name: 'Name in use.', color: 'Color must be a string.' });
  });

  it("keeps the server's text without a catalog, and for a body without slugs", () => {
    expect(new ApiError(422, body).message).toBe('Another label already has this name.');
    setReasonSentences(() => 'Never.');
    const old = new ApiError(409, { status: false, code: '409', message: 'Busy.' });
    expect(old.message).toBe('Busy.');
    expect(old.fieldErrors()).toEqual({});
    expect(new ApiError(500, undefined).message).toBe('Request failed (500)');
  });
});
