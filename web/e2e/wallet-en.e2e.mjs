// Issue 6's money journey in English.
import { walletJourney } from './wallet.mjs';

walletJourney('en');
