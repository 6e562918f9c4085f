package calendar

// twseHolidays are the weekdays on which the TWSE does not trade.
//
// 2026 (民國115年) is the official schedule the TWSE published on 2025-10-29 ("115年有價證券集中
// 交易市場開(休)市日期表", as reported by udn.com and ETtoday that day). Feb 12-13 are "no trading,
// settlement only" days; they are not trading days, so they are holidays here.
//
// 2027 (民國116年): the TWSE had not published its schedule when this table was written (it does so
// around late October of the year before). These dates are the EXPECTED schedule, derived from the
// Commemorative Days and Holidays rules the 2026 schedule follows: the day before Lunar New Year's
// Eve, the Eve and the first three days of the Lunar New Year are holidays; a holiday on a Saturday
// moves to the Friday before and one on a Sunday to the Monday after (Lunar New Year days on a
// weekend move to the next working days); the market stops trading on the two working days before
// the Lunar New Year holidays. Replace them with the official list once the TWSE publishes it.
var twseHolidays = []struct{ date, name string }{
	// 2026, official.
	{"2026-01-01", "Founding of the Republic of China"},
	{"2026-02-12", "No trading before Lunar New Year (settlement only)"},
	{"2026-02-13", "No trading before Lunar New Year (settlement only)"},
	{"2026-02-16", "Lunar New Year's Eve"},
	{"2026-02-17", "Lunar New Year"},
	{"2026-02-18", "Lunar New Year"},
	{"2026-02-19", "Lunar New Year"},
	{"2026-02-20", "Lunar New Year (observed, for Feb 15)"},
	{"2026-02-27", "Peace Memorial Day (observed, for Feb 28)"},
	{"2026-04-03", "Children's Day (observed, for Apr 4)"},
	{"2026-04-06", "Tomb Sweeping Day (observed, for Apr 5)"},
	{"2026-05-01", "Labour Day"},
	{"2026-06-19", "Dragon Boat Festival"},
	{"2026-09-25", "Mid-Autumn Festival"},
	{"2026-09-28", "Teachers' Day (Confucius' Birthday)"},
	{"2026-10-09", "National Day (observed, for Oct 10)"},
	{"2026-10-26", "Taiwan Retrocession Day (observed, for Oct 25)"},
	{"2026-12-25", "Constitution Day"},

	// 2027, expected (see above).
	{"2027-01-01", "Founding of the Republic of China"},
	{"2027-02-02", "No trading before Lunar New Year (settlement only, expected)"},
	{"2027-02-03", "No trading before Lunar New Year (settlement only, expected)"},
	{"2027-02-04", "Day before Lunar New Year's Eve (expected)"},
	{"2027-02-05", "Lunar New Year's Eve (expected)"},
	{"2027-02-08", "Lunar New Year (expected)"},
	{"2027-02-09", "Lunar New Year (observed, for Feb 6, expected)"},
	{"2027-02-10", "Lunar New Year (observed, for Feb 7, expected)"},
	{"2027-03-01", "Peace Memorial Day (observed, for Feb 28, expected)"},
	{"2027-04-05", "Tomb Sweeping Day (expected)"},
	{"2027-04-06", "Children's Day (observed, for Apr 4, expected)"},
	{"2027-04-30", "Labour Day (observed, for May 1, expected)"},
	{"2027-06-09", "Dragon Boat Festival (expected)"},
	{"2027-09-15", "Mid-Autumn Festival (expected)"},
	{"2027-09-28", "Teachers' Day (Confucius' Birthday, expected)"},
	{"2027-10-11", "National Day (observed, for Oct 10, expected)"},
	{"2027-10-25", "Taiwan Retrocession Day (expected)"},
	{"2027-12-24", "Constitution Day (observed, for Dec 25, expected)"},
}
