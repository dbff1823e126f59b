import { api, ApiError, unwrap } from './client';
import type { Attachment, Message } from './queries';
import { agentChannel } from './socket';

/** What one reply carries, taken from the box when the agent sends it. */
export interface ReplyDraft {
  text: string;
  files: Attachment[];
  note: boolean;
}

/** A reply on its way: shown "Sending…" in its conversation until the server has it. */
export interface PendingReply {
  key: string;
  conversationId: number;
  draft: ReplyDraft;
}

interface Entry extends PendingReply {
  /** Its message was pushed already (the push can beat the send's own answer): not shown. */
  arrived?: boolean;
  onSent: (message: Message) => void;
  onRefused: (error: Error, draft: ReplyDraft) => void;
}

/** How soon a send cut off by the network is tried again (also on every reconnect). */
const RETRY_MS = 2_000;

/**
 * The agent's replies in the order written, sent one at a time. While the connection is down
 * (the live channel says so, or a send found no network) they wait, visibly pending, and go out
 * in order once it is back; a refusal by the server (4xx) gives the reply back to its box. It
 * lives outside the components so a reply survives switching conversations.
 */
class ReplyOutbox {
  private entries: Entry[] = [];
  private snapshot: readonly PendingReply[] = [];
  private readonly listeners = new Set<() => void>();
  private busy = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private counter = 0;
  private watching = false;

  add(
    conversationId: number,
    draft: ReplyDraft,
    callbacks: Pick<Entry, 'onSent' | 'onRefused'>,
  ): void {
    this.watch();
    this.counter += 1;
    this.entries.push({ key: `r${this.counter}`, conversationId, draft, ...callbacks });
    this.changed();
    void this.flush();
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  pending = (): readonly PendingReply[] => this.snapshot;

  private watch(): void {
    if (this.watching) return;
    this.watching = true;
    agentChannel.on('connected', (up) => {
      if (up) void this.flush();
    });
    // The reply being sent, pushed before its answer came back: the thread shows it already.
    agentChannel.on('message.created', (message) => {
      const sending = this.entries[0];
      if (
        this.busy &&
        sending &&
        !sending.arrived &&
        message.conversation_id === sending.conversationId &&
        message.sender_type === 'agent' &&
        message.private === sending.draft.note &&
        message.body.trim() === sending.draft.text.trim()
      ) {
        sending.arrived = true;
        this.changed();
      }
    });
  }

  private changed(): void {
    this.snapshot = this.entries
      .filter((entry) => !entry.arrived)
      .map(({ key, conversationId, draft }) => ({ key, conversationId, draft }));
    for (const listener of this.listeners) listener();
  }

  private async flush(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    clearTimeout(this.timer);
    try {
      for (;;) {
        const entry = this.entries[0];
        if (!entry || !agentChannel.connected) return;
        let message: Message;
        try {
          message = await post(entry);
        } catch (error) {
          if (!isRefusal(error)) {
            this.timer = setTimeout(() => void this.flush(), RETRY_MS);
            return;
          }
          this.entries.shift();
          this.changed();
          entry.onRefused(error as Error, entry.draft);
          continue;
        }
        this.entries.shift();
        entry.onSent(message);
        this.changed();
      }
    } finally {
      this.busy = false;
    }
  }
}

/** A refusal by the server, as opposed to no answer at all (offline, a restart, a 5xx). */
function isRefusal(error: unknown): boolean {
  return error instanceof ApiError && error.status >= 400 && error.status < 500;
}

async function post({ conversationId, draft }: PendingReply): Promise<Message> {
  const result = await unwrap(
    api.POST('/api/agent/conversations/{conversation}/messages', {
      params: { path: { conversation: conversationId } },
      body: draft.files.length
        ? {
            body: draft.text,
            private: draft.note,
            attachment_ids: draft.files.map((file) => file.id),
          }
        : { body: draft.text, private: draft.note },
    }),
  );
  return result.data;
}

export const replyOutbox = new ReplyOutbox();
