import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError, unwrap } from '../../api/client';
import { language, t } from '../../i18n';
import type { Schemas } from '../../../../shared/api/client';
import { snippetParts } from './snippet';

type Hit = Schemas['WidgetArticleHitDto'];
type Article = Schemas['WidgetArticleDto'];

/** Articles answered in this frame: "Was this helpful?" is asked once per article. */
const answered = new Map<number, boolean>();

/**
 * The Help view (DESIGN section 10): suggested articles when it opens, search as you type, an
 * article read inline (the server's HTML), "Was this helpful?" once, and the way back to the
 * chat. Its own chunk, loaded when the visitor opens it.
 */
export default function HelpPanel({ onChat }: { onChat: () => void }) {
  const [text, setText] = useState('');
  const [hits, setHits] = useState<Hit[] | undefined>();
  const [suggested, setSuggested] = useState(true);
  const [failed, setFailed] = useState(false);
  const [article, setArticle] = useState<Article | undefined>();
  const [lastOpened, setLastOpened] = useState<number | undefined>();
  const search = useRef<HTMLInputElement>(null);

  // Search as the visitor types (a quarter second after the last key); an empty box suggests.
  useEffect(() => {
    let stale = false;
    const timer = setTimeout(
      () => {
        unwrap(
          api.GET('/api/widget/kb/search', {
            params: { query: { q: text.trim() || undefined, locale: language() } },
          }),
        )
          .then((answer) => {
            if (stale) return;
            setHits(answer.data);
            setSuggested(answer.suggested);
            setFailed(false);
          })
          .catch(() => {
            if (!stale) setFailed(true);
          });
      },
      text.trim() ? 250 : 0,
    );
    return () => {
      stale = true;
      clearTimeout(timer);
    };
  }, [text]);

  // Back from an article: the article it came from keeps the focus; else the search box.
  useEffect(() => {
    if (article) return;
    if (lastOpened !== undefined) {
      document.getElementById(`help-hit-${lastOpened}`)?.focus();
    } else search.current?.focus();
  }, [article, lastOpened]);

  const open = async (id: number) => {
    try {
      const answer = await unwrap(
        api.GET('/api/widget/kb/articles/{article}', { params: { path: { article: id } } }),
      );
      setLastOpened(id);
      setArticle(answer.data);
    } catch {
      setFailed(true);
    }
  };

  if (article) {
    return <ArticleView article={article} onBack={() => setArticle(undefined)} onChat={onChat} />;
  }

  return (
    <div class="help">
      <form role="search" class="help-search" onSubmit={(event) => event.preventDefault()}>
        <label for="help-q">{t('help.search')}</label>
        <input
          id="help-q"
          ref={search}
          type="search"
          value={text}
          placeholder={t('help.placeholder')}
          autoComplete="off"
          maxLength={200}
          onInput={(event) => {
            setLastOpened(undefined);
            setText(event.currentTarget.value);
          }}
        />
      </form>
      <section aria-labelledby="help-list" aria-live="polite">
        <h2 id="help-list" class="help-heading">
          {suggested ? t('help.suggested') : t('help.results')}
        </h2>
        {failed ? (
          <p class="error" role="alert">
            {t('error.generic')}
          </p>
        ) : hits === undefined ? (
          <p role="status">{t('help.loading')}</p>
        ) : hits.length === 0 ? (
          <p class="muted">{suggested ? t('help.empty') : t('help.none')}</p>
        ) : (
          <ul class="help-hits">
            {hits.map((hit) => (
              <li key={hit.id}>
                <button
                  type="button"
                  id={`help-hit-${hit.id}`}
                  class="help-hit"
                  onClick={() => void open(hit.id)}
                >
                  <span class="help-hit-title">{hit.title}</span>
                  {(hit.snippet || hit.excerpt) && (
                    <span class="help-hit-text">
                      {hit.snippet ? <Snippet html={hit.snippet} /> : hit.excerpt}
                    </span>
                  )}
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
      <button type="button" class="secondary help-chat" onClick={onChat}>
        {t('help.chat')}
      </button>
    </div>
  );
}

/** The server's snippet, drawn as text and `<mark>` elements: no markup of it reaches the DOM. */
function Snippet({ html }: { html: string }) {
  return (
    <>
      {snippetParts(html).map((part, index) =>
        part.mark ? <mark key={index}>{part.text}</mark> : part.text,
      )}
    </>
  );
}

function ArticleView({
  article,
  onBack,
  onChat,
}: {
  article: Article;
  onBack: () => void;
  onChat: () => void;
}) {
  // An opened article takes the focus at its title.
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const [vote, setVote] = useState<boolean | undefined>(answered.get(article.id));
  const [error, setError] = useState(false);

  const answer = async (helpful: boolean) => {
    setError(false);
    try {
      await unwrap(
        api.POST('/api/widget/kb/articles/{article}/feedback', {
          params: { path: { article: article.id } },
          body: { helpful },
        }),
      );
    } catch (failure) {
      // Answered before (another tab, an earlier visit): the answer stands, thanks all the same.
      if (!(failure instanceof ApiError && failure.status === 409)) {
        setError(true);
        return;
      }
    }
    answered.set(article.id, helpful);
    setVote(helpful);
  };

  return (
    <article class="help help-article" aria-labelledby="help-article-title">
      <button type="button" class="link back" onClick={onBack}>
        ← {t('help.back')}
      </button>
      <h2 id="help-article-title" ref={heading} tabIndex={-1}>
        {article.title}
      </h2>
      {/* Rendered on the server by markdown-it with raw HTML off: safe to place as it is. */}
      <div class="help-body" dangerouslySetInnerHTML={{ __html: article.html }} />
      <div class="help-feedback" role="group" aria-labelledby="help-question">
        {vote === undefined ? (
          <>
            <p id="help-question">{t('help.question')}</p>
            <div class="actions">
              <button type="button" class="secondary" onClick={() => void answer(true)}>
                {t('help.yes')}
              </button>
              <button type="button" class="secondary" onClick={() => void answer(false)}>
                {t('help.no')}
              </button>
            </div>
            {error && (
              <p class="error" role="alert">
                {t('error.generic')}
              </p>
            )}
          </>
        ) : (
          <p id="help-question" role="status">
            {t('help.thanks')}
          </p>
        )}
      </div>
      <button type="button" class="primary" onClick={onChat}>
        {t('help.chat')}
      </button>
    </article>
  );
}
