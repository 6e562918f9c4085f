// Issue 6's money journey in Traditional Chinese.
import { walletJourney } from './wallet.mjs';

walletJourney('tw');
