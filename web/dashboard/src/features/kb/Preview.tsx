import { Text, Typography } from '@mantine/core';
import { useDeferredValue, useMemo } from 'react';
import { t } from '../../i18n';
import { renderMarkdown } from './markdown';

/**
 * The live preview: the Markdown rendered in the browser by the server's own module (raw HTML
 * off, unsafe link schemes refused), so it is safe to place as it is. Its own chunk: markdown-it
 * loads only when an editor opens.
 */
export default function Preview({ markdown }: { markdown: string }) {
  const deferred = useDeferredValue(markdown);
  const html = useMemo(() => renderMarkdown(deferred), [deferred]);
  if (!deferred.trim()) {
    return (
      <Text c="dimmed" size="sm">
        {t('kb.editor.previewEmpty')}
      </Text>
    );
  }
  return (
    <Typography>
      <div data-testid="kb-preview" dangerouslySetInnerHTML={{ __html: html }} />
    </Typography>
  );
}
