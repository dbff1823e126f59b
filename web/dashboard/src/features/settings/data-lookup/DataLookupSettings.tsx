import {
  Alert,
  Button,
  Card,
  Group,
  List,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  TagsInput,
  Text,
  TextInput,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { IconCheck, IconX } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, ApiError, unwrap } from '../../../api/client';
import type { Schemas } from '../../../../../shared/api/client';
import { t } from '../../../i18n';
import { RecordSearchEditor, RulesEditor } from './DataLookupRules';
import { SiteSelect } from '../kit/SiteSelect';
import {
  errorMessage,
  fieldErrorsOf,
  fieldSentence,
  NoticeBar,
  QueryState,
  SectionHeader,
  useNotice,
} from '../kit/ui';
import { keys } from '../../../api/keys';
import { useDataLookup } from './queries';

type Settings = Schemas['PutDataLookupDto'];

const EMPTY: Settings = {
  enabled: false,
  connection: { driver: 'postgres', url: '' },
  account: { table: '', key_column: '', lookup_columns: [], email_column: null, name_column: null },
  require_otp: true,
  filter_record: null,
  rules: [],
};

export default function DataLookupSettings() {
  const [siteId, setSiteId] = useState<number | undefined>(undefined);
  const view = useDataLookup(siteId);
  return (
    <>
      <SectionHeader
        title={t('settings.lookup.title')}
        description={t('settings.lookup.description')}
      />
      <SiteSelect value={siteId} onChange={setSiteId} />
      <QueryState loading={view.isPending && siteId !== undefined} error={view.error} />
      {siteId !== undefined && view.data !== undefined && (
        <DataLookupForm
          key={siteId}
          siteId={siteId}
          saved={view.data ? fromView(view.data.data) : null}
        />
      )}
    </>
  );
}

function fromView(view: Schemas['DataLookupViewDto']): Settings {
  return {
    enabled: view.enabled,
    connection: view.connection,
    account: view.account,
    require_otp: view.require_otp,
    filter_record: view.filter_record ?? null,
    rules: view.rules,
  };
}

/** Every table and column the saved settings name: what "test connection" checks. */
function checkedIdentifiers(settings: Settings): { table: string; columns: string[] }[] {
  const tables = new Map<string, Set<string>>();
  const add = (table: string, columns: (string | null | undefined)[]) => {
    if (!table) return;
    const set = tables.get(table) ?? new Set<string>();
    for (const column of columns) if (column) set.add(column);
    tables.set(table, set);
  };
  const a = settings.account;
  add(a.table, [a.key_column, ...a.lookup_columns, a.email_column, a.name_column]);
  for (const rule of settings.rules ?? []) {
    add(rule.table, [rule.account_column, ...rule.columns, rule.order_by, rule.row_key]);
  }
  const record = settings.filter_record;
  if (record)
    add(record.table, [record.account_column, ...record.columns, ...Object.values(record.filters)]);
  return [...tables].map(([table, columns]) => ({ table, columns: [...columns] }));
}

function DataLookupForm({ siteId, saved }: { siteId: number; saved: Settings | null }) {
  const queryClient = useQueryClient();
  const notice = useNotice();
  const [form, setForm] = useState<Settings>(saved ?? EMPTY);
  const save = useMutation({
    mutationFn: () =>
      unwrap(
        api.PUT('/api/agent/sites/{site}/data-lookup', {
          params: { path: { site: siteId } },
          body: form,
        }),
      ),
    onSuccess: (result) => {
      queryClient.setQueryData(keys.dataLookup.site(siteId), result);
      notice.success(t('settings.lookup.saved'));
    },
    onError: (error) => notice.problem(connectionUrlError(error) ?? errorMessage(error)),
  });
  const test = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/agent/sites/{site}/data-lookup/test', {
          params: { path: { site: siteId } },
        }),
      ),
  });
  const errors = fieldErrorsOf(save.error);
  const account = form.account;
  const setAccount = (patch: Partial<Settings['account']>) =>
    setForm({ ...form, account: { ...account, ...patch } });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    test.reset();
    save.mutate();
  };
  return (
    <Stack gap="xl" component="form" onSubmit={submit}>
      <NoticeBar notice={notice.notice} onClose={notice.clear} />
      <Card withBorder padding="lg" component="fieldset" aria-labelledby="dl-connection" m={0}>
        <Title order={3} size="h4" id="dl-connection" mb="sm">
          {t('settings.lookup.connection')}
        </Title>
        <Stack>
          <Group>
            <Switch
              label={t('settings.lookup.enabled')}
              checked={form.enabled}
              onChange={(e) => setForm({ ...form, enabled: e.currentTarget.checked })}
            />
            <Switch
              label={t('settings.lookup.requireOtp')}
              checked={form.require_otp ?? true}
              onChange={(e) => setForm({ ...form, require_otp: e.currentTarget.checked })}
            />
          </Group>
          {form.require_otp === false && (
            <Alert color="orange" title={t('settings.lookup.noOtpTitle')} role="alert">
              {t('settings.lookup.noOtpWarning')}
            </Alert>
          )}
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <Select
              label={t('settings.lookup.driver')}
              data={[
                { value: 'postgres', label: 'PostgreSQL' },
                { value: 'mysql', label: 'MySQL / MariaDB' },
              ]}
              value={form.connection.driver}
              onChange={(driver) =>
                driver &&
                setForm({
                  ...form,
                  connection: { ...form.connection, driver: driver },
                })
              }
              allowDeselect={false}
              error={errors['connection.driver']}
            />
            <TextInput
              label={t('settings.lookup.url')}
              description={t('settings.lookup.urlHint')}
              placeholder="postgres://reader:secret@db.example:5432/shop"
              value={form.connection.url ?? ''}
              onChange={(e) =>
                setForm({ ...form, connection: { ...form.connection, url: e.currentTarget.value } })
              }
              error={connectionUrlError(save.error) ?? errors['connection.url']}
              style={{ gridColumn: 'span 2' }}
            />
          </SimpleGrid>
        </Stack>
      </Card>
      <Card withBorder padding="lg" component="fieldset" aria-labelledby="dl-account" m={0}>
        <Title order={3} size="h4" id="dl-account" mb={4}>
          {t('settings.lookup.account')}
        </Title>
        <Text size="sm" c="dimmed" mb="md">
          {t('settings.lookup.accountHint')}
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <TextInput
            label={t('settings.lookup.accountTable')}
            value={account.table}
            onChange={(e) => setAccount({ table: e.currentTarget.value })}
            error={errors['account.table']}
            required
          />
          <TextInput
            label={t('settings.lookup.keyColumn')}
            value={account.key_column}
            onChange={(e) => setAccount({ key_column: e.currentTarget.value })}
            error={errors['account.key_column']}
            required
          />
          <TagsInput
            label={t('settings.lookup.lookupColumns')}
            value={account.lookup_columns}
            onChange={(lookup_columns) => setAccount({ lookup_columns })}
            error={
              errors['account.lookup_columns'] ??
              Object.entries(errors).find(([k]) => k.startsWith('account.lookup_columns.'))?.[1]
            }
          />
          <TextInput
            label={t('settings.lookup.emailColumn')}
            value={account.email_column ?? ''}
            onChange={(e) => setAccount({ email_column: e.currentTarget.value || null })}
            error={errors['account.email_column']}
          />
          <TextInput
            label={t('settings.lookup.nameColumn')}
            value={account.name_column ?? ''}
            onChange={(e) => setAccount({ name_column: e.currentTarget.value || null })}
            error={errors['account.name_column']}
          />
        </SimpleGrid>
      </Card>
      <RecordSearchEditor
        value={form.filter_record ?? null}
        onChange={(filter_record) => setForm({ ...form, filter_record })}
        errors={errors}
      />
      <RulesEditor
        rules={form.rules ?? []}
        onChange={(rules) => setForm({ ...form, rules })}
        errors={errors}
      />
      <Group justify="flex-end">
        <Button
          variant="default"
          onClick={() => test.mutate()}
          loading={test.isPending}
          disabled={!saved}
        >
          {t('settings.lookup.test')}
        </Button>
        <Button type="submit" loading={save.isPending}>
          {t('settings.lookup.save')}
        </Button>
      </Group>
      <TestResult test={test} saved={saved} />
    </Stack>
  );
}

function TestResult({
  test,
  saved,
}: {
  test: { data?: Schemas['DataLookupTestResponseDto']; error: Error | null };
  saved: Settings | null;
}) {
  if (!saved || (!test.data && !test.error)) return <div role="status" aria-live="polite" />;
  // The server's texts name the identifiers (which table failed); the person reads the catalog's.
  const problems = test.error instanceof ApiError ? test.error.fieldErrors() : {};
  const reasons = test.error instanceof ApiError ? test.error.fieldReasons() : {};
  const ok = Boolean(test.data?.data.ok);
  return (
    <div role="status" aria-live="polite">
      <Alert
        color={ok ? 'teal' : 'red'}
        title={ok ? t('settings.lookup.testOk') : t('settings.lookup.testFailed')}
      >
        <Stack gap="xs">
          {test.data && (
            <Text size="sm">
              {t('settings.lookup.testServer', {
                version: test.data.data.server_version,
                ms: test.data.data.latency_ms,
              })}
            </Text>
          )}
          {test.error && !Object.keys(problems).length && (
            <Text size="sm">{test.error.message}</Text>
          )}
          {Object.keys(problems).map((field) => (
            <Text key={field} size="sm">
              {connectionUrlError(test.error) && field === 'connection.url'
                ? connectionUrlError(test.error)
                : t('settings.lookup.problem', {
                    field,
                    sentence: fieldSentence(field, reasons[field]),
                  })}
            </Text>
          ))}
          <Text size="sm" fw={500}>
            {t('settings.lookup.checked')}
          </Text>
          <List spacing={4} size="sm" aria-label={t('settings.lookup.checked')}>
            {checkedIdentifiers(saved).map(({ table, columns }) => {
              const failed = Object.values(problems).some((m) => m.includes(table));
              return (
                <List.Item
                  key={table}
                  icon={
                    <ThemeIcon color={failed ? 'red' : ok ? 'teal' : 'gray'} size={18} radius="xl">
                      {failed || !ok ? <IconX size={12} /> : <IconCheck size={12} />}
                    </ThemeIcon>
                  }
                >
                  {t('settings.lookup.checkedTable', { table, columns: columns.join(', ') })}
                </List.Item>
              );
            })}
          </List>
        </Stack>
      </Alert>
    </div>
  );
}

/**
 * The catalog's sentence for a refused connection URL, by the category the server names (its
 * `failureCategory`; the driver's own words stay in its log): a host the service's address policy
 * refuses names DATA_LOOKUP_ALLOWED_HOSTS, since only the operator can allow it.
 */
function connectionUrlError(error: unknown): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  // The server's text, which names the category (the catalog's sentence for its slug does not).
  const text = error.body?.errors?.['connection.url']?.[0];
  if (text === undefined) return undefined;
  if (text.includes('refused by policy')) return t('settings.lookup.error.refused');
  if (text.includes('authentication failed')) return t('settings.lookup.error.authentication');
  if (text.includes('(timeout)')) return t('settings.lookup.error.timeout');
  if (text.includes('(unreachable)')) return t('settings.lookup.error.unreachable');
  if (text.includes(' driver needs ')) return t('settings.lookup.error.scheme');
  return undefined;
}
