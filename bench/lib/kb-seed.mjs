// The help center's data for bench:kb: published articles across three locales, in categories,
// translations linked, bodies rendered by the service's own Markdown renderer.
import { createRequire } from 'node:module';
import path from 'node:path';
import pg from 'pg';
import { ROOT } from './stack.mjs';

const require = createRequire(import.meta.url);
const dist = (file) => require(path.join(ROOT, 'dist', 'src', 'modules', file));

export const LOCALES = ['en', 'de', 'fr'];

const TOPICS = {
  en: [
    'password',
    'invoice',
    'shipping',
    'refund',
    'account',
    'delivery',
    'subscription',
    'login',
    'profile',
    'payment',
    'order',
    'warranty',
  ],
  de: [
    'Passwort',
    'Rechnung',
    'Versand',
    'Erstattung',
    'Konto',
    'Lieferung',
    'Abonnement',
    'Anmeldung',
    'Profil',
    'Zahlung',
    'Bestellung',
    'Garantie',
  ],
  fr: [
    'mot de passe',
    'facture',
    'expédition',
    'remboursement',
    'compte',
    'livraison',
    'abonnement',
    'connexion',
    'profil',
    'paiement',
    'commande',
    'garantie',
  ],
};
const VERBS = {
  en: ['Change your', 'Reset your', 'Find your', 'Update your', 'Cancel your', 'Check your'],
  de: [
    'Ändern Sie Ihr',
    'Setzen Sie Ihr',
    'Finden Sie Ihr',
    'Aktualisieren Sie Ihr',
    'Kündigen Sie Ihr',
    'Prüfen Sie Ihr',
  ],
  fr: [
    'Modifier votre',
    'Réinitialiser votre',
    'Trouver votre',
    'Mettre à jour votre',
    'Annuler votre',
    'Vérifier votre',
  ],
};

/** A realistic article body: headings, a list, a table, a link, about 2 KB of Markdown. */
function body(locale, topic, i) {
  const para = {
    en: `This guide explains everything about your ${topic}. Most questions are answered in a few steps, and our team is here when they are not.`,
    de: `Diese Anleitung erklärt alles rund um Ihr ${topic}. Die meisten Fragen sind in wenigen Schritten beantwortet, und unser Team hilft, wenn nicht.`,
    fr: `Ce guide explique tout sur votre ${topic}. La plupart des questions trouvent leur réponse en quelques étapes, et notre équipe est là sinon.`,
  }[locale];
  return `${para}\n\n## 1\n\n${para}\n\n1. **${topic}** ${i}\n2. *${topic}*\n3. [${topic}](https://example.com/${i})\n\n| a | b |\n| --- | --- |\n| ${topic} | ${i} |\n\n${para}\n\n## 2\n\n${para} ${para}\n`;
}

/** Seeds `count` published articles for `org` (the `org:create --json` result): their slugs by locale. */
export async function seedArticles(url, org, ARTICLES) {
  const { renderMarkdown, markdownToText } = dist('knowledge-base/markdown.js');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`UPDATE sites SET help_center = $2, name = 'Bench Shop' WHERE id = $1`, [
      org.site.id,
      JSON.stringify({
        enabled: true,
        title: 'Bench Help',
        locales: LOCALES,
        default_locale: 'en',
      }),
    ]);
    const categories = {};
    for (const locale of LOCALES) {
      categories[locale] = [];
      for (let c = 0; c < 10; c++) {
        const { rows } = await client.query(
          `INSERT INTO kb_categories (organization_id, site_id, locale, name, slug, position)
           VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
          [
            org.organization.id,
            org.site.id,
            locale,
            `${TOPICS[locale][c]} ${c}`,
            `category-${c}`,
            c,
          ],
        );
        categories[locale].push(rows[0].id);
      }
    }
    const perLocale = Math.ceil(ARTICLES / LOCALES.length);
    const slugs = Object.fromEntries(LOCALES.map((l) => [l, []]));
    const enIds = [];
    for (const locale of LOCALES) {
      const rows = [];
      for (
        let i = 0;
        i < perLocale && slugs.en.length + slugs.de.length + slugs.fr.length < ARTICLES;
        i++
      ) {
        const topic = TOPICS[locale][i % TOPICS[locale].length];
        const verb = VERBS[locale][Math.floor(i / TOPICS[locale].length) % VERBS[locale].length];
        const markdown = body(locale, topic, i);
        const slug = `article-${i}`;
        slugs[locale].push(slug);
        rows.push([
          `${verb} ${topic} (${i})`,
          slug,
          markdown,
          renderMarkdown(markdown),
          markdownToText(markdown),
          `${verb} ${topic}: the short answer.`,
          categories[locale][i % 10],
          locale === 'en' ? null : (enIds[i] ?? null),
        ]);
      }
      for (let start = 0; start < rows.length; start += 500) {
        const chunk = rows.slice(start, start + 500);
        const { rows: inserted } = await client.query(
          `INSERT INTO kb_articles (organization_id, site_id, locale, title, slug, body, body_html,
             body_text, excerpt, category_id, translation_of, status, published_at, views)
           SELECT $1, $2, $3, t.title, t.slug, t.body, t.body_html, t.body_text, t.excerpt,
             t.category_id, t.translation_of, 'published', now(), (random() * 1000)::int
           FROM jsonb_to_recordset($4::jsonb) AS t(title text, slug text, body text,
             body_html text, body_text text, excerpt text, category_id bigint, translation_of bigint)
           RETURNING id`,
          [
            org.organization.id,
            org.site.id,
            locale,
            JSON.stringify(
              chunk.map(([title, slug, md, html, text, excerpt, category, of]) => ({
                title,
                slug,
                body: md,
                body_html: html,
                body_text: text,
                excerpt,
                category_id: category,
                translation_of: of,
              })),
            ),
          ],
        );
        if (locale === 'en') enIds.push(...inserted.map((row) => row.id));
      }
    }
    await client.query('VACUUM ANALYZE kb_articles');
    await client.query('VACUUM ANALYZE kb_categories');
    return slugs;
  } finally {
    await client.end();
  }
}
