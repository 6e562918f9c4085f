// Issue 14 item 4 (watchlist groups, price alerts, holdings summary) in English.
import { watchlistJourney } from './watchlist.mjs';

watchlistJourney('en');
