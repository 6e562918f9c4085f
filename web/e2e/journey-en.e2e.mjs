// The first deposit journey in English (?lang=en), with a decimal amount.
import { journey } from './journey.mjs';

journey('en', '3000.5');
