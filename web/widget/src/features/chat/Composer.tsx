import { useRef, useState } from 'preact/hooks';
import { t } from '../../i18n';

/** The message box ("Message") and the send button ("Send"); Enter sends, Shift+Enter breaks. */
export function Composer(props: {
  onSend(body: string): void;
  onTyping(): void;
  inputRef?: preact.RefObject<HTMLTextAreaElement | null>;
}) {
  const [body, setBody] = useState('');
  const own = useRef<HTMLTextAreaElement>(null);
  const ref = props.inputRef ?? own;
  const submit = (event?: Event) => {
    event?.preventDefault();
    const text = body.trim();
    if (!text) return;
    props.onSend(text.slice(0, 5000));
    setBody('');
    ref.current?.focus();
  };
  return (
    <form class="composer" onSubmit={submit}>
      <label for="message" class="sr-only">
        {t('chat.message')}
      </label>
      <textarea
        id="message"
        ref={ref}
        rows={1}
        maxLength={5000}
        placeholder={t('chat.placeholder')}
        value={body}
        onInput={(e) => {
          setBody(e.currentTarget.value);
          props.onTyping();
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) submit(e);
        }}
      />
      <button type="submit" class="send" aria-label={t('chat.send')} disabled={!body.trim()}>
        <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true" fill="currentColor">
          <path d="M3 20.5 21 12 3 3.5l2.5 7L15 12l-9.5 1.5z" />
        </svg>
      </button>
    </form>
  );
}
