import { useState } from 'preact/hooks';
import { api, ApiError, unwrap } from '../../api/client';
import { t } from '../../i18n';

const STARS = [1, 2, 3, 4, 5] as const;

/** A 1-5 rating with an optional comment for a closed conversation. */
export function RatingForm(props: { conversationId: number; onRated(): void }) {
  const [rating, setRating] = useState(0);
  const [hover, setHover] = useState(0);
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
      {/* A radio group drawn as stars: the radios stay (arrow keys, one tab stop, checked state)
          but are hidden behind their stars, named "1 star" to "5 stars". */}
      <fieldset class="stars" role="radiogroup" aria-labelledby="rating-question">
        <legend id="rating-question">{t('rating.title')}</legend>
        <div class="star-row" onMouseLeave={() => setHover(0)}>
          {STARS.map((n) => (
            <label
              key={n}
              class={`star${n <= (hover || rating) ? ' on' : ''}`}
              onMouseEnter={() => setHover(n)}
            >
              <input
                type="radio"
                name="rating"
                value={n}
                checked={rating === n}
                onChange={() => setRating(n)}
                aria-label={t(`rating.star${n}`)}
              />
              <svg viewBox="0 0 24 24" width="32" height="32" aria-hidden="true" focusable="false">
                <path d="M12 2.5l2.9 6.1 6.6.8-4.9 4.6 1.3 6.6L12 17.3l-5.9 3.3 1.3-6.6-4.9-4.6 6.6-.8z" />
              </svg>
            </label>
          ))}
        </div>
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
