import { Center, Loader } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { Route, Routes } from 'react-router';
import { t } from '../i18n';

// Each area is its own chunk: the first load carries the shell and the page it opens on.
const LoginPage = lazy(() => import('../features/auth/LoginPage'));
const InboxPage = lazy(() => import('../features/inbox/InboxPage'));
const TicketsPage = lazy(() => import('../features/tickets/TicketsPage'));
const SearchPage = lazy(() => import('../features/search/SearchPage'));
const ReportsPage = lazy(() => import('../features/reports/ReportsPage'));
const SettingsPage = lazy(() => import('../features/settings/SettingsPage'));

export function App() {
  return (
    <Suspense
      fallback={
        <Center h="100vh">
          <Loader aria-label={t('app.loading')} />
        </Center>
      }
    >
      <main>
        <Routes>
          <Route path="/login" element={<LoginPage />} />
          <Route path="/tickets/*" element={<TicketsPage />} />
          <Route path="/search" element={<SearchPage />} />
          <Route path="/reports" element={<ReportsPage />} />
          <Route path="/settings/*" element={<SettingsPage />} />
          <Route path="/*" element={<InboxPage />} />
        </Routes>
      </main>
    </Suspense>
  );
}
