import {
  AppstoreOutline,
  BillOutline,
  FileOutline,
  FireFill,
  FolderOutline,
  GiftOutline,
  HistogramOutline,
  MessageOutline,
  PayCircleOutline,
  PieOutline,
  SearchOutline,
  SoundOutline,
  StarOutline,
} from 'antd-mobile-icons';
import type { ComponentType } from 'react';

// The icons entries may name (lib/entries.ts). They are imported here, by the screens that show
// entries, and not by the routes that declare them: the routes are in the first route's bundle.
const icons: Record<string, ComponentType> = {
  market: HistogramOutline,
  chart: PieOutline,
  star: StarOutline,
  pay: PayCircleOutline,
  bill: BillOutline,
  review: FileOutline,
  search: SearchOutline,
  service: MessageOutline,
  folder: FolderOutline,
  fire: FireFill,
  news: SoundOutline,
  gift: GiftOutline,
};

/** An entry's icon by name; a generic one for a name not in the set. */
export function EntryIcon({ name }: { name?: string }) {
  const Icon = (name && icons[name]) || AppstoreOutline;
  return <Icon />;
}
