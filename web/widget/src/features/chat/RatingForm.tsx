import { useState } from 'preact/hooks';
import { api, ApiError, unwrap } from '../../api/client';
import { t } from '../../i18n';

/** A 1-5 rating with an optional comment for a closed conversation. */
export function RatingForm(props: { conversationId: number; onRated(): void }) {
  const [rating, setRating] = useState(0);
  const [comment, setComment] = useState('');
  const [state, setState] = useState<'idle' | 'busy' | 'done'>('idle');
  const [failure, setFailure] = useState('');

  if (state === 'done') {
    return (
      <p class="panel notice" role="status">
        {t('rating.thanks')}
      </p>
    );
  }
  const submit = async (event: Event) => {
    event.preventDefault();
    if (!rating) return;
    setState('busy');
    try {
      await unwrap(
        api.POST('/api/widget/reviews', {
          body: {
            rating,
            conversation_id: props.conversationId,
            ...(comment.trim() ? { comment: comment.trim() } : {}),
          },
        }),
      );
      setState('done');
      props.onRated();
    } catch (error) {
      setFailure(error instanceof ApiError ? error.message : t('error.generic'));
      setState('idle');
    }
  };
  return (
    <form class="panel form" onSubmit={(e) => void submit(e)}>
      <fieldset class="stars">
        <legend>{t('rating.title')}</legend>
        {[1, 2, 3, 4, 5].map((n) => (
          <label key={n} class={n <= rating ? 'on' : ''}>
            <input
              type="radio"
              name="rating"
              value={n}
              checked={rating === n}
              onChange={() => setRating(n)}
              aria-label={t('rating.star', { n })}
            />
            <span aria-hidden="true">★</span>
          </label>
        ))}
      </fieldset>
      <div class="field">
        <label for="rating-comment">{t('rating.comment')}</label>
        <textarea
          id="rating-comment"
          rows={2}
          maxLength={2000}
          value={comment}
          onInput={(e) => setComment(e.currentTarget.value)}
        />
      </div>
      {failure && (
        <p class="error" role="alert">
          {failure}
        </p>
      )}
      <button type="submit" class="primary" disabled={!rating || state === 'busy'}>
        {t('rating.submit')}
      </button>
    </form>
  );
}
