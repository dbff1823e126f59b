import type { Pool } from 'pg';
import request from 'supertest';
import { createVisitor } from '../factories/chat';
import { addMember, createApiKey, registerOrganization } from '../factories/identity';
import { startWidgetChat } from '../factories/widget-chat';
import type { AppProcess } from '../utils/app-process';
import { startTestApp, type TestApp } from '../utils/test-app';

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
const PUBLIC_URL = 'https://chat.example.test';

/** The contract gaps of issue 17, each a promise of the spec or DESIGN the answers broke. */
describe('contract gaps', () => {
  let suite: TestApp | undefined;
  let app: AppProcess;
  let db: Pool;

  beforeAll(async () => {
    ({ app, db } = suite = await startTestApp({ PUBLIC_URL, COUNTRY_HEADER: 'CF-IPCountry' }));
  });

  afterAll(() => suite?.stop());

  describe('agent lists have the list shape and bounds of DESIGN section 3', () => {
    const LISTS = [
      '/api/agent/team',
      '/api/agent/sites',
      '/api/agent/api-keys',
      '/api/agent/labels',
      '/api/agent/canned-responses',
    ];

    it.each(LISTS)('%s pages with page, per_page and links', async (path) => {
      const org = await registerOrganization(app.url);
      await addMember(app.url, org.token, 'agent');
      await request(app.url)
        .post('/api/agent/sites')
        .set(auth(org.token))
        .send({ name: 'Second', domain: 'second.example.test' })
        .expect(201);
      await createApiKey(app.url, org.token, ['tickets:read']);
      await createApiKey(app.url, org.token, ['sites:read']);
      for (const name of ['alpha', 'beta']) {
        await request(app.url)
          .post('/api/agent/labels')
          .set(auth(org.token))
          .send({ name, color: '#336699' })
          .expect(201);
        await request(app.url)
          .post('/api/agent/canned-responses')
          .set(auth(org.token))
          .send({ shortcut: name, body: `The ${name} reply.` })
          .expect(201);
      }

      const all = await request(app.url).get(path).set(auth(org.token)).expect(200);
      expect(all.body).toMatchObject({ current_page: 1, per_page: 50, total: 2, last_page: 1 });
      expect(all.body.data).toHaveLength(2);

      const first = await request(app.url)
        .get(`${path}?per_page=1`)
        .set(auth(org.token))
        .expect(200);
      expect(first.body).toMatchObject({
        current_page: 1,
        per_page: 1,
        total: 2,
        last_page: 2,
        links: {
          first: `${PUBLIC_URL}${path}?per_page=1&page=1`,
          last: `${PUBLIC_URL}${path}?per_page=1&page=2`,
          prev: null,
          next: `${PUBLIC_URL}${path}?per_page=1&page=2`,
        },
      });
      expect(first.body.data).toEqual([all.body.data[0]]);
      const second = await request(app.url)
        .get(`${path}?per_page=1&page=2`)
        .set(auth(org.token))
        .expect(200);
      expect(second.body.data).toEqual([all.body.data[1]]);
      expect(second.body.links.next).toBeNull();

      for (const query of ['per_page=500', 'per_page=0', 'page=0', 'page=x']) {
        const bad = await request(app.url).get(`${path}?${query}`).set(auth(org.token)).expect(422);
        expect(bad.body.error_code).toBe('validation_failed');
        expect(Object.keys(bad.body.errors)).toEqual([query.split('=')[0]]);
      }
    });
  });
  describe('a missing required field', () => {
    it('is named as required, not by its length or format rule', async () => {
      const org = await registerOrganization(app.url);
      const canned = await request(app.url)
        .post('/api/agent/canned-responses')
        .set(auth(org.token))
        .send({})
        .expect(422);
      expect(canned.body.message).toBe('The shortcut field is required.');
      expect(canned.body.errors).toEqual({
        shortcut: ['The shortcut field is required.'],
        body: ['The body field is required.'],
      });

      // A rule that already says when the field is required keeps its own sentence.
      const chat = await startWidgetChat(app.url, org.site);
      const reply = await request(app.url)
        .post(`/api/agent/conversations/${chat.id}/messages`)
        .set(auth(org.token))
        .send({})
        .expect(422);
      expect(reply.body.message).toBe(
        'The body field is required unless attachment_ids are given.',
      );
      expect(reply.body.errors).toEqual({
        body: ['The body field is required unless attachment_ids are given.'],
      });

      // Nested: the leaf is named, under its path.
      const site = await request(app.url)
        .put(`/api/agent/sites/${org.site.id}/data-lookup`)
        .set(auth(org.token))
        .send({
          enabled: false,
          connection: { driver: 'postgres' },
          account: { key_column: 'id', lookup_columns: ['email'] },
        })
        .expect(422);
      expect(site.body.errors['account.table']).toEqual(['The table field is required.']);

      // A present but wrong value still gets its own rule.
      const long = await request(app.url)
        .post('/api/agent/canned-responses')
        .set(auth(org.token))
        .send({ shortcut: 'x', body: 'y'.repeat(5001) })
        .expect(422);
      expect(long.body.message).toBe('Body must be shorter than or equal to 5000 characters.');
    });
  });
  describe('POST /api/v1/tickets with a visitor', () => {
    it("keeps the visitor's name and email: customer fields are used only when there is no visitor", async () => {
      const org = await registerOrganization(app.url);
      const { key } = await createApiKey(app.url, org.token, ['tickets:write', 'tickets:read']);
      const visitor = await createVisitor(db, {
        organizationId: org.organization.id,
        siteId: org.site.id,
        name: 'Vera Visitor',
        email: 'vera@shop.test',
      });
      const create = (body: object) =>
        request(app.url)
          .post('/api/v1/tickets')
          .set('Authorization', `Bearer ${key}`)
          .send({ subject: 'Refund', description: 'Please refund order 42.', ...body })
          .expect(201);
      const read = async (id: number) =>
        (
          await request(app.url)
            .get(`/api/v1/tickets/${id}`)
            .set('Authorization', `Bearer ${key}`)
            .expect(200)
        ).body.data as Record<string, unknown>;

      const linked = await create({
        visitor_id: visitor.id,
        customer_name: 'Someone Else',
        customer_email: 'someone@else.test',
      });
      expect(await read(linked.body.data.id as number)).toMatchObject({
        visitor_id: visitor.id,
        customer_name: 'Vera Visitor',
        customer_email: 'vera@shop.test',
      });

      const unlinked = await create({
        customer_name: 'Someone Else',
        customer_email: 'someone@else.test',
      });
      expect(await read(unlinked.body.data.id as number)).toMatchObject({
        visitor_id: null,
        customer_name: 'Someone Else',
        customer_email: 'someone@else.test',
      });
    });
  });

  describe("a visitor's country", () => {
    it('comes from the configured proxy header, kept when a later visit has none', async () => {
      const org = await registerOrganization(app.url);
      const { key } = await createApiKey(app.url, org.token, ['visitors:read']);
      const site = org.site;
      const first = await request(app.url)
        .post('/api/widget/init')
        .set('CF-IPCountry', 'de')
        .send({ widget_key: site.widget_key })
        .expect(200);
      const read = async () =>
        (
          await request(app.url)
            .get(`/api/v1/visitors/${first.body.visitor_id}`)
            .set(auth(key))
            .expect(200)
        ).body.data.country as string | null;
      expect(await read()).toBe('DE');

      await request(app.url)
        .post('/api/widget/init')
        .set('CF-IPCountry', 'XX')
        .send({ widget_key: site.widget_key, visitor_uid: first.body.visitor_uid })
        .expect(200);
      expect(await read()).toBe('DE');

      await request(app.url)
        .post('/api/widget/init')
        .set('CF-IPCountry', 'fr')
        .send({ widget_key: site.widget_key, visitor_uid: first.body.visitor_uid })
        .expect(200);
      expect(await read()).toBe('FR');

      const unknown = await request(app.url)
        .post('/api/widget/init')
        .set('CF-IPCountry', 'T1')
        .send({ widget_key: site.widget_key })
        .expect(200);
      const other = await request(app.url)
        .get(`/api/v1/visitors/${unknown.body.visitor_id}`)
        .set(auth(key))
        .expect(200);
      expect(other.body.data.country).toBeNull();
    });
  });
});
