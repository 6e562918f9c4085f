package httpx

import (
	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/events"
)

// Window is a channel's time window on the wire (no weekdays as an empty list).
func Window(w events.TimeWindow) wire.TimeWindow {
	days := w.Weekdays
	if days == nil {
		days = []int{}
	}
	return wire.TimeWindow{Weekdays: days, Open: w.Open, Close: w.Close, Tz: w.TZ,
		ClosedOnHolidays: w.ClosedOnHolidays, AlwaysOpen: w.AlwaysOpen}
}

// Payee is a deposit channel's payee on the wire (empty fields when it names none).
func Payee(p events.Payee) wire.Payee {
	return wire.Payee{Bank: p.Bank, Branch: p.Branch, Account: p.Account, Name: p.Name}
}
