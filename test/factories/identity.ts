import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { linkIn, type SmtpCapture, subjectIs } from '../utils/smtp';

export interface Registered {
  token: string;
  password: string;
  user: { id: number; email: string; name: string; role: string };
  organization: { id: number; name: string; plan: string };
  site: { id: number; widget_key: string };
}

export const uniqueEmail = (label = 'user') =>
  `${label}-${randomBytes(4).toString('hex')}@example.test`;

/** Registers a new organization over HTTP; its owner is logged in. */
export async function registerOrganization(baseUrl: string, name = 'Acme'): Promise<Registered> {
  const password = `pw-${randomBytes(8).toString('hex')}`;
  const res = await request(baseUrl)
    .post('/api/agent/auth/register')
    .send({ organization_name: name, name: 'Olivia Owner', email: uniqueEmail('owner'), password })
    .expect(201);
  return { ...(res.body as Omit<Registered, 'password'>), password };
}

/**
 * Confirms a login's address as its person does: the link mailed at sign-up (to the SMTP capture
 * the app sends to), opened.
 */
export async function confirmAddress(
  baseUrl: string,
  smtp: SmtpCapture,
  email: string,
): Promise<void> {
  const mail = await smtp.next(email, subjectIs(/Confirm your address/));
  const token = (await linkIn(mail, '/verify-email')).searchParams.get('token');
  await request(baseUrl).post('/api/agent/auth/verify-email').send({ token }).expect(200);
}

/** Adds a team member and logs it in; returns its token. */
export async function addMember(
  baseUrl: string,
  ownerToken: string,
  role: 'owner' | 'admin' | 'agent',
): Promise<{ id: number; email: string; password: string; token: string }> {
  const email = uniqueEmail(role);
  const password = `pw-${randomBytes(8).toString('hex')}`;
  const created = await request(baseUrl)
    .post('/api/agent/team')
    .set('Authorization', `Bearer ${ownerToken}`)
    .send({ name: `${role} member`, email, role, password })
    .expect(201);
  const login = await request(baseUrl)
    .post('/api/agent/auth/login')
    .send({ email, password })
    .expect(200);
  return { id: created.body.data.id as number, email, password, token: login.body.token as string };
}

export async function createApiKey(
  baseUrl: string,
  agentToken: string,
  abilities: string[],
  name = 'test key',
) {
  const res = await request(baseUrl)
    .post('/api/agent/api-keys')
    .set('Authorization', `Bearer ${agentToken}`)
    .send({ name, abilities })
    .expect(201);
  return { id: res.body.data.id as number, key: res.body.plain_text_key as string };
}

/** Adds a site to the agent's organization (`POST /api/agent/sites`); `body` adds to its name. */
export async function createSite(
  baseUrl: string,
  agentToken: string,
  body: Record<string, unknown> = {},
): Promise<{ id: number; widget_key: string; timezone: string }> {
  const res = await request(baseUrl)
    .post('/api/agent/sites')
    .set('Authorization', `Bearer ${agentToken}`)
    .send({ name: 'Shop', ...body })
    .expect(201);
  return res.body.data as { id: number; widget_key: string; timezone: string };
}
