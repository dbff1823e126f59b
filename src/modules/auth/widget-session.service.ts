import { Injectable } from '@nestjs/common';
import { SecretBoxService } from '../../common/crypto/secret-box.service';
import {
  issueWidgetSession,
  verifyWidgetSession,
  type WidgetSession,
} from './widget-session-token';

export type { WidgetSession } from './widget-session-token';

/**
 * Widget session tokens (widget-session-token.ts), signed under a key every instance derives
 * from the master key (HKDF; tokens signed under a previous key still verify while it is in
 * SECRETS_KEY_PREVIOUS). Verifying needs no database round trip, which matters for Socket.IO
 * handshakes and every widget call.
 */
@Injectable()
export class WidgetSessionService {
  constructor(private readonly secrets: SecretBoxService) {}

  issue(session: WidgetSession, now = Date.now()): string {
    const [key] = this.secrets.widgetSessionKeys();
    return issueWidgetSession(key, session, now);
  }

  /** The session and when it lapses, or undefined for anything forged, malformed or expired. */
  verify(token: string, now = Date.now()): (WidgetSession & { expiresAt: Date }) | undefined {
    return verifyWidgetSession(this.secrets.widgetSessionKeys(), token, now);
  }
}
