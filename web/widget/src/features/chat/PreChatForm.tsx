import { useState } from 'preact/hooks';
import { api, ApiError, unwrap, type VisitorProfile, type WidgetConfig } from '../../api/client';
import { Field } from '../../components/Field';
import { t } from '../../i18n';

const BUILTIN = ['name', 'email', 'phone'] as const;
const INPUT_TYPE: Record<string, string> = { email: 'email', phone: 'tel', tel: 'tel' };

/** The pre-chat form from `widget_config.pre_chat_form`: built-in and custom fields. */
export function PreChatForm(props: {
  config: WidgetConfig['pre_chat_form'];
  profile: VisitorProfile;
  onDone(profile: VisitorProfile): void;
}) {
  const { config, profile } = props;
  const [values, setValues] = useState<Record<string, string>>(() => ({
    name: profile.name,
    email: profile.email,
    phone: profile.phone,
  }));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState('');

  const submit = async (event: Event) => {
    event.preventDefault();
    const missing: Record<string, string> = {};
    for (const field of config.fields) {
      if (field.required && !values[field.key]?.trim()) missing[field.key] = t('prechat.required');
    }
    setErrors(missing);
    if (Object.keys(missing).length > 0) {
      document.getElementById(`pc-${Object.keys(missing)[0]}`)?.focus();
      return;
    }
    setBusy(true);
    setFailure('');
    const custom: Record<string, string> = {};
    const builtin: Record<string, string> = {};
    for (const field of config.fields) {
      const value = values[field.key]?.trim() ?? '';
      if (!value) continue;
      if (field.builtin && (BUILTIN as readonly string[]).includes(field.key))
        builtin[field.key] = value;
      else custom[field.key] = value;
    }
    try {
      const answer = await unwrap(
        api.POST('/api/widget/profile', { body: { ...builtin, custom_fields: custom } }),
      );
      props.onDone(answer.visitor_profile);
    } catch (error) {
      if (error instanceof ApiError && Object.keys(error.fieldErrors()).length > 0) {
        const fieldErrors: Record<string, string> = {};
        for (const [key, message] of Object.entries(error.fieldErrors())) {
          fieldErrors[key.replace(/^custom_fields\./, '')] = message;
        }
        setErrors(fieldErrors);
      } else setFailure(error instanceof ApiError ? error.message : t('error.generic'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      class="panel form"
      onSubmit={(e) => void submit(e)}
      noValidate
      aria-labelledby="prechat-intro"
    >
      <p id="prechat-intro">{t('prechat.intro')}</p>
      {config.fields.map((field) => (
        <Field
          key={field.key}
          id={`pc-${field.key}`}
          label={field.required ? field.label : `${field.label} ${t('prechat.optional')}`}
          type={INPUT_TYPE[field.type] ?? INPUT_TYPE[field.key] ?? 'text'}
          required={field.required}
          autoComplete={field.key === 'phone' ? 'tel' : field.builtin ? field.key : undefined}
          value={values[field.key] ?? ''}
          error={errors[field.key]}
          onInput={(value) => setValues((v) => ({ ...v, [field.key]: value }))}
        />
      ))}
      {failure && (
        <p class="error" role="alert">
          {failure}
        </p>
      )}
      <button type="submit" class="primary" disabled={busy}>
        {t('prechat.submit')}
      </button>
    </form>
  );
}
