import { useState } from 'preact/hooks';
import { api, ApiError, unwrap } from '../../api/client';
import { Field } from '../../components/Field';
import { t } from '../../i18n';

/** "Email me this conversation": to the address the visitor gave, or one typed here. */
export function TranscriptForm(props: { email: string; conversationId: number }) {
  const [email, setEmail] = useState(props.email);
  const [error, setError] = useState('');
  const [sent, setSent] = useState('');
  const [busy, setBusy] = useState(false);

  if (sent) {
    return (
      <p class="panel notice" role="status">
        {t('transcript.sent', { email: sent })}
      </p>
    );
  }
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError('');
    try {
      const answer = await unwrap(
        api.POST('/api/widget/transcript', {
          body: {
            conversation_id: props.conversationId,
            ...(email.trim() ? { email: email.trim() } : {}),
          },
        }),
      );
      setSent(answer.data.email);
    } catch (failure) {
      if (!(failure instanceof ApiError)) setError(t('error.generic'));
      else if (failure.status === 429) setError(t('transcript.too_many'));
      else {
        const fields = failure.fieldErrors();
        setError(
          fields.email ??
            (fields.conversation_id ? t('transcript.nothing') : undefined) ??
            failure.message,
        );
      }
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="form" onSubmit={(e) => void submit(e)} noValidate>
      <Field
        id="transcript-email"
        label={t('transcript.email')}
        type="email"
        inputMode="email"
        autoComplete="email"
        value={email}
        error={error}
        onInput={setEmail}
      />
      <button type="submit" class="primary" disabled={busy}>
        {t('transcript.submit')}
      </button>
    </form>
  );
}
