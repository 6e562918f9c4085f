import { describe, expect, it } from 'vitest';
import { pickText, type SiteText } from './siteTexts';

const list: SiteText[] = [
  { name: 'about', lang: 'tw', text: '第一段\n\n第二段\n同一段' },
  { name: 'about', lang: 'en', text: '   ' },
  { name: 'fees', lang: 'en', text: '<script>alert(1)</script>' },
];

describe('pickText', () => {
  it('splits ops text into paragraphs on blank lines', () => {
    expect(pickText(list, 'about', 'tw')).toEqual(['第一段', '第二段\n同一段']);
  });
  it('falls back (null) when ops wrote nothing in that language', () => {
    expect(pickText(list, 'about', 'en')).toBeNull();
    expect(pickText(list, 'agreement', 'tw')).toBeNull();
    expect(pickText(undefined, 'about', 'tw')).toBeNull();
  });
  it('keeps markup as text (rendered as text, never HTML)', () => {
    expect(pickText(list, 'fees', 'en')).toEqual(['<script>alert(1)</script>']);
  });
});
