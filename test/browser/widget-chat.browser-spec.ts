import { readFileSync } from 'node:fs';
import type { FrameLocator, Page } from 'playwright-core';
import request from 'supertest';
import { registerOrganization as register, type Registered } from '../factories/identity';
import { type AppProcess, eventually, startApp } from '../utils/app-process';
import {
  browserAvailable,
  closePage,
  hostPage,
  launchBrowser,
  screenshotOnFailure,
  seriousAxeViolations,
  startHostSite,
  type TestBrowser,
  typeInto,
  watchConsole,
  openChat,
} from '../utils/browser';
import type { Pool } from 'pg';
import { createTestDatabase, dropTestDatabase, pool } from '../utils/database';
import { connect, type TestSocket } from '../utils/sockets';

// A real 8x8 PNG: the agent's picture.
const AVATAR_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAEUlEQVR4nGPwd3uKFTEMLQkAx2Rege9i6lUAAAAASUVORK5CYII=',
  'base64',
);

const describeIfBrowser = browserAvailable() ? describe : describe.skip;

/** A new organization whose owner is online (else the widget shows its away notice). */
async function registerOrganization(appUrl: string, name?: string): Promise<Registered> {
  const org = await register(appUrl, name);
  await request(appUrl)
    .patch('/api/agent/presence')
    .set('Authorization', `Bearer ${org.token}`)
    .send({ status: 'online' })
    .expect(200);
  return org;
}

// The queue stub a site puts before the snippet: calls made before widget.js runs are kept.
const STUB = `<script>window.SupportChat=window.SupportChat||function(){(SupportChat.q=SupportChat.q||[]).push(arguments)};
window.events=[];['ready','open','close','message','unread'].forEach(function(e){SupportChat('on',e,function(d){window.events.push([e,d])})});</script>`;

// A host page whose styles try hard to reach the widget.
const HOSTILE_CSS = `<style>*{font-family:serif!important;color:#0f0!important}
button{background:#f00!important;font-size:40px!important;border:9px solid #ff0!important}
iframe{opacity:.1!important}</style>`;

/** What the tests use of the browser's globals (the test project has no DOM types). */
interface Browser {
  getComputedStyle(el: unknown): {
    backgroundColor: string;
    fontSize: string;
    borderTopWidth: string;
    fontFamily: string;
  };
  document: { activeElement: unknown };
}

// A 1×1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

interface ChatMessage {
  id: number;
  body: string;
  sender_type: string;
  conversation_id: number;
}

describeIfBrowser('the chat widget on a host page of another origin', () => {
  let databaseUrl: string;
  let app: AppProcess;
  let browser: TestBrowser;
  let service: string;
  let db: Pool;
  // The host page of the running test: a failure says what it showed (see screenshotOnFailure).
  let current: Page | undefined;
  const step = screenshotOnFailure('widget-chat', () => current);

  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
    db = pool(databaseUrl);
    app = await startApp({ DATABASE_URL: databaseUrl });
    // The browser talks to the service directly (the validating proxy carries no WebSocket).
    service = `http://127.0.0.1:${app.port}`;
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await db?.end();
    await app?.stop();
    await dropTestDatabase(databaseUrl);
  });

  async function openHost(
    org: Registered,
    extra = '',
  ): Promise<{ page: Page; close(): Promise<void> }> {
    const site = await startHostSite({ '/': hostPage(service, org.site.widget_key, extra) });
    const page = await browser.newPage();
    current = page;
    watchConsole(page);
    await page.goto(site.url);
    return {
      page,
      async close() {
        await closePage(page);
        await site.close();
      },
    };
  }

  const frameOf = (page: Page): FrameLocator => page.frameLocator('iframe[title="Chat"]');

  /** axe inside the chat frame (its CSP refuses script tags, so axe is evaluated there). */
  const axeIn = (page: Page) => {
    const inner = page.frames().find((f) => f.url().includes('/widget/frame.html'))!;
    return {
      addScriptTag: async ({ path }: { path?: string }) => {
        await inner.evaluate(readFileSync(path!, 'utf8'));
        return null as never;
      },
      evaluate: inner.evaluate.bind(inner),
    };
  };

  async function agentReply(org: Registered, conversationId: number, body: string) {
    await request(app.url)
      .post(`/api/agent/conversations/${conversationId}/messages`)
      .set('Authorization', `Bearer ${org.token}`)
      .send({ body })
      .expect(201);
  }

  step(
    'keeps queued API calls, hands ready the visitor_id only, opens and closes by the API and the launcher, and shutdown ends the session on the server',
    async () => {
      const org = await registerOrganization(app.url);
      const host = await openHost(org, `${STUB}<script>SupportChat('open')</script>`);
      try {
        const { page } = host;
        // The queued `open` ran: the launcher now offers to close the chat.
        await page.getByRole('button', { name: 'Close chat' }).waitFor({ timeout: 15_000 });
        await frameOf(page).getByRole('textbox', { name: 'Message' }).waitFor({ timeout: 15_000 });
        const ready = await eventually(async () => {
          const events = await page.evaluate(
            () => (globalThis as unknown as { events: [string, unknown][] }).events,
          );
          return events.find(([name]) => name === 'ready');
        });
        // The visitor's id, never its UID (a login on the spec's widget routes) nor its token.
        expect(Object.keys(ready[1] as object)).toEqual(['visitor_id']);
        const visitorId = (ready[1] as { visitor_id: number }).visitor_id;
        expect(visitorId).toBeGreaterThan(0);

        await page.evaluate(() =>
          (globalThis as unknown as { SupportChat: (c: string) => void }).SupportChat('close'),
        );
        await page.getByRole('button', { name: 'Open chat' }).waitFor();
        await page.evaluate(() =>
          (globalThis as unknown as { SupportChat: (c: string) => void }).SupportChat('toggle'),
        );
        await page.getByRole('button', { name: 'Close chat' }).waitFor();
        await page.getByRole('button', { name: 'Close chat' }).click();
        await page.getByRole('button', { name: 'Open chat' }).waitFor();
        const names = await page.evaluate(() =>
          (globalThis as unknown as { events: [string, unknown][] }).events.map(([name]) => name),
        );
        expect(names.filter((n) => n === 'open' || n === 'close')).toEqual([
          'open',
          'close',
          'open',
          'close',
        ]);

        // identify names the same visitor (the id `ready` gave).
        await page.evaluate(() =>
          (globalThis as unknown as { SupportChat: (c: string, who: object) => void }).SupportChat(
            'identify',
            { name: 'Grace Hopper', email: 'grace@example.test' },
          ),
        );
        await eventually(async () => {
          const { rows } = await db.query('SELECT name, email FROM visitors WHERE id = $1', [
            visitorId,
          ]);
          return rows[0]?.name === 'Grace Hopper' && rows[0]?.email === 'grace@example.test';
        });
        // What is kept is the signed session token (this browser refuses the frame its storage,
        // so the host page keeps the copy), never the UID.
        const kept = await page.evaluate(
          (key) =>
            (
              globalThis as unknown as { localStorage: { getItem(k: string): string | null } }
            ).localStorage.getItem(`support-chat:${key}`),
          org.site.widget_key,
        );
        const copy = JSON.parse(kept ?? '{}') as Record<string, string>;
        expect(Object.keys(copy)).not.toContain('visitor_uid');
        const token = copy.session_token;
        expect(token).toMatch(/^wst_/);

        await page.evaluate(() =>
          (globalThis as unknown as { SupportChat: (c: string) => void }).SupportChat('shutdown'),
        );
        await eventually(
          async () => (await page.getByRole('button', { name: 'Open chat' }).count()) === 0,
        );
        expect(await page.locator('iframe').count()).toBe(0);
        // Shutdown ended the session on the server too: the token the frame held is refused.
        await request(app.url)
          .get('/api/widget/messages')
          .set('Authorization', `Bearer ${token}`)
          .expect(401);
        const { rows } = await db.query('SELECT session_ended_at FROM visitors WHERE id = $1', [
          visitorId,
        ]);
        expect(rows[0].session_ended_at).not.toBeNull();
      } finally {
        await host.close();
      }
    },
  );

  step(
    "never takes a visitor's identity from the frame's address (a planted link), framed or not",
    async () => {
      const org = await registerOrganization(app.url);
      // The attacker's own visitor, whose messages the attacker can read.
      const attacker = (
        await request(app.url)
          .post('/api/widget/init')
          .send({ widget_key: org.site.widget_key })
          .expect(200)
      ).body as { visitor_uid: string; visitor_id: number; session_token: string };
      const planted = encodeURIComponent(
        JSON.stringify({
          visitor_uid: attacker.visitor_uid,
          session_token: attacker.session_token,
        }),
      );
      // Opened on its own by a link, and framed by a page that plants it in the frame's address.
      const link = `${service}/widget/frame.html?widget_key=${org.site.widget_key}#${planted}`;
      const alone = await browser.newPage();
      const framer = await startHostSite({
        '/': `<!doctype html><html lang="en"><title>Framer</title><body><script>
const f = document.createElement('iframe');
f.title = 'Chat';
f.src = '${service}/widget/frame.html?widget_key=${org.site.widget_key}&origin=' +
  encodeURIComponent(location.origin) + '#${planted}';
f.onload = () => setTimeout(() => f.contentWindow.postMessage({ type: 'open' }, '${service}'), 500);
document.body.appendChild(f);
</script></body></html>`,
      });
      const framed = await browser.newPage();
      try {
        await alone.goto(link);
        await alone.getByRole('textbox', { name: 'Message' }).fill('My card number is 4242');
        await alone.getByRole('textbox', { name: 'Message' }).press('Enter');
        await framed.goto(framer.url);
        const frame = framed.frameLocator('iframe[title="Chat"]');
        await typeInto(frame.getByRole('textbox', { name: 'Message' }), 'Framed secret');
        await frame.getByRole('textbox', { name: 'Message' }).press('Enter');
        // Both messages reach the service, from visitors of their own.
        await eventually(async () => {
          const { rows } = await db.query(
            `SELECT m.body, c.visitor_id FROM messages m JOIN conversations c ON c.id = m.conversation_id
           WHERE c.organization_id = $1 AND m.sender_type = 'visitor'`,
            [org.organization.id],
          );
          return (
            rows.length === 2 && rows.every((row) => Number(row.visitor_id) !== attacker.visitor_id)
          );
        });
        const seen = await request(app.url)
          .get('/api/widget/messages')
          .set('Authorization', `Bearer ${attacker.session_token}`)
          .expect(200);
        expect(seen.body.data).toEqual([]);
      } finally {
        await alone.close();
        await framed.close();
        await framer.close();
      }
    },
  );

  step('keeps the host page styles out of the launcher and the frame', async () => {
    const org = await registerOrganization(app.url);
    const host = await openHost(org, HOSTILE_CSS);
    try {
      const { page } = host;
      const launcher = page.getByRole('button', { name: 'Open chat' });
      await launcher.waitFor({ timeout: 15_000 });
      const look = await launcher.evaluate((el) => {
        const style = (globalThis as unknown as Browser).getComputedStyle(el);
        return {
          background: style.backgroundColor,
          fontSize: style.fontSize,
          border: style.borderTopWidth,
        };
      });
      expect(look).toEqual({ background: 'rgb(37, 99, 235)', fontSize: '15px', border: '0px' });
      await launcher.click();
      const box = frameOf(page).getByRole('textbox', { name: 'Message' });
      await box.waitFor({ timeout: 15_000 });
      const family = await box.evaluate(
        (el) => (globalThis as unknown as Browser).getComputedStyle(el).fontFamily,
      );
      expect(family).not.toContain('serif,');
      expect(family).toContain('system-ui');
    } finally {
      await host.close();
    }
  });

  step(
    'chats live: a message reaches the agent, the reply, typing and read receipts come back, nothing is shown twice after a drop',
    async () => {
      const org = await registerOrganization(app.url);
      const agent: TestSocket = await connect(service, '/agent', org.token);
      const host = await openHost(org);
      try {
        const { page } = host;
        await openChat(page);
        const frame = frameOf(page);
        const box = frame.getByRole('textbox', { name: 'Message' });
        await box.waitFor({ timeout: 15_000 });
        await eventually(() =>
          box.evaluate((el) => el === (globalThis as unknown as Browser).document.activeElement),
        );

        // The message reaches the agent; then typing does (the conversation has started).
        await typeInto(box, 'Hello, is my order shipped?');
        await frame.getByRole('button', { name: 'Send' }).click();
        const sent = await agent.next<ChatMessage>(
          'message.created',
          (m) => m.body === 'Hello, is my order shipped?',
        );
        await box.pressSequentially('Also');
        await agent.next(
          'typing',
          (e: { sender_type: string; is_typing: boolean }) =>
            e.sender_type === 'visitor' && e.is_typing,
        );
        await typeInto(box, '');
        const log = frame.getByRole('log', { name: 'Messages' });
        await log.getByText('Hello, is my order shipped?').waitFor();

        // The agent types and replies; the widget shows both, and reads the reply.
        await agent.ask('typing', { conversation_id: sent.conversation_id, is_typing: true });
        await frame.getByRole('status').filter({ hasText: 'An agent is typing…' }).waitFor();
        // The answering agent has a picture (issue 28): the widget shows it with the agent's name.
        await request(app.url)
          .post('/api/agent/me/avatar')
          .set('Authorization', `Bearer ${org.token}`)
          .attach('file', AVATAR_PNG, { filename: 'me.png', contentType: 'image/png' })
          .expect(200);
        await agentReply(org, sent.conversation_id, 'Yes, it left our warehouse today.');
        await log.getByText('Yes, it left our warehouse today.').waitFor();
        await log.getByText('Olivia Owner', { exact: true }).waitFor();
        await frame.getByText('Olivia Owner is answering you').waitFor();
        const pictures = frame.locator('img.avatar');
        await eventually(async () => (await pictures.count()) === 2);
        // At the avatar's address (as attachments, this app's PUBLIC_URL is `localhost` while the
        // browser uses 127.0.0.1, so the frame's CSP keeps the bytes out here).
        for (const picture of await pictures.all())
          expect(await picture.getAttribute('src')).toMatch(
            /^http:\/\/localhost:\d+\/api\/avatars\/av_\w{32}$/,
          );
        await agent.next('read', (e: { reader: string }) => e.reader === 'visitor');
        // The agent reads the visitor's message: "Seen".
        await agent.ask('read', { conversation_id: sent.conversation_id, message_id: sent.id });
        await log.getByText('Seen').waitFor();

        // axe runs inside the frame; the frame's CSP refuses script tags, so it is evaluated.
        const inner = page.frames().find((f) => f.url().includes('/widget/frame.html'))!;
        const axeInFrame = {
          addScriptTag: async ({ path }: { path?: string }) => {
            await inner.evaluate(readFileSync(path!, 'utf8'));
            return null as never;
          },
          evaluate: inner.evaluate.bind(inner),
        };
        expect(await seriousAxeViolations(axeInFrame)).toEqual([]);

        // A drop: replies sent meanwhile arrive after the reconnect, each once.
        await page.context().setOffline(true);
        await frame
          .getByRole('status')
          .filter({ hasText: 'Connection lost' })
          .waitFor({ timeout: 30_000 });
        await agentReply(org, sent.conversation_id, 'Sent while you were away.');
        await page.context().setOffline(false);
        await log.getByText('Sent while you were away.').waitFor({ timeout: 30_000 });
        await typeInto(box, 'Thanks!');
        await box.press('Enter');
        await agent.next<ChatMessage>('message.created', (m) => m.body === 'Thanks!');
        await log.getByText('Thanks!').waitFor();
        for (const text of [
          'Hello, is my order shipped?',
          'Yes, it left our warehouse today.',
          'Sent while you were away.',
          'Thanks!',
        ]) {
          expect(await log.getByText(text, { exact: true }).count()).toBe(1);
        }

        // The conversation continues after a page load.
        await page.reload();
        await openChat(page);
        await frameOf(page)
          .getByRole('log')
          .getByText('Sent while you were away.')
          .waitFor({ timeout: 15_000 });
      } finally {
        agent.close();
        await host.close();
      }
    },
  );

  step('shows the unread count on the launcher while the chat is closed', async () => {
    const org = await registerOrganization(app.url);
    const agent = await connect(service, '/agent', org.token);
    const host = await openHost(org, STUB);
    try {
      const { page } = host;
      await openChat(page);
      const box = frameOf(page).getByRole('textbox', { name: 'Message' });
      await box.waitFor({ timeout: 15_000 });
      await typeInto(box, 'Anyone there?');
      await box.press('Enter');
      const sent = await agent.next<ChatMessage>(
        'message.created',
        (m) => m.body === 'Anyone there?',
      );
      await page.getByRole('button', { name: 'Close chat' }).click();

      await agentReply(org, sent.conversation_id, 'Hi! One moment please.');
      await agentReply(org, sent.conversation_id, 'Found it.');
      await page.getByRole('status', { name: '2 unread' }).waitFor({ timeout: 15_000 });
      const events = await page.evaluate(
        () =>
          (globalThis as unknown as { events: [string, { body?: string; count?: number }][] })
            .events,
      );
      expect(events.filter(([n]) => n === 'message').map(([, d]) => d.body)).toEqual([
        'Hi! One moment please.',
        'Found it.',
      ]);
      expect(events.filter(([n]) => n === 'unread').map(([, d]) => d.count)).toContain(2);

      // Opening reads them: the badge goes.
      await openChat(page);
      await eventually(
        async () => (await page.getByRole('status', { name: '2 unread' }).count()) === 0,
      );
    } finally {
      agent.close();
      await host.close();
    }
  });

  step(
    'asks the pre-chat form first, then ends the chat with a rating, and a new message opens a new conversation',
    async () => {
      const org = await registerOrganization(app.url);
      await request(app.url)
        .patch(`/api/agent/sites/${org.site.id}`)
        .set('Authorization', `Bearer ${org.token}`)
        .send({
          widget_settings: {
            pre_chat_form: {
              enabled: true,
              delay_minutes: 0,
              fields: [
                { key: 'name', type: 'text', label: 'Name', required: true, builtin: true },
                { key: 'email', type: 'email', label: 'Email', required: true, builtin: true },
                {
                  key: 'order',
                  type: 'text',
                  label: 'Order number',
                  required: false,
                  builtin: false,
                },
              ],
            },
          },
        })
        .expect(200);
      const agent = await connect(service, '/agent', org.token);
      const host = await openHost(org);
      try {
        const { page } = host;
        await openChat(page);
        const frame = frameOf(page);
        await frame.getByRole('button', { name: 'Start chat' }).waitFor({ timeout: 15_000 });
        expect(await frame.getByRole('textbox', { name: 'Message' }).count()).toBe(0);
        await frame.getByRole('button', { name: 'Start chat' }).click();
        await frame.getByRole('alert').first().waitFor();
        expect(
          await frame.getByRole('textbox', { name: 'Name' }).getAttribute('aria-invalid'),
        ).toBe('true');
        await typeInto(frame.getByRole('textbox', { name: 'Name' }), 'Ada Lovelace');
        await typeInto(frame.getByRole('textbox', { name: 'Email' }), 'ada@example.com');
        await typeInto(frame.getByRole('textbox', { name: 'Order number (optional)' }), 'A-1001');
        await frame.getByRole('button', { name: 'Start chat' }).click();

        const box = frame.getByRole('textbox', { name: 'Message' });
        await typeInto(box, 'My invoice is wrong.');
        await frame.getByRole('button', { name: 'Send' }).click();
        const first = await agent.next<ChatMessage>(
          'message.created',
          (m) => m.body === 'My invoice is wrong.',
        );
        const visitor = await request(app.url)
          .get(`/api/agent/conversations/${first.conversation_id}`)
          .set('Authorization', `Bearer ${org.token}`)
          .expect(200);
        expect(visitor.body.data.visitor).toMatchObject({
          name: 'Ada Lovelace',
          email: 'ada@example.com',
        });

        // "End chat" asks first, inside the widget: keeping the chat changes nothing.
        await frame.getByRole('button', { name: 'End chat' }).click();
        const ask = frame.getByRole('alertdialog', { name: /End this chat\?/ });
        await ask.waitFor();
        const keep = ask.getByRole('button', { name: 'Keep chatting' });
        expect(
          await keep.evaluate(
            (el) => el === (globalThis as unknown as Browser).document.activeElement,
          ),
        ).toBe(true);
        expect(await seriousAxeViolations(axeIn(page))).toEqual([]);
        await keep.click();
        await ask.waitFor({ state: 'detached' });
        expect(await frame.getByText('This conversation has ended.').count()).toBe(0);
        await frame.getByRole('button', { name: 'End chat' }).click();
        await frame
          .getByRole('alertdialog', { name: /End this chat\?/ })
          .getByRole('button', { name: 'Yes, end chat' })
          .click();
        await frame
          .getByRole('radiogroup', { name: 'How was this conversation?' })
          .waitFor({ timeout: 15_000 });
        await frame.getByRole('radio', { name: '4 stars' }).check();
        await typeInto(
          frame.getByRole('textbox', { name: 'Comment (optional)' }),
          'Quick and kind.',
        );
        await frame.getByRole('button', { name: 'Send rating' }).click();
        await frame.getByText('Thank you for your feedback!').waitFor();
        const rated = await db.query(
          'SELECT rating, review_comment FROM conversations WHERE id = $1',
          [first.conversation_id],
        );
        expect(rated.rows[0]).toEqual({ rating: 4, review_comment: 'Quick and kind.' });

        await typeInto(box, 'One more question.');
        await box.press('Enter');
        const second = await agent.next<ChatMessage>(
          'message.created',
          (m) => m.body === 'One more question.',
        );
        expect(second.conversation_id).not.toBe(first.conversation_id);
      } finally {
        agent.close();
        await host.close();
      }
    },
  );

  step(
    'works by keyboard alone: Tab to the launcher, type and send with Enter, Escape closes and focus returns',
    async () => {
      const org = await registerOrganization(app.url);
      const agent = await connect(service, '/agent', org.token);
      const host = await openHost(org);
      try {
        const { page } = host;
        const launcher = page.getByRole('button', { name: 'Open chat' });
        await launcher.waitFor({ timeout: 15_000 });
        await page.keyboard.press('Tab');
        await eventually(() =>
          launcher.evaluate(
            (el) =>
              (el.getRootNode() as unknown as { activeElement: unknown }).activeElement === el,
          ),
        );
        await page.keyboard.press('Enter');
        const box = frameOf(page).getByRole('textbox', { name: 'Message' });
        await eventually(() =>
          box.evaluate((el) => el === (globalThis as unknown as Browser).document.activeElement),
        );
        await page.keyboard.type('Typed without a mouse.');
        await page.keyboard.press('Enter');
        await agent.next<ChatMessage>(
          'message.created',
          (m) => m.body === 'Typed without a mouse.',
        );
        await page.keyboard.press('Escape');
        await page.getByRole('button', { name: 'Open chat' }).waitFor();
        expect(
          await page
            .getByRole('button', { name: 'Open chat' })
            .evaluate(
              (el) =>
                (el.getRootNode() as unknown as { activeElement: unknown }).activeElement === el,
            ),
        ).toBe(true);
      } finally {
        agent.close();
        await host.close();
      }
    },
  );

  step('speaks the language of the tag, Arabic right to left', async () => {
    const org = await registerOrganization(app.url);
    const page = hostPage(service, org.site.widget_key).replace(
      'data-widget-key=',
      'data-locale="ar" data-widget-key=',
    );
    const site = await startHostSite({ '/': page });
    const tab = await browser.newPage();
    try {
      await tab.goto(site.url);
      // The launcher takes the frame's names once the frame is ready.
      const launcher = tab.getByRole('button', { name: 'افتح الدردشة' });
      await launcher.waitFor({ timeout: 15_000 });
      await launcher.click();
      const frame = frameOf(tab);
      await frame.getByRole('textbox', { name: 'الرسالة' }).waitFor({ timeout: 15_000 });
      expect(await frame.locator('html').getAttribute('dir')).toBe('rtl');
      expect(await frame.locator('html').getAttribute('lang')).toBe('ar');
      await frame.getByRole('button', { name: 'إرسال' }).waitFor();
    } finally {
      await tab.close();
      await site.close();
    }
  });

  step(
    'sends and receives attachments: an image from the visitor previewed, a document from the agent to download, a refused type explained',
    async () => {
      const org = await registerOrganization(app.url);
      const agent = await connect(service, '/agent', org.token);
      const host = await openHost(org);
      try {
        const { page } = host;
        await openChat(page);
        const frame = frameOf(page);
        await frame.getByRole('textbox', { name: 'Message' }).waitFor({ timeout: 15_000 });
        await frame
          .getByLabel('Attach a file')
          .setInputFiles({ name: 'receipt.png', mimeType: 'image/png', buffer: PNG });
        await frame.getByRole('button', { name: 'Remove receipt.png' }).waitFor();
        await frame.getByRole('button', { name: 'Send' }).click();
        const sent = await agent.next<
          ChatMessage & { attachments: { file_name: string; url: string }[] }
        >('message.created', (m) => m.sender_type === 'visitor');
        expect(sent.attachments.map((a) => a.file_name)).toEqual(['receipt.png']);
        const log = frame.getByRole('log', { name: 'Messages' });
        const preview = log.getByRole('img', { name: 'receipt.png' });
        await preview.waitFor();
        // The preview shows the file at its download address (this app's PUBLIC_URL is
        // `localhost` while the browser uses 127.0.0.1, so the frame's CSP keeps the bytes out here).
        expect(await preview.getAttribute('src')).toBe(sent.attachments[0].url);

        // The agent sends a PDF back; the visitor gets a download link.
        const upload = await request(app.url)
          .post('/api/agent/attachments')
          .set('Authorization', `Bearer ${org.token}`)
          .attach('file', Buffer.from('%PDF-1.4\n%%EOF\n'), {
            filename: 'invoice.pdf',
            contentType: 'application/pdf',
          })
          .expect(201);
        await request(app.url)
          .post(`/api/agent/conversations/${sent.conversation_id}/messages`)
          .set('Authorization', `Bearer ${org.token}`)
          .send({ body: 'Your invoice.', attachment_ids: [upload.body.data.id] })
          .expect(201);
        const link = log.getByRole('link', { name: 'Download invoice.pdf' });
        await link.waitFor();
        const href = await link.getAttribute('href');
        const file = await fetch(`${service}${new URL(href!).pathname}`);
        expect(file.status).toBe(200);
        expect(file.headers.get('content-disposition')).toContain('invoice.pdf');
        expect(file.headers.get('x-content-type-options')).toBe('nosniff');

        // A file of a refused type is explained, not sent.
        await frame.getByLabel('Attach a file').setInputFiles({
          name: 'tool.exe',
          mimeType: 'application/octet-stream',
          buffer: Buffer.from('MZ'),
        });
        await frame.getByRole('alert').waitFor();
        expect(await frame.getByRole('alert').textContent()).toContain('not accepted');
      } finally {
        agent.close();
        await host.close();
      }
    },
  );

  step(
    'with the ticket form chosen, says nobody is online and turns the message into a ticket the visitor sees confirmed',
    async () => {
      const org = await register(app.url);
      await request(app.url)
        .patch(`/api/agent/sites/${org.site.id}`)
        .set('Authorization', `Bearer ${org.token}`)
        .send({ widget_settings: { offline: { mode: 'ticket_form' } } })
        .expect(200);
      const host = await openHost(org);
      try {
        const { page } = host;
        await openChat(page);
        const frame = frameOf(page);
        await frame.getByText('We are away right now').waitFor({ timeout: 15_000 });
        expect(await frame.getByRole('textbox', { name: 'Message', exact: true }).count()).toBe(0);
        await typeInto(frame.getByRole('textbox', { name: 'Name' }), 'Ada Lovelace');
        await typeInto(frame.getByRole('textbox', { name: 'Email' }), 'ada@example.com');
        await typeInto(
          frame.getByRole('textbox', { name: 'Your message' }),
          'Do you ship to Norway?\nThanks!',
        );
        await frame.getByRole('button', { name: 'Leave a message' }).click();
        const done = frame.getByRole('status').filter({ hasText: 'Your message is ticket' });
        // Either the confirmation or an error the form shows; an error fails with its words.
        const refused = frame.getByRole('alert');
        await done.or(refused).first().waitFor({ timeout: 60_000 });
        expect(await refused.allTextContents()).toEqual([]);
        const number = /ticket (\S+)\. /.exec((await done.textContent()) ?? '')?.[1];
        const { rows } = await db.query(
          'SELECT source, subject, customer_email FROM tickets WHERE ticket_number = $1',
          [number],
        );
        expect(rows).toEqual([
          {
            source: 'widget',
            subject: 'Do you ship to Norway?',
            customer_email: 'ada@example.com',
          },
        ]);
      } finally {
        await host.close();
      }
    },
  );

  step(
    'with the ticket form chosen, shows only the offline form while nobody is online, even with a pre-chat form on',
    async () => {
      const org = await register(app.url);
      await request(app.url)
        .patch(`/api/agent/sites/${org.site.id}`)
        .set('Authorization', `Bearer ${org.token}`)
        .send({
          widget_settings: { pre_chat_form: { enabled: true }, offline: { mode: 'ticket_form' } },
        })
        .expect(200);
      const host = await openHost(org);
      try {
        const { page } = host;
        await openChat(page);
        const frame = frameOf(page);
        await frame.getByRole('button', { name: 'Leave a message' }).waitFor({ timeout: 15_000 });
        expect(await frame.getByRole('button', { name: 'Start chat' }).count()).toBe(0);
        expect(await frame.getByText('Before we start').count()).toBe(0);
        expect(await frame.locator('form').count()).toBe(1);
        expect(
          await seriousAxeViolations(page.frames().find((f) => f.url().includes('/widget/'))!),
        ).toEqual([]);

        // Someone comes online: the offline form gives way to the pre-chat form, still one form.
        await request(app.url)
          .patch('/api/agent/presence')
          .set('Authorization', `Bearer ${org.token}`)
          .send({ status: 'online' })
          .expect(200);
        await frame.getByRole('button', { name: 'Start chat' }).waitFor({ timeout: 15_000 });
        expect(await frame.getByRole('button', { name: 'Leave a message' }).count()).toBe(0);
      } finally {
        await host.close();
      }
    },
  );

  step(
    'draws nothing on a page whose domain is not allowed, and says why once in the console',
    async () => {
      const org = await registerOrganization(app.url);
      await request(app.url)
        .patch(`/api/agent/sites/${org.site.id}`)
        .set('Authorization', `Bearer ${org.token}`)
        .send({ allowed_domains: ['shop.example.test'] })
        .expect(200);
      const site = await startHostSite({ '/': hostPage(service, org.site.widget_key) });
      const page = await browser.newPage();
      const warnings: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'warning') warnings.push(message.text());
      });
      try {
        const refused = page.waitForResponse((res) => res.url().includes('/api/widget/config'), {
          timeout: 10_000,
        });
        await page.goto(site.url);
        expect((await refused).status()).toBe(403);
        await eventually(async () => warnings.length > 0);
        // Time for anything that would still be drawn (the frame loads when the page is idle).
        await new Promise((resolve) => setTimeout(resolve, 1000));
        expect(await page.locator('[data-support-chat]').count()).toBe(0);
        expect(await page.locator('iframe').count()).toBe(0);
        expect(warnings).toEqual([
          `Support chat is not shown on ${site.url}: This origin is not in the site's allowed domains.`,
        ]);
      } finally {
        await page.close();
        await site.close();
      }
    },
  );

  step("takes its look from the site's appearance settings", async () => {
    const org = await registerOrganization(app.url);
    await request(app.url)
      .patch(`/api/agent/sites/${org.site.id}`)
      .set('Authorization', `Bearer ${org.token}`)
      .send({
        widget_settings: {
          appearance: {
            color: '#7c3aed',
            position: 'left',
            greeting: 'Welcome to Acme! Ask us about your order.',
            launcher_label: 'Ask Acme',
          },
        },
      })
      .expect(200);
    const host = await openHost(org);
    try {
      const { page } = host;
      const launcher = page.getByRole('button', { name: 'Open chat' });
      await page.getByText('Ask Acme').waitFor({ timeout: 15_000 });
      expect(
        await launcher.evaluate(
          (el) => (globalThis as unknown as Browser).getComputedStyle(el).backgroundColor,
        ),
      ).toBe('rgb(124, 58, 237)');
      expect((await launcher.boundingBox())!.x).toBeLessThan(100);
      await launcher.click();
      await frameOf(page)
        .getByText('Welcome to Acme! Ask us about your order.')
        .waitFor({ timeout: 15_000 });
      expect((await page.locator('iframe[title="Chat"]').boundingBox())!.x).toBeLessThan(100);
    } finally {
      await host.close();
    }
  });

  step('fills the screen on a phone', async () => {
    const org = await registerOrganization(app.url);
    const phone = await launchBrowser({ viewport: { width: 390, height: 844 }, isMobile: true });
    const viewport = '<meta name="viewport" content="width=device-width, initial-scale=1">';
    const site = await startHostSite({
      '/': hostPage(service, org.site.widget_key).replace('<head>', `<head>${viewport}`),
    });
    try {
      const page = await phone.newPage();
      await page.goto(site.url);
      await openChat(page);
      await frameOf(page).getByRole('textbox', { name: 'Message' }).waitFor({ timeout: 15_000 });
      const box = await page.locator('iframe[title="Chat"]').boundingBox();
      expect(box).toEqual({ x: 0, y: 0, width: 390, height: 844 });
      await frameOf(page).getByRole('button', { name: 'Minimize chat' }).click();
      await page.getByRole('button', { name: 'Open chat' }).waitFor();
      expect(
        await page
          .getByRole('button', { name: 'Open chat' })
          .evaluate((el) => el === el.getRootNode().activeElement || el.matches(':focus')),
      ).toBe(true);
    } finally {
      await phone.close();
      await site.close();
    }
  });

  step('leaves the host page working when the service is down', async () => {
    const site = await startHostSite({
      '/': `${hostPage('http://127.0.0.1:9', 'wk_unreachable')}<script>document.title='still working'</script>`,
    });
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(String(error)));
    try {
      await page.goto(site.url);
      await page.getByRole('heading', { name: 'Shop' }).waitFor();
      expect(await page.title()).toBe('still working');
      expect(errors).toEqual([]);
    } finally {
      await page.close();
      await site.close();
    }
  });
});
