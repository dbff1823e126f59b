import request from 'supertest';
import { registerOrganization } from '../factories/identity';
import type { AppProcess } from '../utils/app-process';
import { runCli } from '../utils/cli';
import { startTestApp, type TestApp } from '../utils/test-app';

describe('widget config and the subscription grace period', () => {
  let suite: TestApp;
  let databaseUrl: string;
  let app: AppProcess;

  beforeAll(async () => {
    ({ app, databaseUrl } = suite = await startTestApp({ SUBSCRIPTION_GRACE_DAYS: '7' }));
  });

  afterAll(() => suite?.stop());

  const setSubscription = (organizationId: number, value: string) => {
    const result = runCli(['org:subscription', String(organizationId), value], {
      DATABASE_URL: databaseUrl,
    });
    expect(result.stderr).toBe('');
  };

  it("returns the site's widget configuration for its widget_key", async () => {
    const org = await registerOrganization(app.url);
    await request(app.url)
      .patch(`/api/agent/sites/${org.site.id}`)
      .set('Authorization', `Bearer ${org.token}`)
      .send({
        widget_settings: { visitor_account_login: { enabled: true, menu_label: 'My account' } },
      })
      .expect(200);
    const res = await request(app.url)
      .get('/api/widget/config')
      .query({ widget_key: org.site.widget_key })
      .expect(200);
    expect(res.body).toMatchObject({
      status: true,
      widget_config: {
        pre_chat_form: {
          enabled: false,
          delay_minutes: 0,
          fields: [
            { key: 'name', builtin: true },
            { key: 'email', builtin: true },
          ],
        },
        visitor_account_login: { enabled: true, menu_label: 'My account', logout_label: 'Log out' },
        filter_record: { enabled: false, filters: [] },
      },
    });
  });

  it('answers 404 for an unknown key or an inactive site, 422 without a key', async () => {
    const org = await registerOrganization(app.url);
    await request(app.url).get('/api/widget/config').query({ widget_key: 'wk_nope' }).expect(404);
    const missing = await request(app.url).get('/api/widget/config').expect(422);
    expect(Object.keys(missing.body.errors)).toEqual(['widget_key']);
    await request(app.url)
      .patch(`/api/agent/sites/${org.site.id}`)
      .set('Authorization', `Bearer ${org.token}`)
      .send({ is_active: false })
      .expect(200);
    await request(app.url)
      .get('/api/widget/config')
      .query({ widget_key: org.site.widget_key })
      .expect(404);
  });

  it('keeps widget routes working during the grace period and answers 402 after it', async () => {
    const org = await registerOrganization(app.url);
    const day = 24 * 60 * 60 * 1000;
    const widget = () =>
      request(app.url).get('/api/widget/config').query({ widget_key: org.site.widget_key });

    setSubscription(org.organization.id, new Date(Date.now() - 6 * day).toISOString());
    await widget().expect(200);

    setSubscription(org.organization.id, new Date(Date.now() - 8 * day).toISOString());
    const expired = await widget().expect(402);
    expect(expired.body).toMatchObject({
      status: false,
      code: '402',
      error_code: 'subscription_expired',
    });
    // The agent API keeps working, so the owner can still get in and renew.
    await request(app.url)
      .get('/api/agent/me')
      .set('Authorization', `Bearer ${org.token}`)
      .expect(200);

    setSubscription(org.organization.id, 'none');
    await widget().expect(200);
  });
});
