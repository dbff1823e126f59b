import { useState } from 'preact/hooks';
import { api, ApiError, unwrap, type VisitorProfile, type WidgetConfig } from '../../api/client';
import { Field } from '../../components/Field';
import { MessageBody } from '../../components/MessageBody';
import { t } from '../../i18n';

/** The account login menu: identifier, then the mailed 6-digit code; logout once logged in. */
export default function AccountPanel(props: {
  config: WidgetConfig;
  profile: VisitorProfile;
  onProfile(profile: VisitorProfile): void;
  onReply(body: string): void;
}) {
  const { config, profile } = props;
  const [identifier, setIdentifier] = useState('');
  const [code, setCode] = useState('');
  const [step, setStep] = useState<'identifier' | 'code'>('identifier');
  const [reply, setReply] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const login = profile.account_login;

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setError('');
    try {
      await work();
    } catch (failure) {
      const fields = failure instanceof ApiError ? Object.values(failure.fieldErrors()) : [];
      setError(fields[0] ?? (failure instanceof ApiError ? failure.message : t('error.generic')));
    } finally {
      setBusy(false);
    }
  };

  if (login.logged_in) {
    return (
      <div class="form">
        <p role="status">{t('login.logged_in', { identifier: login.identifier ?? '' })}</p>
        {reply && <MessageBody body={reply} />}
        <button
          type="button"
          class="primary"
          disabled={busy}
          onClick={() =>
            void run(async () => {
              const answer = await unwrap(api.POST('/api/widget/account-logout', { body: {} }));
              setStep('identifier');
              setCode('');
              setReply('');
              props.onProfile(answer.visitor_profile);
            })
          }
        >
          {config.visitor_account_login.logout_label || 'Log out'}
        </button>
      </div>
    );
  }

  if (step === 'code') {
    return (
      <form
        class="form"
        onSubmit={(e) => {
          e.preventDefault();
          void run(async () => {
            const answer = await unwrap(
              api.POST('/api/widget/account-login/verify-otp', { body: { otp: code.trim() } }),
            );
            setReply(answer.reply_body);
            if (answer.success) props.onProfile(answer.visitor_profile);
            else setError(answer.reply_body);
          });
        }}
      >
        <p>{t('login.code_hint')}</p>
        <Field
          id="otp"
          label={t('login.code')}
          value={code}
          onInput={setCode}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          required
          error={error}
        />
        <button type="submit" class="primary" disabled={busy || code.trim().length !== 6}>
          {t('login.verify')}
        </button>
      </form>
    );
  }

  return (
    <form
      class="form"
      onSubmit={(e) => {
        e.preventDefault();
        void run(async () => {
          const answer = await unwrap(
            api.POST('/api/widget/account-login', { body: { identifier: identifier.trim() } }),
          );
          setReply(answer.reply_body);
          if (answer.otp_required) setStep('code');
          else if (answer.success) props.onProfile(answer.visitor_profile);
          else setError(answer.reply_body);
        });
      }}
    >
      <Field
        id="identifier"
        label={t('login.identifier')}
        value={identifier}
        onInput={setIdentifier}
        autoComplete="username"
        required
        error={error}
      />
      <button type="submit" class="primary" disabled={busy || !identifier.trim()}>
        {t('login.continue')}
      </button>
    </form>
  );
}
