/**
 * The postMessage protocol between the loader (host page) and the chat frame (service origin).
 * Each side accepts messages only from the other's window and origin.
 */
export interface MessageSummary {
  id: number;
  body: string;
  sender_type: string;
  created_at: string;
}

export type FrameToHost =
  | { type: 'hello' }
  | { type: 'ready'; visitor_id: number }
  | {
      type: 'config';
      color: string;
      /** The launcher's text and icon colour on `color` (chosen for contrast). */
      text_color: string;
      position: 'left' | 'right';
      launcher_label: string;
      labels: { open: string; close: string; unread: string };
    }
  | { type: 'unread'; count: number }
  | { type: 'message'; message: MessageSummary }
  | { type: 'close' }
  /** Where the browser refuses the frame storage (third-party), the host page keeps these. */
  | { type: 'store'; values: Record<string, string | null> }
  | { type: 'bye' };

export type HostToFrame =
  /** The host page's copy of the frame's session, sent once in answer to the frame's hello. */
  | { type: 'session'; values: Record<string, string> }
  | { type: 'open' }
  | { type: 'close' }
  | { type: 'shutdown' }
  | { type: 'identify'; name?: string; email?: string; phone?: string }
  /** The host page the visitor is on: at the start and whenever its address or title changes. */
  | { type: 'page'; url: string; title: string; referrer: string };
