import {
  awaitingRating,
  chatReducer,
  currentConversation,
  initialChat,
  lastMessageId,
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
    expect(lastMessageId(state)).toBe(7);
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
