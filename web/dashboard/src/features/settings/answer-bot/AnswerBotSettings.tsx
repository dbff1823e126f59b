import { Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useMe } from '../../../api/queries';
import { t } from '../../../i18n';
import { AnswerLogCard } from './AnswerLogCard';
import { BotRepliesCard } from './BotRepliesCard';
import { BotSettingsCard } from './BotSettingsCard';
import { GenerativeCard } from './GenerativeCard';
import { ImportCard } from './ImportCard';
import { ReportCard } from './ReportCard';
import { SiteSelect } from '../kit/SiteSelect';
import { isAdmin, NoticeBar, SectionHeader, useNotice } from '../kit/ui';

/**
 * Settings → Answer bot (issue 30): per site, the bot's settings, its generated answers, the
 * content import, the bot replies, the bot's report and the log of generated answers (one
 * component per section in `answer-bot/`). Every member reads; owners and admins change (the
 * API refuses agents too).
 */
export default function AnswerBotSettings() {
  const me = useMe();
  const admin = isAdmin(me.data?.user.role);
  const [siteId, setSiteId] = useState<number | undefined>(undefined);
  const notice = useNotice();
  return (
    <>
      <SectionHeader title={t('bot.title')} description={t('bot.description')} />
      <SiteSelect value={siteId} onChange={setSiteId} />
      <NoticeBar notice={notice.notice} onClose={notice.clear} />
      {me.data && !admin && (
        <Text c="dimmed" mb="md">
          {t('bot.readOnly')}
        </Text>
      )}
      {siteId !== undefined && me.data && (
        <Stack gap="xl" key={siteId}>
          <BotSettingsCard siteId={siteId} readOnly={!admin} notice={notice} />
          <GenerativeCard siteId={siteId} readOnly={!admin} notice={notice} />
          <ImportCard siteId={siteId} readOnly={!admin} notice={notice} />
          <BotRepliesCard siteId={siteId} readOnly={!admin} notice={notice} />
          <ReportCard siteId={siteId} />
          <AnswerLogCard siteId={siteId} />
        </Stack>
      )}
    </>
  );
}
