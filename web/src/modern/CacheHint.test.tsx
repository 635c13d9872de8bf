import { describe, expect, it } from 'vitest';
import { cacheDetails, cacheSummary } from './CacheHint';

describe('cache line words', () => {
  it('says a cached list is cached and how old, with the hints in the details', () => {
    const info = { ttlMs: 60_000, cacheScope: 'public', cached: { ageMs: 3_200, ttlMs: 60_000 } };
    expect(cacheSummary(info)).toBe('Cached 3 s ago');
    expect(cacheDetails(info)).toMatch(/fresh for 1 min · public \(the same for every user\)/);
    expect(cacheDetails(info)).toMatch(/from its cache, 3 s old/);
  });

  it('says a live list is live and for how long it may be kept', () => {
    expect(cacheSummary({ ttlMs: 60_000, cacheScope: 'public' })).toBe('Live · kept 1 min');
    expect(cacheSummary({ cacheScope: 'private' })).toBe('Live · not cached');
    expect(cacheDetails({ cacheScope: 'private' })).toMatch(/not cacheable · private \(for this user only\)/);
  });
});
