import { Center, Loader } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { t } from '../i18n';
import { Shell } from './Shell';

// Each area is its own chunk: the first load carries the shell and the page it opens on.
const LoginPage = lazy(() => import('../features/auth/LoginPage'));
const RegisterPage = lazy(() => import('../features/auth/RegisterPage'));
const accountLinks = () => import('../features/auth/AccountLinkPages');
const ForgotPasswordPage = lazy(() =>
  accountLinks().then((m) => ({ default: m.ForgotPasswordPage })),
);
const ResetPasswordPage = lazy(() =>
  accountLinks().then((m) => ({ default: m.ResetPasswordPage })),
);
const AcceptInvitePage = lazy(() => accountLinks().then((m) => ({ default: m.AcceptInvitePage })));
const VerifyEmailPage = lazy(() => accountLinks().then((m) => ({ default: m.VerifyEmailPage })));
const AccountPage = lazy(() => import('../features/auth/AccountPage'));
const InboxPage = lazy(() => import('../features/inbox/InboxPage'));
const TicketsPage = lazy(() => import('../features/tickets/TicketsPage'));
const AppointmentsPage = lazy(() => import('../features/appointments/AppointmentsPage'));
const SearchPage = lazy(() => import('../features/search/SearchPage'));
const ReportsPage = lazy(() => import('../features/reports/ReportsPage'));
const KnowledgeBasePage = lazy(() => import('../features/kb/KnowledgeBasePage'));
const SettingsPage = lazy(() => import('../features/settings/SettingsPage'));
const AdminPage = lazy(() => import('../features/admin/AdminPage'));

export function PageLoader() {
  return (
    <Center h="60vh">
      <Loader role="status" aria-label={t('app.loading')} />
    </Center>
  );
}

export function App() {
  return (
    <Suspense fallback={<PageLoader />}>
      <Routes>
        <Route path="/login" element={<LoginPage />} />
        <Route path="/register" element={<RegisterPage />} />
        <Route path="/forgot-password" element={<ForgotPasswordPage />} />
        <Route path="/reset-password" element={<ResetPasswordPage />} />
        <Route path="/accept-invite" element={<AcceptInvitePage />} />
        <Route path="/verify-email" element={<VerifyEmailPage />} />
        <Route element={<Shell />}>
          <Route path="/inbox/:conversationId?" element={<InboxPage />} />
          <Route path="/tickets/*" element={<TicketsPage />} />
          <Route path="/appointments" element={<AppointmentsPage />} />
          <Route path="/search" element={<SearchPage />} />
          <Route path="/reports" element={<ReportsPage />} />
          <Route path="/kb/*" element={<KnowledgeBasePage />} />
          <Route path="/settings/*" element={<SettingsPage />} />
          <Route path="/account" element={<AccountPage />} />
          <Route path="/admin" element={<AdminPage />} />
          <Route path="*" element={<Navigate to="/inbox" replace />} />
        </Route>
      </Routes>
    </Suspense>
  );
}
