import { useState } from 'preact/hooks';
import { api, ApiError, unwrap, type VisitorProfile } from '../../api/client';
import { Field } from '../../components/Field';
import { t } from '../../i18n';

/**
 * "Get notified by email", asked once inline after the visitor wrote while nobody was there: the
 * address is saved on the visitor (POST /api/widget/email), so replies it does not see here are
 * mailed to it.
 */
export function EmailPrompt(props: {
  onSaved: (profile: VisitorProfile) => void;
  onDismiss: () => void;
}) {
  const [email, setEmail] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    if (!email.trim()) {
      setError(t('prechat.required'));
      return;
    }
    setBusy(true);
    try {
      const answer = await unwrap(api.POST('/api/widget/email', { body: { email: email.trim() } }));
      props.onSaved(answer.visitor_profile);
    } catch (failure) {
      setError(
        failure instanceof ApiError
          ? (failure.fieldErrors().email ?? failure.message)
          : t('error.generic'),
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      class="panel form"
      onSubmit={(e) => void submit(e)}
      noValidate
      aria-labelledby="notify-title"
    >
      <h2 id="notify-title" class="panel-title">
        {t('notify.title')}
      </h2>
      <p>{t('notify.intro')}</p>
      <Field
        id="notify-email"
        label={t('notify.email')}
        type="email"
        inputMode="email"
        autoComplete="email"
        value={email}
        error={error}
        onInput={setEmail}
      />
      <div class="actions">
        <button type="submit" class="primary" disabled={busy}>
          {t('notify.submit')}
        </button>
        <button type="button" class="link" onClick={props.onDismiss}>
          {t('notify.dismiss')}
        </button>
      </div>
    </form>
  );
}
