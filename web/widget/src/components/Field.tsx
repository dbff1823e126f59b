/** A labelled input with its error (announced, and tied to the input by aria-describedby). */
export function Field(props: {
  id: string;
  label: string;
  value: string;
  onInput(value: string): void;
  type?: string;
  required?: boolean;
  error?: string;
  autoComplete?: string;
  multiline?: boolean;
  inputMode?: 'numeric' | 'email' | 'tel' | 'text';
  maxLength?: number;
  pattern?: string;
}) {
  const { id, label, error } = props;
  const common = {
    id,
    name: id,
    value: props.value,
    required: props.required,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? `${id}-error` : undefined,
    autoComplete: props.autoComplete,
    maxLength: props.maxLength,
    onInput: (e: Event) => props.onInput((e.currentTarget as HTMLInputElement).value),
  };
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {props.multiline ? (
        <textarea rows={3} {...common} />
      ) : (
        <input
          type={(props.type ?? 'text') as 'text'}
          inputMode={props.inputMode}
          pattern={props.pattern}
          {...common}
        />
      )}
      {error && (
        <p id={`${id}-error`} class="error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
