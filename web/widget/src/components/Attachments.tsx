import { t } from '../i18n';
import { validAttachments } from './attachment-items';

const size = (bytes: number) =>
  bytes >= 1024 * 1024
    ? `${(bytes / 1024 / 1024).toFixed(1)} MB`
    : `${Math.max(1, Math.round(bytes / 1024))} KB`;

/** A message's files: images previewed, every file a download link. */
export function Attachments({ items }: { items: Record<string, unknown>[] }) {
  const files = validAttachments(items);
  if (files.length === 0) return null;
  return (
    <ul class="files">
      {files.map((file) => (
        <li key={file.id}>
          {file.content_type.startsWith('image/') && (
            <img src={file.url} alt={file.file_name} loading="lazy" class="preview" />
          )}
          <a
            href={file.url}
            download={file.file_name}
            target="_blank"
            rel="noopener noreferrer"
            aria-label={t('attach.download', { name: file.file_name })}
          >
            {file.file_name} <span class="size">({size(Number(file.size) || 0)})</span>
          </a>
        </li>
      ))}
    </ul>
  );
}
