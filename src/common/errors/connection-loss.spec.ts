import { isConnectionLoss } from './connection-loss';

describe('isConnectionLoss', () => {
  it('recognises dropped database and socket connections', () => {
    expect(isConnectionLoss(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(
      isConnectionLoss(Object.assign(new Error('terminating connection'), { code: '57P01' })),
    ).toBe(true);
    expect(isConnectionLoss(Object.assign(new Error('read'), { code: 'ECONNRESET' }))).toBe(true);
  });

  it('leaves every other error to crash the process', () => {
    expect(isConnectionLoss(new TypeError('x is undefined'))).toBe(false);
    expect(isConnectionLoss('Connection terminated')).toBe(false);
  });
});
