package payout_test

import (
	"testing"

	"github.com/lotbook/lotbook/commands/commandstest"
	"github.com/lotbook/lotbook/commands/dividend/payout"
)

func TestCheckpointsRestoreAsSaved(t *testing.T) {
	commandstest.Checkpoints(t, payout.New(payout.Config{}), []string{`{"through":"0001-01-01T00:00:00Z","held":{}}`,
		`{"through":"2026-07-01T02:00:00Z","held":{"m1":{"TW:0050":1000,"TW:2330":2000}},` +
			`"toEntitle":{"2330-2026Q1":{"m1":2000}},` +
			`"dividends":{"2330-2026Q1":{"ID":"2330-2026Q1","Symbol":"2330","Name":"台積電","Kind":"stock","Period":"2026Q1","Cash":"4.5","Stock":"0",` +
			`"ExDate":"2026-06-30T16:00:00Z","RecordDate":"2026-07-06T16:00:00Z","PayDate":"2026-07-09T16:00:00Z"}},` +
			`"toPay":{"m2/DV1":"2026-07-09T16:00:00Z"}}`})
}
