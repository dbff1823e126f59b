import { useState } from 'preact/hooks';
import { api, ApiError, unwrap, type VisitorProfile } from '../../api/client';
import { Field } from '../../components/Field';
import { t } from '../../i18n';

/** Nobody online: the visitor leaves a message and an email; it becomes a ticket (`widget`). */
export function OfflineForm(props: { profile: VisitorProfile }) {
  const [name, setName] = useState(props.profile.name);
  const [email, setEmail] = useState(props.profile.email);
  const [message, setMessage] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [ticket, setTicket] = useState('');
  const [busy, setBusy] = useState(false);

  if (ticket) {
    return (
      <p class="panel notice" role="status">
        {t('offline.done', { number: ticket })}
      </p>
    );
  }
  const submit = async (event: Event) => {
    event.preventDefault();
    const missing: Record<string, string> = {};
    if (!email.trim()) missing.email = t('prechat.required');
    if (!message.trim()) missing.message = t('prechat.required');
    setErrors(missing);
    if (Object.keys(missing).length) return;
    setBusy(true);
    try {
      const answer = await unwrap(
        api.POST('/api/widget/offline-messages', {
          body: {
            message: message.trim(),
            email: email.trim(),
            ...(name.trim() ? { name: name.trim() } : {}),
          },
        }),
      );
      setTicket(answer.data.ticket_number);
    } catch (error) {
      const fields = error instanceof ApiError ? error.fieldErrors() : {};
      setErrors(
        Object.keys(fields).length
          ? fields
          : { form: error instanceof ApiError ? error.message : t('error.generic') },
      );
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="panel form" onSubmit={(e) => void submit(e)} noValidate>
      <p>{t('offline.intro')}</p>
      <Field
        id="off-name"
        label={t('offline.name')}
        value={name}
        onInput={setName}
        autoComplete="name"
        error={errors.name}
      />
      <Field
        id="off-email"
        label={t('offline.email')}
        type="email"
        required
        value={email}
        onInput={setEmail}
        autoComplete="email"
        error={errors.email}
      />
      <Field
        id="off-message"
        label={t('offline.message')}
        required
        multiline
        value={message}
        onInput={setMessage}
        maxLength={5000}
        error={errors.message}
      />
      {errors.form && (
        <p class="error" role="alert">
          {errors.form}
        </p>
      )}
      <button type="submit" class="primary" disabled={busy}>
        {t('offline.submit')}
      </button>
    </form>
  );
}
