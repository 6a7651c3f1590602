// Unit tests of src/domain/media.ts: the media kind of a custom post (contract §7).
import { describe, expect, it } from 'vitest';
import { mediaKindOfFile } from '../../src/domain/media.js';

describe('mediaKindOfFile', () => {
  it.each([
    ['', 'text'],
    ['https://e.com/a.mp4', 'video'],
    ['https://e.com/a.MP4', 'video'],
    ['https://e.com/a.mov', 'video'],
    ['https://e.com/a.MOV', 'video'],
    ['https://e.com/a.webm', 'video'],
    ['https://e.com/a.m4v', 'video'],
    ['https://e.com/a.mp4?x=1', 'video'],
    ['https://e.com/a.mp4#t=3', 'video'],
    ['https://e.com/a.jpg', 'image'],
    ['https://e.com/a.mp4.jpg', 'image'],
    ['https://e.com/a.jpg?f=.mp4', 'image'],
    ['https://e.com/mp4', 'image'],
    ['https://e.com/a.mp3', 'image'],
    ['https://e.com/', 'image'],
  ] as const)('%j → %s', (file, kind) => {
    expect(mediaKindOfFile(file)).toBe(kind);
  });
});
