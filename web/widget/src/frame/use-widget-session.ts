import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { api, unwrap, type VisitorProfile, type WidgetConfig } from '../api/client';
import type { Availability } from '../features/chat/AwayNotice';
import { t } from '../i18n';
import { textColorOn } from '../../../shared/contrast';
import { startSession, type InitAnswer } from './boot';
import { frameParams, toHost } from './host';

/** Who the host page says the visitor is (`SupportChat('identify', …)`). */
export type Identity = { name?: string; email?: string; phone?: string };

/**
 * The visitor's session and what it says about the site: init (again after `identify` or a
 * refused token), retried slower each time while the service cannot be reached; the profile the
 * visitor saves here; whether anybody is online and the business hours, read again when they
 * begin.
 */
export function useWidgetSession(locale: string) {
  const [init, setInit] = useState<InitAnswer | undefined>();
  const [failed, setFailed] = useState(false);
  const [profile, setProfile] = useState<VisitorProfile | undefined>();
  const [agentsOnline, setAgentsOnline] = useState(true);
  const [availability, setAvailability] = useState<Availability | undefined>();
  const [consentedAt, setConsentedAt] = useState<string | null>(null);
  const identityRef = useRef<Identity>({});
  // Bumped by every profile the visitor saves here (pre-chat form, email prompt, account login):
  // an init answer read before such a save must not put the older profile back.
  const profileSavesRef = useRef(0);
  const saveProfile = useCallback((saved: VisitorProfile) => {
    profileSavesRef.current += 1;
    setProfile(saved);
  }, []);

  const [generation, setGeneration] = useState(0);
  const reconnect = useCallback(() => setGeneration((g) => g + 1), []);
  const identify = useCallback(
    (who: Identity) => {
      identityRef.current = who;
      reconnect();
    },
    [reconnect],
  );

  useEffect(() => {
    let stopped = false;
    let attempt = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const run = async () => {
      setFailed(false);
      const savesBefore = profileSavesRef.current;
      try {
        const answer = await startSession({ locale, ...identityRef.current });
        if (stopped) return;
        setInit(answer);
        setConsentedAt(answer.consented_at);
        if (profileSavesRef.current === savesBefore) setProfile(answer.visitor_profile);
        setAgentsOnline(answer.widget_config.agents_online);
        setAvailability(answer.widget_config.availability);
        announce(answer.visitor_id, answer.widget_config.appearance);
      } catch {
        if (stopped) return;
        setFailed(true);
        timer = setTimeout(() => void run(), Math.min(30_000, 1000 * 2 ** attempt++));
      }
    };
    void run();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [locale, generation]);

  // Outside the business hours: read the availability again when they begin.
  const opensAt = availability?.next_open_at;
  useEffect(() => {
    if (!opensAt) return;
    const wait = Math.min(Math.max(0, Date.parse(opensAt) - Date.now()) + 1000, 2 ** 31 - 1);
    const timer = setTimeout(() => {
      void unwrap(
        api.GET('/api/widget/config', { params: { query: { widget_key: frameParams.widgetKey } } }),
      )
        .then((answer) => {
          setAvailability(answer.widget_config.availability);
          setAgentsOnline(answer.widget_config.agents_online);
        })
        .catch(() => undefined);
    }, wait);
    return () => clearTimeout(timer);
  }, [opensAt]);

  return {
    init,
    failed,
    profile,
    saveProfile,
    agentsOnline,
    setAgentsOnline,
    availability,
    consentedAt,
    setConsentedAt,
    reconnect,
    identify,
  };
}

/** Tells the loader the session is ready and how the launcher should look. */
function announce(visitorId: number, look: WidgetConfig['appearance']): void {
  const color = look.color ?? '#2563eb';
  // Text on the brand colour: light or dark, whichever reads better (WCAG contrast).
  const onColor = textColorOn(color);
  document.documentElement.style.setProperty('--c', color);
  document.documentElement.style.setProperty('--on-c', onColor);
  toHost({ type: 'ready', visitor_id: visitorId });
  toHost({
    type: 'config',
    color,
    text_color: onColor,
    position: look.position === 'left' ? 'left' : 'right',
    launcher_label: look.launcher_label ?? '',
    labels: { open: t('launcher.open'), close: t('launcher.close'), unread: t('launcher.unread') },
  });
}
