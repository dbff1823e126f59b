import { prefixTsQuery } from './search-query';

describe('prefixTsQuery', () => {
  it('matches every word as a prefix', () => {
    expect(prefixTsQuery('Refund  card')).toBe('refund:* & card:*');
  });

  it('keeps letters of any script and digits, and drops operators', () => {
    expect(prefixTsQuery("élan & !x | 'y' 42")).toBe('élan:* & x:* & y:* & 42:*');
  });

  it('answers undefined without a word', () => {
    expect(prefixTsQuery(' &|!:* ')).toBeUndefined();
  });

  it('takes at most ten words', () => {
    expect(prefixTsQuery('a b c d e f g h i j k l')?.split(' & ')).toHaveLength(10);
  });
});
