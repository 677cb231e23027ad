import useSWR from 'swr';
import { queryFetcher } from '../lib/client/api.ts';
import { formatPublishedDate } from '../lib/campaign-time.ts';
import { withInitialData, type ArticleSummary } from '../lib/public-lists.ts';
import type { IslandUi } from '../content/ui.ts';
import { articleCategory } from '../lib/schemas/category.ts';
import { DEFAULT_LANG, type Lang } from '../lib/lang.ts';
import '../styles/islands.css';

interface Props {
  /** Server-rendered first list (null: skeletons until the first fetch). */
  initialArticles?: ArticleSummary[] | null;
  /** When the server rendered the initial list (ISO 8601): an older list is refreshed on mount. */
  renderedAt?: string;
  candidateName: string;
  fallbackImage?: string;
  /** How many articles the list shows (the first page of /blog); refreshes keep to it. */
  limit?: number;
  /** The list's words and date format in the page's language (src/content/ui.ts `islandUi`). */
  words: ArticleWords;
  locale: string;
  /** Where an article's page is in that language ("/article/" or "/es/article/"). */
  articleBase: string;
  /** The page's language: the list it refreshes (`/api/news?lang=`). */
  lang: Lang;
}

type ArticleWords = Pick<IslandUi, 'newsUnavailable' | 'noNews' | 'readMore' | 'categoryLabels'>;

function ArticleCard({
  article,
  candidateName,
  fallbackImage,
  words,
  locale,
  articleBase,
  lang,
}: {
  lang: Lang;
  article: ArticleSummary;
  candidateName: string;
  fallbackImage: string;
  words: ArticleWords;
  locale: string;
  articleBase: string;
}) {
  // An article without a version in the page's language is shown in English, marked as such.
  const textLang = article.lang !== lang ? article.lang : undefined;
  return (
    <article className="card article-card" data-slug={article.slug}>
      <img
        className="article-card-image"
        src={article.imageUrl || fallbackImage}
        alt=""
        width={1200}
        height={630}
        loading="lazy"
        decoding="async"
      />
      <div className="article-card-body">
        <span className="badge">{words.categoryLabels[articleCategory(article, candidateName)]}</span>
        <h3 lang={textLang}>{article.title}</h3>
        <p className="meta">
          {article.publishedAt && (
            <time dateTime={article.publishedAt}>{formatPublishedDate(article.publishedAt, locale)}</time>
          )}
          {article.publishedAt ? ' · ' : ''}
          {article.author}
        </p>
        {article.excerpt && <p lang={textLang}>{article.excerpt}</p>}
        <a className="btn btn--secondary" href={`${articleBase}${encodeURIComponent(article.slug)}`}>
          {words.readMore}
          <span className="visually-hidden">: {article.title}</span>
        </a>
      </div>
    </article>
  );
}

/** Blog: the grid of published articles, refreshed every 30 s (spec sections 2, 4, 9). */
export default function ArticleList({
  initialArticles = null,
  renderedAt,
  candidateName,
  fallbackImage = '/images/article-fallback.svg',
  limit,
  words,
  locale,
  articleBase,
  lang,
}: Props) {
  const news = useSWR<{ articles: ArticleSummary[] }>(
    lang === DEFAULT_LANG ? '/api/news' : `/api/news?lang=${lang}`,
    queryFetcher,
    withInitialData(initialArticles && { articles: initialArticles }, renderedAt),
  );
  const articles = news.data?.articles.slice(0, limit);
  if (articles === undefined) {
    return news.error ? (
      <p className="notice">{words.newsUnavailable}</p>
    ) : (
      <div className="grid" aria-busy="true">
        {[0, 1, 2].map((i) => (
          <div key={i} className="card skeleton skeleton--article" />
        ))}
      </div>
    );
  }
  if (articles.length === 0) return <p className="notice">{words.noNews}</p>;
  return (
    <div className="grid article-grid">
      {articles.map((a) => (
        <ArticleCard
          key={a.id}
          article={a}
          candidateName={candidateName}
          fallbackImage={fallbackImage}
          words={words}
          locale={locale}
          articleBase={articleBase}
          lang={lang}
        />
      ))}
    </div>
  );
}
