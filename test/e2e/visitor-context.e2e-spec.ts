import request from 'supertest';
import { registerOrganization, type Registered } from '../factories/identity';
import type { AppProcess } from '../utils/app-process';
import { connect } from '../utils/sockets';
import { startTestApp, type TestApp } from '../utils/test-app';

const FIREFOX_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:128.0) Gecko/20100101 Firefox/128.0';

interface Panel {
  current_page: { url: string | null; title: string | null };
  pages_seen: { url: string; title: string | null; seen_at: string }[];
  referrer: string | null;
  browser: { name: string | null; version: string | null; os: string | null };
  timezone: string | null;
  custom_field_list: { key: string; label: string; value: string }[];
}

/** The visitor's context for the agents' panel (issue 26): page, pages seen, browser, zone. */
describe('widget: visitor context', () => {
  let suite: TestApp;
  let app: AppProcess;
  let org: Registered;
  let other: Registered;

  const panel = async (visitorId: number, token = org.token) =>
    (
      await request(app.url)
        .get(`/api/agent/visitors/${visitorId}`)
        .set('Authorization', `Bearer ${token}`)
        .expect(200)
    ).body.data as Panel;

  beforeAll(async () => {
    ({ app } = suite = await startTestApp());
    org = await registerOrganization(app.url, 'Acme');
    other = await registerOrganization(app.url, 'Other');
    await request(app.url)
      .patch(`/api/agent/sites/${org.site.id}`)
      .set('Authorization', `Bearer ${org.token}`)
      .send({
        widget_settings: {
          pre_chat_form: {
            enabled: false,
            fields: [
              { key: 'plan', type: 'text', label: 'Current plan', required: false, builtin: false },
            ],
          },
        },
      })
      .expect(200);
  });

  afterAll(() => suite?.stop());

  it('keeps the referrer, browser, zone and pages, follows the page live, labels the fields', async () => {
    const session = (
      await request(app.url)
        .post('/api/widget/init')
        .set('User-Agent', FIREFOX_MAC)
        .send({
          widget_key: org.site.widget_key,
          url: 'https://shop.example/',
          page_title: 'Shop',
          referrer: 'https://search.example/?q=shop',
          timezone: 'Asia/Tokyo',
        })
        .expect(200)
    ).body as { session_token: string; visitor_id: number };
    await request(app.url)
      .post('/api/widget/profile')
      .set('Authorization', `Bearer ${session.session_token}`)
      .send({ custom_fields: { plan: 'Team' } })
      .expect(200);

    const first = await panel(session.visitor_id);
    expect(first).toMatchObject({
      current_page: { url: 'https://shop.example/', title: 'Shop' },
      referrer: 'https://search.example/?q=shop',
      browser: { name: 'Firefox', version: '128.0', os: 'macOS' },
      timezone: 'Asia/Tokyo',
      custom_field_list: [{ key: 'plan', label: 'Current plan', value: 'Team' }],
    });
    expect(first.pages_seen.map((p) => p.url)).toEqual(['https://shop.example/']);

    const agent = await connect(suite.direct, '/agent', org.token);
    const stranger = await connect(suite.direct, '/agent', other.token);
    const widget = await connect(suite.direct, '/widget', session.session_token);
    try {
      await expect(
        widget.ask('page', { url: 'https://shop.example/pricing', title: 'Pricing' }),
      ).resolves.toEqual({ status: true });
      await expect(
        agent.next(
          'visitor.page',
          (e: { visitor_id: number }) => e.visitor_id === session.visitor_id,
        ),
      ).resolves.toEqual({
        visitor_id: session.visitor_id,
        url: 'https://shop.example/pricing',
        title: 'Pricing',
      });
      // The same page again is not a new page seen.
      await widget.ask('page', { url: 'https://shop.example/pricing', title: 'Pricing' });
      const moved = await panel(session.visitor_id);
      expect(moved.current_page).toEqual({ url: 'https://shop.example/pricing', title: 'Pricing' });
      expect(moved.pages_seen.map((p) => p.url)).toEqual([
        'https://shop.example/pricing',
        'https://shop.example/',
      ]);

      // Only the ten newest are kept.
      for (let n = 1; n <= 12; n += 1) {
        await widget.ask('page', { url: `https://shop.example/p/${n}` });
      }
      const many = await panel(session.visitor_id);
      expect(many.pages_seen).toHaveLength(10);
      expect(many.pages_seen[0].url).toBe('https://shop.example/p/12');

      // Not a web address: refused, nothing kept.
      const refused = await widget.ask<{ status: boolean; errors?: Record<string, string[]> }>(
        'page',
        { url: 'javascript:alert(1)' },
      );
      expect(refused.status).toBe(false);
      expect(refused.errors?.url).toBeDefined();
      expect((await panel(session.visitor_id)).current_page.url).toBe('https://shop.example/p/12');
      // Another organization's agents hear nothing of it.
      expect(stranger.received('visitor.page')).toEqual([]);
    } finally {
      agent.close();
      stranger.close();
      widget.close();
    }
    await request(app.url)
      .post('/api/widget/init')
      .send({ widget_key: org.site.widget_key, timezone: 'Mars/Olympus' })
      .expect(422);
  });
});
