// The first deposit journey in Traditional Chinese (the default language).
import { journey } from './journey.mjs';

journey('tw', '2500');
