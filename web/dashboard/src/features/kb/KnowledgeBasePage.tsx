import { Route, Routes } from 'react-router';
import { ArticleEditor } from './ArticleEditor';
import { ArticleList } from './ArticleList';
import { CategoriesPage } from './CategoriesPage';

/** The knowledge base (DESIGN section 10): every member reads it, owners and admins write it. */
export default function KnowledgeBasePage() {
  return (
    <Routes>
      <Route index element={<ArticleList />} />
      <Route path="articles/new" element={<ArticleEditor />} />
      <Route path="articles/:articleId" element={<ArticleEditor />} />
      <Route path="categories" element={<CategoriesPage />} />
    </Routes>
  );
}
