import { useState } from 'preact/hooks';
import { api, ApiError, unwrap, type WidgetConfig } from '../../api/client';
import { Field } from '../../components/Field';
import { MessageBody } from '../../components/MessageBody';
import { t } from '../../i18n';

/** The record search form built from `filter_record.filters` (text and date range). */
export default function SearchPanel({ config }: { config: WidgetConfig['filter_record'] }) {
  const [values, setValues] = useState<Record<string, string>>({});
  const [result, setResult] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const set = (key: string) => (value: string) => setValues((v) => ({ ...v, [key]: value }));

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setErrors({});
    const filters = Object.fromEntries(
      Object.entries(values)
        .map(([key, value]) => [key, value.trim()])
        .filter(([, value]) => value !== ''),
    ) as Record<string, string>;
    try {
      const answer = await unwrap(
        api.POST('/api/widget/filter-records/search', { body: { filters } }),
      );
      setResult(answer.body);
    } catch (error) {
      const fields = error instanceof ApiError ? error.fieldErrors() : {};
      const mapped: Record<string, string> = {};
      for (const [key, message] of Object.entries(fields))
        mapped[key.replace(/^filters\./, '')] = message;
      if (!Object.keys(mapped).length) {
        mapped.form = error instanceof ApiError ? error.message : t('error.generic');
      }
      setErrors(mapped);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div>
      <form class="form" onSubmit={(e) => void submit(e)}>
        {config.filters.map((filter) =>
          filter.type === 'date_range' ? (
            <div class="row" key={filter.key}>
              <Field
                id="date_from"
                type="date"
                label={t('search.from', { label: filter.label })}
                value={values.date_from ?? ''}
                onInput={set('date_from')}
                error={errors.date_from}
              />
              <Field
                id="date_to"
                type="date"
                label={t('search.to', { label: filter.label })}
                value={values.date_to ?? ''}
                onInput={set('date_to')}
                error={errors.date_to}
              />
            </div>
          ) : (
            <Field
              key={filter.key}
              id={filter.key}
              label={filter.label}
              value={values[filter.key] ?? ''}
              onInput={set(filter.key)}
              error={errors[filter.key]}
            />
          ),
        )}
        {errors.form && (
          <p class="error" role="alert">
            {errors.form}
          </p>
        )}
        <button type="submit" class="primary" disabled={busy}>
          {t('search.submit')}
        </button>
      </form>
      <div role="region" aria-live="polite" aria-label={config.button_label} class="result">
        {result && <MessageBody body={result} />}
      </div>
    </div>
  );
}
