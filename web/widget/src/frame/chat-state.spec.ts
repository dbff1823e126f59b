import {
  answeringAgent,
  awaitingRating,
  chatReducer,
  chatSurface,
  currentConversation,
  initialChat,
  type Message,
  mergeMessages,
  preChatDue,
  unreadCount,
} from './chat-state';

const message = (
  id: number,
  sender: Message['sender_type'] = 'agent',
  conversation = 1,
): Message => ({
  id,
  conversation_id: conversation,
  body: `m${id}`,
  sender_type: sender,
  created_at: '2026-11-23T10:00:00.000Z',
  attachments: [],
});

describe('the chat state', () => {
  it('shows a message once however often it arrives (push, ack, catch-up), in id order', () => {
    const merged = mergeMessages([message(1), message(3)], [message(3), message(2), message(2)]);
    expect(merged.map((m) => m.id)).toEqual([1, 2, 3]);
    const same = [message(1)];
    expect(mergeMessages(same, [message(1)])).toBe(same);
  });

  it('replaces an optimistic message by the confirmed one, and keeps a failed one for retry', () => {
    let state = chatReducer(initialChat(), { type: 'sending', clientId: 'a', body: 'hi' });
    state = chatReducer(state, { type: 'sending', clientId: 'b', body: 'there' });
    expect(state.pending.map((p) => p.state)).toEqual(['sending', 'sending']);
    // The push of the message can come before its ack: still one message.
    state = chatReducer(state, { type: 'received', messages: [message(7, 'visitor')] });
    state = chatReducer(state, { type: 'sent', clientId: 'a', message: message(7, 'visitor') });
    state = chatReducer(state, { type: 'failed', clientId: 'b' });
    expect(state.messages.map((m) => m.id)).toEqual([7]);
    expect(state.pending).toEqual([{ clientId: 'b', body: 'there', state: 'failed' }]);
    state = chatReducer(state, { type: 'retrying', clientId: 'b' });
    expect(state.pending[0].state).toBe('sending');
  });

  it('never shows a sent message twice while its push is in before its ack', () => {
    let state = chatReducer(initialChat(), { type: 'sending', clientId: 'a', body: 'Thanks!' });
    state = chatReducer(state, { type: 'sending', clientId: 'b', body: 'Thanks!' });
    state = chatReducer(state, {
      type: 'sending',
      clientId: 'c',
      body: 'with a file',
      attachmentIds: [4],
      fileNames: ['a.png'],
    });
    const pushed = { ...message(9, 'visitor'), body: 'Thanks!' };
    state = chatReducer(state, { type: 'received', messages: [pushed] });
    // The oldest of the two identical sends is confirmed; the other still waits for its own.
    expect(state.messages.map((m) => m.id)).toEqual([9]);
    expect(state.pending.map((p) => p.clientId)).toEqual(['b', 'c']);
    // A text without its file confirms nothing; the file send keeps what a retry needs.
    state = chatReducer(state, {
      type: 'received',
      messages: [{ ...message(10, 'visitor'), body: 'with a file' }],
    });
    expect(state.pending[1]).toMatchObject({ attachmentIds: [4], fileNames: ['a.png'] });
    state = chatReducer(state, { type: 'sent', clientId: 'a', message: pushed });
    expect(state.messages.map((m) => m.id)).toEqual([9, 10]);
    expect(state.pending.map((p) => p.clientId)).toEqual(['b', 'c']);
  });

  it('counts unread messages from the other side only, after the read position', () => {
    let state = chatReducer(initialChat(2), {
      type: 'received',
      messages: [message(1), message(2), message(3, 'visitor'), message(4), message(5, 'bot')],
    });
    expect(unreadCount(state)).toBe(2);
    state = chatReducer(state, { type: 'read', upTo: 5 });
    expect(unreadCount(state)).toBe(0);
    // A read position never goes back.
    expect(chatReducer(state, { type: 'read', upTo: 3 }).readUpTo).toBe(5);
  });

  it('stops showing the agent typing when its message arrives', () => {
    let state = chatReducer(initialChat(), { type: 'typing', isTyping: true });
    expect(state.agentTyping).toBe(true);
    state = chatReducer(state, { type: 'received', messages: [message(1)] });
    expect(state.agentTyping).toBe(false);
  });

  it('asks for a rating of a closed conversation with messages, once', () => {
    let state = chatReducer(initialChat(), {
      type: 'received',
      messages: [message(1, 'visitor', 9)],
    });
    expect(awaitingRating(state, 9)).toBe(false);
    state = chatReducer(state, { type: 'conversation', conversationId: 9, status: 'closed' });
    expect(awaitingRating(state, 9)).toBe(true);
    state = chatReducer(state, { type: 'rated', conversationId: 9 });
    expect(awaitingRating(state, 9)).toBe(false);
    // A message after the close belongs to a new conversation, which is the current one.
    state = chatReducer(state, { type: 'received', messages: [message(2, 'visitor', 10)] });
    expect(currentConversation(state, 9)).toBe(10);
  });

  it('asks the pre-chat form at once, or after delay_minutes of chat', () => {
    const base = { enabled: true, submitted: false, delayMinutes: 0, chatStartedAt: 0, now: 0 };
    expect(preChatDue(base)).toBe(true);
    expect(preChatDue({ ...base, submitted: true })).toBe(false);
    expect(preChatDue({ ...base, enabled: false })).toBe(false);
    const delayed = { ...base, delayMinutes: 2 };
    expect(preChatDue(delayed)).toBe(false);
    expect(preChatDue({ ...delayed, chatStartedAt: 1_000, now: 1_000 + 119_000 })).toBe(false);
    expect(preChatDue({ ...delayed, chatStartedAt: 1_000, now: 1_000 + 120_000 })).toBe(true);
  });
});

describe('chatSurface', () => {
  const base = {
    agentsOnline: true,
    withinBusinessHours: true,
    offlineMode: 'chat',
    inConversation: false,
    closed: false,
    preChatDue: false,
    emailKnown: false,
    emailAsked: false,
  };

  it('keeps the message box with nobody there, and asks for an email once the visitor wrote', () => {
    expect(chatSurface({ ...base, agentsOnline: false })).toEqual({
      away: true,
      form: undefined,
      askEmail: false,
    });
    expect(chatSurface({ ...base, withinBusinessHours: false, inConversation: true })).toEqual({
      away: true,
      form: undefined,
      askEmail: true,
    });
    expect(
      chatSurface({ ...base, agentsOnline: false, inConversation: true, emailKnown: true })
        .askEmail,
    ).toBe(false);
    expect(
      chatSurface({ ...base, agentsOnline: false, inConversation: true, emailAsked: true })
        .askEmail,
    ).toBe(false);
    expect(chatSurface({ ...base, inConversation: true }).askEmail).toBe(false);
  });

  it('shows the pre-chat form in chat mode whoever is there, never beside the ticket form', () => {
    expect(chatSurface({ ...base, preChatDue: true }).form).toBe('pre-chat');
    expect(chatSurface({ ...base, agentsOnline: false, preChatDue: true }).form).toBe('pre-chat');
    expect(
      chatSurface({ ...base, agentsOnline: false, preChatDue: true, offlineMode: 'ticket_form' })
        .form,
    ).toBe('offline');
  });

  it('never swaps a chat under way for the ticket form, whatever availability arrives', () => {
    const ticket = { ...base, offlineMode: 'ticket_form', agentsOnline: false };
    expect(chatSurface(ticket).form).toBe('offline');
    expect(chatSurface({ ...ticket, inConversation: true }).form).toBeUndefined();
    expect(chatSurface({ ...ticket, inConversation: true, closed: true }).form).toBe('offline');
    expect(chatSurface({ ...ticket, agentsOnline: true }).form).toBeUndefined();
  });
});

describe('answeringAgent', () => {
  const at = '2026-01-01T00:00:00.000Z';
  const message = (id: number, sender_type: 'visitor' | 'agent', sender_name: string | null) => ({
    id,
    conversation_id: 1,
    body: 'x',
    sender_type,
    created_at: at,
    attachments: [],
    sender_name,
    sender_avatar_url: sender_name ? `https://chat.example/api/avatars/${sender_name}` : null,
  });

  it('names the agent who wrote last, with the picture; nobody before an agent wrote', () => {
    const base = chatReducer(initialChat(), {
      type: 'received',
      messages: [message(1, 'visitor', null)],
    });
    expect(answeringAgent(base)).toBeUndefined();
    const answered = chatReducer(base, {
      type: 'received',
      messages: [
        message(2, 'agent', 'Ada'),
        message(3, 'agent', 'Bob'),
        message(4, 'visitor', null),
      ],
    });
    expect(answeringAgent(answered)).toEqual({
      name: 'Bob',
      avatarUrl: 'https://chat.example/api/avatars/Bob',
    });
  });
});
