import { useState } from 'preact/hooks';
import { api, ApiError, unwrap } from '../../api/client';
import { t } from '../../i18n';

/**
 * The site's consent text, asked before the first message where the site turns it on
 * (`widget_config.consent`): agreeing is recorded on the server (POST /api/widget/consent), which
 * refuses a message before it. Shown in place of the message box.
 */
export function ConsentPrompt(props: {
  consent: { text: string; privacy_url: string | null };
  onAgreed: (at: string) => void;
}) {
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  const agree = async () => {
    setBusy(true);
    setError('');
    try {
      const answer = await unwrap(api.POST('/api/widget/consent', {}));
      props.onAgreed(answer.data.consented_at);
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : t('error.generic'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="panel form consent" aria-labelledby="consent-title">
      <h2 id="consent-title" class="panel-title">
        {t('consent.title')}
      </h2>
      <p>{props.consent.text}</p>
      {props.consent.privacy_url && (
        <p>
          <a href={props.consent.privacy_url} target="_blank" rel="noopener noreferrer">
            {t('consent.privacy')}
          </a>
        </p>
      )}
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <div class="actions">
        <button type="button" class="primary" disabled={busy} onClick={() => void agree()}>
          {t('consent.agree')}
        </button>
      </div>
    </section>
  );
}
