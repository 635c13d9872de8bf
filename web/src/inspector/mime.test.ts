import { describe, expect, it } from 'vitest';
import { base64Size, decodeBase64Text, isTextMime } from './mime';

describe('mime', () => {
  it('knows which blobs are text', () => {
    for (const m of ['text/plain', 'text/markdown; charset=utf-8', 'application/json', 'application/ld+json', 'image/svg+xml']) expect(isTextMime(m)).toBe(true);
    for (const m of ['image/png', 'application/octet-stream', 'application/pdf']) expect(isTextMime(m)).toBe(false);
  });
  it('decodes base64 UTF-8 and refuses binary', () => {
    expect(decodeBase64Text(btoa('hello, world'))).toBe('hello, world');
    expect(decodeBase64Text(Buffer.from('héllo ✓').toString('base64'))).toBe('héllo ✓');
    expect(decodeBase64Text(Buffer.from([0xff, 0xfe, 0x00]).toString('base64'))).toBeNull();
    expect(base64Size(btoa('abcd'))).toBe(4);
  });
});
