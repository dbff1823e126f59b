import { createHmac } from 'node:crypto';
import { deliveryHeaders, serviceSignature, standardSignature } from './signatures';

describe('webhook signatures', () => {
  it('matches the DESIGN test vector', () => {
    expect(serviceSignature("It's a Secret to Everybody", 'Hello, World!')).toBe(
      '757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17',
    );
  });

  it('signs id.timestamp.body with the decoded whsec_ key (Standard Webhooks)', () => {
    const key = Buffer.from('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'base64');
    const secret = `whsec_${key.toString('base64')}`;
    const expected = createHmac('sha256', key)
      .update('msg_1.1614265330.{"test": 2432232314}')
      .digest('base64');
    expect(standardSignature(secret, 'msg_1', 1614265330, '{"test": 2432232314}')).toBe(
      `v1,${expected}`,
    );
  });

  it('sends the signatures only when the endpoint has a secret', () => {
    const signed = deliveryHeaders({
      event: 'message.received',
      deliveryId: 'd-1',
      body: '{}',
      secret: 'whsec_c2VjcmV0',
      now: 1_700_000_000_000,
    });
    expect(signed).toMatchObject({
      'x-service-event': 'message.received',
      'x-service-delivery': 'd-1',
      'webhook-id': 'd-1',
      'webhook-timestamp': '1700000000',
      'x-service-signature': serviceSignature('whsec_c2VjcmV0', '{}'),
    });
    const unsigned = deliveryHeaders({
      event: 'ping',
      deliveryId: 'd-2',
      body: '{}',
      secret: null,
    });
    expect(unsigned['x-service-signature']).toBeUndefined();
    expect(unsigned['webhook-signature']).toBeUndefined();
  });
});
