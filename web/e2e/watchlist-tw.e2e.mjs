// Issue 14 item 4 (watchlist groups, price alerts, holdings summary) in Traditional Chinese.
import { watchlistJourney } from './watchlist.mjs';

watchlistJourney('tw');
