import { describe, expect, it } from 'vitest';
import { declarePositionTab, positionTabs } from './positionTabs';

const none = () => Promise.resolve({ default: () => null });

// Each test file has its own modules: the tabs declared here are this file's only.
describe('position tabs', () => {
  declarePositionTab({ key: 'placement', label: { tw: '配售', en: 'Placement' }, order: 60, load: none });
  declarePositionTab({ key: 'chipgrab', label: { tw: '搶籌', en: 'Chip bidding' }, order: 10, load: none });
  declarePositionTab({ key: 'auction', label: { tw: '競拍', en: 'Auction' }, order: 20, load: none });

  it('lists the declared tabs in their order, labelled in the language', () => {
    expect(positionTabs('tw').map((t) => `${t.key} ${t.text}`)).toEqual(['chipgrab 搶籌', 'auction 競拍', 'placement 配售']);
    expect(positionTabs('en').map((t) => t.text)).toEqual(['Chip bidding', 'Auction', 'Placement']);
  });

  it('replaces a tab declared again', () => {
    declarePositionTab({ key: 'auction', label: { tw: '競價拍賣', en: 'Auction' }, order: 20, load: none });
    expect(positionTabs('tw').map((t) => t.text)).toEqual(['搶籌', '競價拍賣', '配售']);
  });
});
