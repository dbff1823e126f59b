import type { HelpCenterLocale } from '../sites/help-center-settings';

/** Every text of the help center's pages, in the widget's six languages. */
export interface HelpCenterMessages {
  language: string;
  helpCenter: string;
  homeDescription: string;
  skip: string;
  languages: string;
  searchLabel: string;
  searchButton: string;
  searchPlaceholder: string;
  categories: string;
  articles: string;
  articleCount: string;
  seeAll: string;
  moreArticles: string;
  empty: string;
  home: string;
  breadcrumb: string;
  updated: string;
  alsoIn: string;
  resultsFor: string;
  searchTitle: string;
  searchHint: string;
  noResults: string;
  stillNeedHelp: string;
  chatWithUs: string;
  chatHint: string;
  notFoundTitle: string;
  notFoundText: string;
  backHome: string;
}

const en: HelpCenterMessages = {
  language: 'English',
  helpCenter: 'Help center',
  homeDescription: 'Answers to common questions about {site}.',
  skip: 'Skip to content',
  languages: 'Languages',
  searchLabel: 'Search the help center',
  searchButton: 'Search',
  searchPlaceholder: 'Search articles…',
  categories: 'Categories',
  articles: 'Articles',
  articleCount: '{count} articles',
  seeAll: 'See all articles in {category}',
  moreArticles: 'More articles',
  empty: 'No articles yet.',
  home: 'Home',
  breadcrumb: 'Breadcrumb',
  updated: 'Updated {date}',
  alsoIn: 'Also in',
  resultsFor: 'Results for “{q}”',
  searchTitle: 'Search',
  searchHint: 'Type a few words to find an article.',
  noResults: 'No articles match your search. Try other words.',
  stillNeedHelp: 'Still need help?',
  chatWithUs: 'Chat with us',
  chatHint:
    'Our team answers in the chat: open it with the chat button in the corner of this page.',
  notFoundTitle: 'Page not found',
  notFoundText: 'This page does not exist or is no longer published.',
  backHome: 'Back to the help center',
};

const de: HelpCenterMessages = {
  language: 'Deutsch',
  helpCenter: 'Hilfe-Center',
  homeDescription: 'Antworten auf häufige Fragen zu {site}.',
  skip: 'Zum Inhalt springen',
  languages: 'Sprachen',
  searchLabel: 'Im Hilfe-Center suchen',
  searchButton: 'Suchen',
  searchPlaceholder: 'Artikel durchsuchen…',
  categories: 'Kategorien',
  articles: 'Artikel',
  articleCount: '{count} Artikel',
  seeAll: 'Alle Artikel in {category}',
  moreArticles: 'Weitere Artikel',
  empty: 'Noch keine Artikel.',
  home: 'Start',
  breadcrumb: 'Brotkrumen',
  updated: 'Aktualisiert am {date}',
  alsoIn: 'Auch auf',
  resultsFor: 'Ergebnisse für „{q}“',
  searchTitle: 'Suche',
  searchHint: 'Geben Sie ein paar Wörter ein, um einen Artikel zu finden.',
  noResults: 'Kein Artikel passt zu Ihrer Suche. Versuchen Sie andere Wörter.',
  stillNeedHelp: 'Brauchen Sie noch Hilfe?',
  chatWithUs: 'Chatten Sie mit uns',
  chatHint:
    'Unser Team antwortet im Chat: Öffnen Sie ihn mit der Chat-Schaltfläche in der Ecke dieser Seite.',
  notFoundTitle: 'Seite nicht gefunden',
  notFoundText: 'Diese Seite gibt es nicht oder sie ist nicht mehr veröffentlicht.',
  backHome: 'Zurück zum Hilfe-Center',
};

const fr: HelpCenterMessages = {
  language: 'Français',
  helpCenter: "Centre d'aide",
  homeDescription: 'Réponses aux questions fréquentes sur {site}.',
  skip: 'Aller au contenu',
  languages: 'Langues',
  searchLabel: "Rechercher dans le centre d'aide",
  searchButton: 'Rechercher',
  searchPlaceholder: 'Rechercher des articles…',
  categories: 'Catégories',
  articles: 'Articles',
  articleCount: '{count} articles',
  seeAll: 'Tous les articles de {category}',
  moreArticles: "Plus d'articles",
  empty: "Pas encore d'articles.",
  home: 'Accueil',
  breadcrumb: "Fil d'Ariane",
  updated: 'Mis à jour le {date}',
  alsoIn: 'Aussi en',
  resultsFor: 'Résultats pour « {q} »',
  searchTitle: 'Recherche',
  searchHint: 'Saisissez quelques mots pour trouver un article.',
  noResults: "Aucun article ne correspond à votre recherche. Essayez d'autres mots.",
  stillNeedHelp: "Besoin d'aide supplémentaire ?",
  chatWithUs: 'Discutez avec nous',
  chatHint:
    'Notre équipe répond dans le chat : ouvrez-le avec le bouton de chat dans le coin de cette page.',
  notFoundTitle: 'Page introuvable',
  notFoundText: "Cette page n'existe pas ou n'est plus publiée.",
  backHome: "Retour au centre d'aide",
};

const es: HelpCenterMessages = {
  language: 'Español',
  helpCenter: 'Centro de ayuda',
  homeDescription: 'Respuestas a las preguntas frecuentes sobre {site}.',
  skip: 'Saltar al contenido',
  languages: 'Idiomas',
  searchLabel: 'Buscar en el centro de ayuda',
  searchButton: 'Buscar',
  searchPlaceholder: 'Buscar artículos…',
  categories: 'Categorías',
  articles: 'Artículos',
  articleCount: '{count} artículos',
  seeAll: 'Todos los artículos de {category}',
  moreArticles: 'Más artículos',
  empty: 'Todavía no hay artículos.',
  home: 'Inicio',
  breadcrumb: 'Ruta de navegación',
  updated: 'Actualizado el {date}',
  alsoIn: 'También en',
  resultsFor: 'Resultados para «{q}»',
  searchTitle: 'Búsqueda',
  searchHint: 'Escriba unas palabras para encontrar un artículo.',
  noResults: 'Ningún artículo coincide con su búsqueda. Pruebe con otras palabras.',
  stillNeedHelp: '¿Todavía necesita ayuda?',
  chatWithUs: 'Chatee con nosotros',
  chatHint:
    'Nuestro equipo responde en el chat: ábralo con el botón de chat en la esquina de esta página.',
  notFoundTitle: 'Página no encontrada',
  notFoundText: 'Esta página no existe o ya no está publicada.',
  backHome: 'Volver al centro de ayuda',
};

const pt: HelpCenterMessages = {
  language: 'Português',
  helpCenter: 'Central de ajuda',
  homeDescription: 'Respostas para perguntas frequentes sobre {site}.',
  skip: 'Ir para o conteúdo',
  languages: 'Idiomas',
  searchLabel: 'Pesquisar na central de ajuda',
  searchButton: 'Pesquisar',
  searchPlaceholder: 'Pesquisar artigos…',
  categories: 'Categorias',
  articles: 'Artigos',
  articleCount: '{count} artigos',
  seeAll: 'Todos os artigos de {category}',
  moreArticles: 'Mais artigos',
  empty: 'Ainda não há artigos.',
  home: 'Início',
  breadcrumb: 'Navegação estrutural',
  updated: 'Atualizado em {date}',
  alsoIn: 'Também em',
  resultsFor: 'Resultados para “{q}”',
  searchTitle: 'Pesquisa',
  searchHint: 'Digite algumas palavras para encontrar um artigo.',
  noResults: 'Nenhum artigo corresponde à sua pesquisa. Tente outras palavras.',
  stillNeedHelp: 'Ainda precisa de ajuda?',
  chatWithUs: 'Converse conosco',
  chatHint: 'Nossa equipe responde no chat: abra-o com o botão de chat no canto desta página.',
  notFoundTitle: 'Página não encontrada',
  notFoundText: 'Esta página não existe ou não está mais publicada.',
  backHome: 'Voltar para a central de ajuda',
};

const ar: HelpCenterMessages = {
  language: 'العربية',
  helpCenter: 'مركز المساعدة',
  homeDescription: 'إجابات عن الأسئلة الشائعة حول {site}.',
  skip: 'انتقل إلى المحتوى',
  languages: 'اللغات',
  searchLabel: 'ابحث في مركز المساعدة',
  searchButton: 'بحث',
  searchPlaceholder: 'ابحث في المقالات…',
  categories: 'الفئات',
  articles: 'المقالات',
  articleCount: '{count} مقالات',
  seeAll: 'كل المقالات في {category}',
  moreArticles: 'مقالات أخرى',
  empty: 'لا توجد مقالات بعد.',
  home: 'الرئيسية',
  breadcrumb: 'مسار التنقل',
  updated: 'آخر تحديث {date}',
  alsoIn: 'متوفر أيضًا بـ',
  resultsFor: 'نتائج البحث عن «{q}»',
  searchTitle: 'بحث',
  searchHint: 'اكتب بضع كلمات للعثور على مقالة.',
  noResults: 'لا توجد مقالات تطابق بحثك. جرّب كلمات أخرى.',
  stillNeedHelp: 'هل ما زلت بحاجة إلى مساعدة؟',
  chatWithUs: 'تحدث معنا',
  chatHint: 'يرد فريقنا في الدردشة: افتحها بزر الدردشة في زاوية هذه الصفحة.',
  notFoundTitle: 'الصفحة غير موجودة',
  notFoundText: 'هذه الصفحة غير موجودة أو لم تعد منشورة.',
  backHome: 'العودة إلى مركز المساعدة',
};

export const HELP_CENTER_MESSAGES: Record<HelpCenterLocale, HelpCenterMessages> = {
  en,
  de,
  fr,
  es,
  pt,
  ar,
};

export const RTL_LOCALES: readonly string[] = ['ar'];

/** A message with its `{name}` placeholders filled (the caller escapes the result). */
export function fill(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in values ? String(values[name]) : whole,
  );
}
