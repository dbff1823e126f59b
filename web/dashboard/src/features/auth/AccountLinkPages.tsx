import { t } from '../../i18n';
import { AuthCard } from './AuthCard';
import {
  AcceptInviteForm,
  ForgotPasswordForm,
  ResetPasswordForm,
  VerifyEmailForm,
} from './TokenForms';

/** The pages a mailed link opens, and the request of a reset link (issue 28). */
export function ForgotPasswordPage() {
  return (
    <AuthCard
      title={t('auth.forgot.title')}
      subtitle={t('auth.forgot.subtitle')}
      footer={t('auth.forgot.back')}
      footerLink={{ to: '/login', label: t('auth.register.login') }}
    >
      <ForgotPasswordForm />
    </AuthCard>
  );
}

export function ResetPasswordPage() {
  return (
    <AuthCard
      title={t('auth.reset.title')}
      subtitle={t('auth.reset.subtitle')}
      footer={t('auth.forgot.back')}
      footerLink={{ to: '/login', label: t('auth.register.login') }}
    >
      <ResetPasswordForm />
    </AuthCard>
  );
}

export function AcceptInvitePage() {
  return (
    <AuthCard
      title={t('auth.invite.title')}
      subtitle={t('auth.invite.subtitle')}
      footer={t('auth.register.haveAccount')}
      footerLink={{ to: '/login', label: t('auth.register.login') }}
    >
      <AcceptInviteForm />
    </AuthCard>
  );
}

export function VerifyEmailPage() {
  return (
    <AuthCard
      title={t('auth.verify.title')}
      subtitle={t('auth.verify.subtitle')}
      footer={t('auth.register.haveAccount')}
      footerLink={{ to: '/login', label: t('auth.register.login') }}
    >
      <VerifyEmailForm />
    </AuthCard>
  );
}
