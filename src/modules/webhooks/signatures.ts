import { createHmac } from 'node:crypto';

/**
 * `X-Service-Signature`: lowercase hex HMAC-SHA256 of the raw body keyed with the signing secret
 * as it is shown (the spec's verification recipe, DESIGN section 6).
 */
export function serviceSignature(secret: string, body: string): string {
  return createHmac('sha256', secret).update(body, 'utf8').digest('hex');
}

/**
 * Standard Webhooks `webhook-signature`: `v1,` + base64 HMAC-SHA256 of `{id}.{timestamp}.{body}`,
 * keyed with the base64 part of a `whsec_` secret (the whole secret for any other form).
 */
export function standardSignature(
  secret: string,
  id: string,
  timestamp: number,
  body: string,
): string {
  const key = secret.startsWith('whsec_')
    ? Buffer.from(secret.slice('whsec_'.length), 'base64')
    : Buffer.from(secret, 'utf8');
  const mac = createHmac('sha256', key)
    .update(`${id}.${timestamp}.${body}`, 'utf8')
    .digest('base64');
  return `v1,${mac}`;
}

/** Every header of one delivery attempt. */
export function deliveryHeaders(input: {
  event: string;
  deliveryId: string;
  body: string;
  secret: string | null;
  now?: number;
}): Record<string, string> {
  const timestamp = Math.floor((input.now ?? Date.now()) / 1000);
  return {
    'content-type': 'application/json',
    'user-agent': 'SupportChatService-Webhooks/1',
    'x-service-event': input.event,
    'x-service-delivery': input.deliveryId,
    'webhook-id': input.deliveryId,
    'webhook-timestamp': String(timestamp),
    ...(input.secret
      ? {
          'x-service-signature': serviceSignature(input.secret, input.body),
          'webhook-signature': standardSignature(
            input.secret,
            input.deliveryId,
            timestamp,
            input.body,
          ),
        }
      : {}),
  };
}
