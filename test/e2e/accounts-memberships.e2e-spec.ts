import request from 'supertest';
import { addMember, registerOrganization, uniqueEmail } from '../factories/identity';
import type { AppProcess } from '../utils/app-process';
import { startTestApp, type TestApp } from '../utils/test-app';

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

/** Issue 28: one login, several organizations (DESIGN section 12). */
describe('accounts: one login, several organizations', () => {
  let suite: TestApp;
  let app: AppProcess;

  beforeAll(async () => {
    ({ app } = suite = await startTestApp());
  });

  afterAll(() => suite?.stop());

  const login = (email: string, password: string) =>
    request(app.url).post('/api/agent/auth/login').send({ email, password });

  it('adds an address that is a member elsewhere exactly as a new one, and it keeps its own password', async () => {
    const first = await registerOrganization(app.url, 'First Co');
    const second = await registerOrganization(app.url, 'Second Co');
    const stranger = uniqueEmail('new');
    // The same answer for an address with a login elsewhere and for a new one.
    const existing = await request(app.url)
      .post('/api/agent/team')
      .set(auth(second.token))
      .send({ name: 'Olivia', email: first.user.email, role: 'agent', password: 'chosen by admin' })
      .expect(201);
    const fresh = await request(app.url)
      .post('/api/agent/team')
      .set(auth(second.token))
      .send({ name: 'Nina', email: stranger, role: 'agent', password: 'chosen by admin' })
      .expect(201);
    expect(Object.keys(existing.body).sort()).toEqual(Object.keys(fresh.body).sort());
    expect(existing.body.message).toBe(fresh.body.message);
    expect(existing.body.data).toMatchObject({ email: first.user.email, role: 'agent' });
    // The administrator's password does not take over the existing login.
    await login(first.user.email, 'chosen by admin').expect(401);
    await login(first.user.email, first.password).expect(200);
    await login(stranger, 'chosen by admin').expect(200);
    // Adding the same address twice to one organization: the team already shows it.
    const again = await request(app.url)
      .post('/api/agent/team')
      .set(auth(second.token))
      .send({
        name: 'Olivia',
        email: first.user.email.toUpperCase(),
        role: 'agent',
        password: 'x'.repeat(9),
      })
      .expect(422);
    expect(again.body.errors.email).toEqual(['The email has already been taken.']);
  });

  it('lists the organizations in me, switches between them, and refuses one it is not a member of', async () => {
    const home = await registerOrganization(app.url, 'Home Agency');
    const client = await registerOrganization(app.url, 'Client Shop');
    const other = await registerOrganization(app.url, 'Not Mine');
    const added = await request(app.url)
      .post('/api/agent/team')
      .set(auth(client.token))
      .send({
        name: 'Agency Olivia',
        email: home.user.email,
        role: 'admin',
        password: 'whatever long',
      })
      .expect(201);

    const me = await request(app.url).get('/api/agent/me').set(auth(home.token)).expect(200);
    expect(me.body.organization.id).toBe(home.organization.id);
    expect(me.body.organizations).toEqual(
      expect.arrayContaining([
        { id: home.organization.id, name: 'Home Agency', role: 'owner' },
        { id: client.organization.id, name: 'Client Shop', role: 'admin' },
      ]),
    );
    expect(me.body.organizations).toHaveLength(2);

    const switched = await request(app.url)
      .post('/api/agent/auth/switch-organization')
      .set(auth(home.token))
      .send({ organization_id: client.organization.id })
      .expect(200);
    expect(switched.body).toMatchObject({
      token: expect.stringMatching(/^sca_/),
      user: { id: added.body.data.id, role: 'admin', name: 'Agency Olivia' },
      organization: { id: client.organization.id, name: 'Client Shop' },
    });
    expect(String(switched.headers['set-cookie'])).toMatch(/scs_session=sca_/);
    // The old session ended; the new one is the membership in the client's organization.
    await request(app.url).get('/api/agent/me').set(auth(home.token)).expect(401);
    const now = await request(app.url)
      .get('/api/agent/me')
      .set(auth(switched.body.token))
      .expect(200);
    expect(now.body.organization.id).toBe(client.organization.id);
    expect(now.body.user.role).toBe('admin');
    // The client's data is what this session sees.
    const team = await request(app.url)
      .get('/api/agent/team')
      .set(auth(switched.body.token))
      .expect(200);
    expect(team.body.data.map((m: { id: number }) => m.id)).toContain(client.user.id);

    // An organization this login does not belong to: 404, and the session stays.
    const refused = await request(app.url)
      .post('/api/agent/auth/switch-organization')
      .set(auth(switched.body.token))
      .send({ organization_id: other.organization.id })
      .expect(404);
    expect(refused.body).toMatchObject({ status: false, error_code: 'not_found' });
    await request(app.url)
      .post('/api/agent/auth/switch-organization')
      .set(auth(switched.body.token))
      .send({ organization_id: 'x' })
      .expect(422);
    await request(app.url).get('/api/agent/me').set(auth(switched.body.token)).expect(200);

    // Logging in lands in the most recently used organization.
    const again = await login(home.user.email, home.password).expect(200);
    expect(again.body.user.id).toBe(added.body.data.id);
  });

  it('a removed membership leaves the others; a login with none left cannot log in', async () => {
    const a = await registerOrganization(app.url, 'A');
    const b = await registerOrganization(app.url, 'B');
    const member = await addMember(app.url, a.token, 'agent');
    const inB = await request(app.url)
      .post('/api/agent/team')
      .set(auth(b.token))
      .send({ name: 'M', email: member.email, role: 'agent', password: 'ignored password' })
      .expect(201);
    await request(app.url).delete(`/api/agent/team/${member.id}`).set(auth(a.token)).expect(200);
    const me = await login(member.email, member.password).expect(200);
    expect(me.body.user.id).toBe(inB.body.data.id);
    await request(app.url)
      .delete(`/api/agent/team/${inB.body.data.id}`)
      .set(auth(b.token))
      .expect(200);
    await login(member.email, member.password).expect(401);
  });

  it('a changed password is the login’s: every session of every membership but this one ends', async () => {
    const a = await registerOrganization(app.url, 'A');
    const b = await registerOrganization(app.url, 'B');
    await request(app.url)
      .post('/api/agent/team')
      .set(auth(b.token))
      .send({ name: 'O', email: a.user.email, role: 'agent', password: 'ignored password' })
      .expect(201);
    const elsewhere = await login(a.user.email, a.password).expect(200);
    const inB = await request(app.url)
      .post('/api/agent/auth/switch-organization')
      .set(auth(elsewhere.body.token))
      .send({ organization_id: b.organization.id })
      .expect(200);
    await request(app.url)
      .post('/api/agent/auth/password')
      .set(auth(a.token))
      .send({ current_password: a.password, new_password: 'a brand new password' })
      .expect(200);
    await request(app.url).get('/api/agent/me').set(auth(inB.body.token)).expect(401);
    await request(app.url).get('/api/agent/me').set(auth(a.token)).expect(200);
    await login(a.user.email, 'a brand new password').expect(200);
  });
});
