import { BoundedMap } from './bounded-map';

describe('BoundedMap', () => {
  it('forgets the oldest entry when a new key arrives on a full map', () => {
    const map = new BoundedMap<string, number>(2);
    map.set('a', 1).set('b', 2).set('c', 3);
    expect([...map.keys()]).toEqual(['b', 'c']);
  });

  it('makes a key set again the newest, without forgetting another', () => {
    const map = new BoundedMap<string, number>(2);
    map.set('a', 1).set('b', 2).set('a', 10);
    expect([...map.entries()]).toEqual([
      ['b', 2],
      ['a', 10],
    ]);
    map.set('c', 3);
    expect([...map.keys()]).toEqual(['a', 'c']);
  });
});
