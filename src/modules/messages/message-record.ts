import type { AttachmentDto } from '../attachments/attachments.dto';
import type { MessageAction, MessageRow, SenderType } from './messages.repository';

export type { MessageAction, SenderType };

/**
 * A message as the other features see it (issue 32, point 7): what `MessagesService` answers,
 * mapped once from the table's row here, so no feature but this one depends on `MessageRow`.
 */
export interface MessageRecord {
  id: string;
  conversationId: string;
  senderType: SenderType;
  senderId: string | null;
  body: string;
  type: string;
  attachments: AttachmentDto[];
  private: boolean;
  /** A visitor's (or agent's) emailed message from another address than the one mailed. */
  senderMismatch: boolean;
  /** Buttons under a bot message (the answer bot's "That helped" and "Talk to a person"). */
  actions: MessageAction[] | null;
  createdAt: Date;
  /** An agent sender's name and avatar as they are now (what the widget shows); else null. */
  senderName: string | null;
  senderAvatarToken: string | null;
}

export const toMessageRecord = (row: MessageRow): MessageRecord => ({
  id: row.id,
  conversationId: row.conversation_id,
  senderType: row.sender_type,
  senderId: row.sender_id,
  body: row.body,
  type: row.type,
  attachments: row.attachments,
  private: row.private,
  senderMismatch: row.sender_mismatch,
  actions: row.actions,
  createdAt: row.created_at,
  senderName: row.sender_name,
  senderAvatarToken: row.sender_avatar_token,
});
