package funds

import (
	"testing"

	"github.com/lotbook/lotbook/events"
)

func TestCleanPayee(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   events.Payee
		ok   bool
		want events.Payee
	}{
		{"none", events.Payee{}, true, events.Payee{}},
		{"full", events.Payee{Bank: " 台灣銀行 ", Branch: "館前分行", Account: "0123-456-789012", Name: "樂簿股份有限公司"}, true,
			events.Payee{Bank: "台灣銀行", Branch: "館前分行", Account: "0123-456-789012", Name: "樂簿股份有限公司"}},
		{"no branch", events.Payee{Bank: "Bank of Taiwan", Account: "1234 5678", Name: "Lotbook Ltd"}, true,
			events.Payee{Bank: "Bank of Taiwan", Account: "1234 5678", Name: "Lotbook Ltd"}},
		{"missing bank", events.Payee{Account: "12345678", Name: "Lotbook"}, false, events.Payee{}},
		{"missing name", events.Payee{Bank: "B", Account: "12345678"}, false, events.Payee{}},
		{"missing account", events.Payee{Bank: "B", Name: "N"}, false, events.Payee{}},
		{"letters in account", events.Payee{Bank: "B", Account: "12AB5678", Name: "N"}, false, events.Payee{}},
		{"short account", events.Payee{Bank: "B", Account: "123", Name: "N"}, false, events.Payee{}},
		{"long account", events.Payee{Bank: "B", Account: "123456789012345678901234567890123", Name: "N"}, false, events.Payee{}},
		{"control character", events.Payee{Bank: "B\x00", Account: "12345678", Name: "N"}, false, events.Payee{}},
		{"long bank", events.Payee{Bank: string(make([]rune, 65)), Account: "12345678", Name: "N"}, false, events.Payee{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := cleanPayee(tc.in)
			if ok != tc.ok || (ok && got != tc.want) {
				t.Fatalf("cleanPayee(%+v) = %+v %v, want %+v %v", tc.in, got, ok, tc.want, tc.ok)
			}
		})
	}
}

func TestChannelRedefinedWithPayee(t *testing.T) {
	c := &channels{deposits: map[string]events.DepositChannelConfigured{}, withdrawals: map[string]events.WithdrawalChannelConfigured{}}
	ch, e := channelFrom(ChannelInput{ID: "bank", Name: "Bank", Currency: "TWD", Min: "100", Max: "1000",
		Window: events.TimeWindow{AlwaysOpen: true}, Enabled: true})
	if e != nil {
		t.Fatal(e)
	}
	c.Apply(events.RecordedEvent{}, ch)
	again, _ := decideConfigureChannel(c, ch, "", "", nil)
	if len(again) != 0 {
		t.Fatalf("same definition again: %v", again)
	}
	ch.Payee = events.Payee{Bank: "B", Account: "12345678", Name: "N"}
	evs, _ := decideConfigureChannel(c, ch, "", "", nil)
	if len(evs) != 1 || evs[0].(events.DepositChannelConfigured).Payee != ch.Payee {
		t.Fatalf("payee change: %v", evs)
	}
}
