import 'reflect-metadata';
import { IsInt, IsString, MaxLength, ValidateNested, validateSync } from 'class-validator';
import { Type } from 'class-transformer';
import { AppError, type ErrorCode, statusOf } from './app-error';
import { renderError } from './render-error';
import { toFieldErrors, toFieldProblems } from './validation';

class Filters {
  @IsString()
  txn!: string;
}

class Body {
  @IsString()
  @MaxLength(5)
  body!: string;

  @IsInt()
  agent_user_id!: number;

  @ValidateNested()
  @Type(() => Filters)
  filters!: Filters;
}

describe('renderError', () => {
  it('renders an AppError in the envelope with its code, text and field errors', () => {
    const rendered = renderError(
      AppError.invalid('body', 'The body field is required.', 'required'),
    );
    expect(rendered.status).toBe(422);
    expect(rendered.unexpected).toBe(false);
    expect(rendered.body).toMatchObject({
      status: false,
      code: '422',
      message: 'The body field is required.',
      error_code: 'validation_failed',
      errors: { body: ['The body field is required.'] },
      error_reason: 'required',
      field_reasons: { body: ['required'] },
    });
  });

  it('adds the domain reason beside the unchanged code and text', () => {
    const rendered = renderError(
      AppError.conflict('The conversation is closed.', 'conversation_closed'),
    );
    expect(rendered.body).toEqual({
      status: false,
      code: '409',
      message: 'The conversation is closed.',
      error_code: 'conflict',
      error_reason: 'conversation_closed',
      datetime: expect.any(String),
    });
  });

  it('gives every text of a validation error a slug, in the same order', () => {
    const error = AppError.validation(
      { name: ['Taken.', 'Too long.'], email: ['Bad.'] },
      { name: ['name_taken'] },
    );
    expect(error.message).toBe('Taken.');
    expect(renderError(error).body).toMatchObject({
      error_reason: 'name_taken',
      field_reasons: { name: ['name_taken', 'invalid'], email: ['invalid'] },
    });
    expect(
      renderError(AppError.validation({ a: ['One.'], b: ['Two.'] }, 'ticket_change_empty')).body
        .field_reasons,
    ).toEqual({ a: ['ticket_change_empty'], b: ['ticket_change_empty'] });
  });

  it('hides an unexpected error behind a bare 500', () => {
    const rendered = renderError(new TypeError('secret detail at /srv/app/db.ts:42'));
    expect(rendered.status).toBe(500);
    expect(rendered.unexpected).toBe(true);
    expect(rendered.body).toEqual({
      status: false,
      code: '500',
      message: 'Server error.',
      error_code: 'internal_error',
      datetime: expect.any(String),
    });
    expect(JSON.stringify(rendered.body)).not.toContain('secret');
  });

  it('maps body-parser failures to 4xx, never 500', () => {
    expect(renderError({ type: 'entity.parse.failed' }).status).toBe(400);
    expect(renderError({ type: 'entity.too.large' }).status).toBe(413);
    expect(renderError({ type: 'charset.unsupported' }).status).toBe(415);
  });

  it('maps framework HTTP exceptions by status', () => {
    const notFound = { getStatus: () => 404, message: 'Cannot GET /x' };
    expect(renderError(notFound).body).toMatchObject({
      message: 'Not found.',
      error_code: 'not_found',
    });
  });

  it('passes headers such as Retry-After through', () => {
    const rendered = renderError(
      new AppError('rate_limited', 'Too Many Attempts.', { headers: { 'Retry-After': '30' } }),
    );
    expect(rendered.headers).toEqual({ 'Retry-After': '30' });
    expect(rendered.status).toBe(429);
  });

  it('gives every error code a 4xx or 5xx status', () => {
    const codes: ErrorCode[] = [
      'malformed_json',
      'unauthenticated',
      'subscription_expired',
      'missing_ability',
      'feature_not_in_plan',
      'forbidden',
      'not_found',
      'conflict',
      'validation_failed',
      'rate_limited',
      'internal_error',
    ];
    expect(codes.map(statusOf)).toEqual([400, 401, 402, 403, 403, 403, 404, 409, 422, 429, 500]);
  });
});

describe('toFieldErrors', () => {
  it('names each invalid field, nested ones by path, with sentences', () => {
    const body = Object.assign(new Body(), {
      body: 'too long',
      agent_user_id: 'x',
      filters: Object.assign(new Filters(), { txn: 5 }),
    });
    const errors = toFieldErrors(validateSync(body));
    expect(Object.keys(errors).sort()).toEqual(['agent_user_id', 'body', 'filters.txn']);
    expect(errors.body).toEqual(['Body must be shorter than or equal to 5 characters.']);
    expect(errors['filters.txn'][0]).toMatch(/^Txn must be a string\.$/);
  });

  it('says a missing field is required instead of quoting its other rules', () => {
    const errors = toFieldErrors(validateSync(Object.assign(new Body(), { agent_user_id: 1 })));
    expect(errors.body).toEqual(['The body field is required.']);
  });

  it('codes each failed rule generically, text for text', () => {
    const body = Object.assign(new Body(), {
      body: 'too long',
      agent_user_id: 'x',
      filters: Object.assign(new Filters(), { txn: 5 }),
    });
    expect(toFieldProblems(validateSync(body)).reasons).toEqual({
      body: ['too_long'],
      agent_user_id: ['not_integer'],
      'filters.txn': ['not_string'],
    });
    expect(
      toFieldProblems(validateSync(Object.assign(new Body(), { agent_user_id: 1 }))).reasons.body,
    ).toEqual(['required']);
  });
});
