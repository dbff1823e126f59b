import request from 'supertest';
import { addMember, registerOrganization, type Registered } from '../factories/identity';
import type { AppProcess } from '../utils/app-process';
import { startTestApp, type TestApp } from '../utils/test-app';

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

/**
 * What each role reads and changes (DESIGN section 12, issue 26): every member reads the team
 * directory and the sites' names; managing them, and the appointment rules, stays with owners
 * and admins.
 */
describe('member access: what every member reads, what owners and admins change', () => {
  let suite: TestApp;
  let app: AppProcess;
  let org: Registered;
  let admin: Awaited<ReturnType<typeof addMember>>;
  let agent: Awaited<ReturnType<typeof addMember>>;

  beforeAll(async () => {
    ({ app } = suite = await startTestApp({ PUBLIC_URL: 'https://chat.example.test' }));
    org = await registerOrganization(app.url, 'Acme');
    admin = await addMember(app.url, org.token, 'admin');
    agent = await addMember(app.url, org.token, 'agent');
  });

  afterAll(() => suite?.stop());

  it('lets every member read the team directory: names, roles and status, no addresses', async () => {
    const other = await registerOrganization(app.url, 'Globex');
    for (const token of [org.token, admin.token, agent.token]) {
      const res = await request(app.url)
        .get('/api/agent/team/directory')
        .set(auth(token))
        .expect(200);
      expect(res.body.data).toEqual([
        {
          id: org.user.id,
          name: 'Olivia Owner',
          role: 'owner',
          status: 'offline',
          avatar_url: null,
        },
        { id: admin.id, name: 'admin member', role: 'admin', status: 'offline', avatar_url: null },
        { id: agent.id, name: 'agent member', role: 'agent', status: 'offline', avatar_url: null },
      ]);
      expect(res.body).toMatchObject({ current_page: 1, total: 3, last_page: 1 });
      expect(JSON.stringify(res.body)).not.toContain('@example.test');
      expect(JSON.stringify(res.body)).not.toContain(String(other.user.email));
    }
    await request(app.url).get('/api/agent/team/directory').expect(401);
  });

  it("lets every member read the sites' names, not their settings", async () => {
    const res = await request(app.url)
      .get('/api/agent/sites/directory')
      .set(auth(agent.token))
      .expect(200);
    expect(res.body.data).toEqual([{ id: org.site.id, name: 'Acme', is_active: true }]);
    expect(JSON.stringify(res.body)).not.toContain('wk_');
    await request(app.url).get('/api/agent/sites/directory').expect(401);
  });

  it('keeps managing the team and the sites to owners and admins', async () => {
    for (const [method, path] of [
      ['get', '/api/agent/team'],
      ['post', '/api/agent/team'],
      ['patch', `/api/agent/team/${admin.id}`],
      ['delete', `/api/agent/team/${admin.id}`],
      ['get', '/api/agent/sites'],
      ['post', '/api/agent/sites'],
      ['get', `/api/agent/sites/${org.site.id}`],
      ['patch', `/api/agent/sites/${org.site.id}`],
    ] as const) {
      const res = await request(app.url)[method](path).set(auth(agent.token)).send({});
      expect([method, path, res.status, res.body.error_code]).toEqual([
        method,
        path,
        403,
        'forbidden',
      ]);
    }
    await request(app.url).get('/api/agent/team').set(auth(admin.token)).expect(200);
    await request(app.url)
      .get(`/api/agent/sites/${org.site.id}`)
      .set(auth(admin.token))
      .expect(200);
  });

  it('lets agents read the appointment rules and handle appointments, not change the rules', async () => {
    await request(app.url)
      .get('/api/agent/appointment-settings')
      .set(auth(agent.token))
      .expect(200);
    const refused = await request(app.url)
      .patch('/api/agent/appointment-settings')
      .set(auth(agent.token))
      .send({ duration_minutes: 15 })
      .expect(403);
    expect(refused.body.error_code).toBe('forbidden');
    const kept = await request(app.url)
      .get('/api/agent/appointment-settings')
      .set(auth(agent.token))
      .expect(200);
    expect(kept.body.settings.duration_minutes).not.toBe(15);
    await request(app.url).get('/api/agent/appointments').set(auth(agent.token)).expect(200);

    const changed = await request(app.url)
      .patch('/api/agent/appointment-settings')
      .set(auth(admin.token))
      .send({ duration_minutes: 15 })
      .expect(200);
    expect(changed.body.settings.duration_minutes).toBe(15);
  });

  it("clears a site's optional domain with null and keeps it when a patch leaves it out", async () => {
    const site = `/api/agent/sites/${org.site.id}`;
    await request(app.url)
      .patch(site)
      .set(auth(org.token))
      .send({ domain: 'shop.example.test' })
      .expect(200);
    const renamed = await request(app.url)
      .patch(site)
      .set(auth(org.token))
      .send({ name: 'Acme shop' })
      .expect(200);
    expect(renamed.body.data.domain).toBe('shop.example.test');
    const cleared = await request(app.url)
      .patch(site)
      .set(auth(org.token))
      .send({ domain: null, allowed_domains: ['shop.example.test'] })
      .expect(200);
    expect(cleared.body.data).toMatchObject({
      domain: null,
      allowed_domains: ['shop.example.test'],
    });
  });
});
