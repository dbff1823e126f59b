import { Select } from '@mantine/core';
import { useEffect } from 'react';
import { t } from '../../../i18n';
import { useSiteNames } from '../../../api/queries';

/** Picks the site a per-site section works on (the first one until the user picks another). */
export function SiteSelect({
  value,
  onChange,
}: {
  value: number | undefined;
  onChange: (siteId: number) => void;
}) {
  const sites = useSiteNames();
  const first = sites.data?.[0]?.id;
  useEffect(() => {
    if (value === undefined && first !== undefined) onChange(first);
  }, [value, first, onChange]);
  if (!sites.data || sites.data.length < 2) return null;
  return (
    <Select
      label={t('settings.site')}
      data={sites.data.map((site) => ({ value: String(site.id), label: site.name }))}
      value={value === undefined ? null : String(value)}
      onChange={(id) => id && onChange(Number(id))}
      allowDeselect={false}
      maw={320}
      mb="lg"
    />
  );
}
