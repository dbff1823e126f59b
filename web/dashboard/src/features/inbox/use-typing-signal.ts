import { useEffect, useRef } from 'react';
import { agentChannel } from '../../api/socket';

const TYPING_IDLE_MS = 2_500;

/**
 * "Agent is typing" for the visitor: on with the first key of a reply (never of a private note),
 * off after a pause, on sending, and when the conversation is switched or closed.
 */
export function useTypingSignal(conversationId: number) {
  const typingTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const typing = useRef(false);

  const stopTyping = () => {
    clearTimeout(typingTimer.current);
    if (typing.current) agentChannel.typing(conversationId, false);
    typing.current = false;
  };
  // A switched or closed conversation is not being typed in any more (the view is keyed by id).
  useEffect(() => {
    return () => {
      clearTimeout(typingTimer.current);
      if (typing.current) agentChannel.typing(conversationId, false);
      typing.current = false;
    };
  }, [conversationId]);

  const typed = (value: string, note: boolean) => {
    if (!typing.current && value.trim() && !note) {
      typing.current = true;
      agentChannel.typing(conversationId, true);
    }
    clearTimeout(typingTimer.current);
    typingTimer.current = setTimeout(stopTyping, TYPING_IDLE_MS);
  };
  return { stopTyping, typed };
}
