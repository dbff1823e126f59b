import { useRef, useState } from 'preact/hooks';
import { ApiError, uploadAttachment, type Attachment } from '../../api/client';
import { t } from '../../i18n';

// What the service accepts (it checks again, against the file's leading bytes).
const ACCEPT =
  'image/png,image/jpeg,image/gif,image/webp,application/pdf,text/plain,text/csv,application/zip,.doc,.docx,.xls,.xlsx,.ppt,.pptx,.odt,.ods,.odp';
/** The service's default limit (ATTACHMENT_MAX_BYTES); a larger limit there still answers 413. */
const MAX_BYTES = 10 * 1024 * 1024;

/**
 * The message box ("Message"), a file button ("Attach a file") and the send button ("Send");
 * Enter sends, Shift+Enter breaks the line. Files upload when picked and go with the next send.
 */
export function Composer(props: {
  onSend(body: string, files: Attachment[]): void;
  onTyping(): void;
  inputRef?: preact.RefObject<HTMLTextAreaElement | null>;
}) {
  const [body, setBody] = useState('');
  const [files, setFiles] = useState<Attachment[]>([]);
  const [uploading, setUploading] = useState(0);
  const [error, setError] = useState('');
  const own = useRef<HTMLTextAreaElement>(null);
  const ref = props.inputRef ?? own;
  const canSend = (body.trim() !== '' || files.length > 0) && uploading === 0;

  const submit = (event?: Event) => {
    event?.preventDefault();
    if (!canSend) return;
    props.onSend(body.trim().slice(0, 5000), files);
    setBody('');
    setFiles([]);
    ref.current?.focus();
  };

  const pick = async (list: FileList | null) => {
    setError('');
    for (const file of Array.from(list ?? [])) {
      if (file.size > MAX_BYTES) {
        setError(t('attach.too_big', { name: file.name }));
        continue;
      }
      setUploading((n) => n + 1);
      try {
        const answer = await uploadAttachment(file);
        setFiles((current) => [...current, answer.data].slice(0, 10));
      } catch (failure) {
        setError(uploadRefusal(failure, file.name));
      } finally {
        setUploading((n) => n - 1);
      }
    }
  };

  return (
    <form class="composer-wrap" onSubmit={submit}>
      {(files.length > 0 || uploading > 0 || error) && (
        <div class="staged">
          {files.map((file) => (
            <span key={file.id} class="chip">
              {file.file_name}
              <button
                type="button"
                class="x"
                aria-label={t('attach.remove', { name: file.file_name })}
                onClick={() => setFiles((current) => current.filter((f) => f.id !== file.id))}
              >
                ×
              </button>
            </span>
          ))}
          {uploading > 0 && <span role="status">{t('attach.uploading')}</span>}
          {error && (
            <p class="error" role="alert">
              {error}
            </p>
          )}
        </div>
      )}
      <div class="composer">
        <label class="attach" title={t('attach.add')}>
          <input
            type="file"
            class="sr-only"
            accept={ACCEPT}
            aria-label={t('attach.add')}
            onChange={(e) => {
              const input = e.currentTarget;
              void pick(input.files).then(() => {
                input.value = '';
              });
            }}
          />
          <svg
            width="20"
            height="20"
            viewBox="0 0 24 24"
            aria-hidden="true"
            fill="none"
            stroke="currentColor"
            stroke-width="2"
            stroke-linecap="round"
          >
            <path d="M21 11.5l-8.5 8.5a5 5 0 0 1-7-7l9-9a3.5 3.5 0 0 1 5 5l-9 9a2 2 0 0 1-3-3l8-8" />
          </svg>
        </label>
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
        <button type="submit" class="send" aria-label={t('chat.send')} disabled={!canSend}>
          <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true" fill="currentColor">
            <path d="M3 20.5 21 12 3 3.5l2.5 7L15 12l-9.5 1.5z" />
          </svg>
        </button>
      </div>
    </form>
  );
}

/** What the visitor reads when an upload is refused: the quotas in the catalog's words. */
/** One short sentence for a refused file: never the server's list of accepted types. */
function uploadRefusal(failure: unknown, name: string): string {
  if (!(failure instanceof ApiError)) return t('error.generic');
  if (failure.status === 429) return t('attach.too_many');
  if (failure.status === 413) return t('attach.storage_full');
  if (failure.status === 422) return t('attach.refused', { name });
  return t('error.generic');
}
