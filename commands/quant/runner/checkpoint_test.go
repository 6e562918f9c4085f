package runner

import (
	"testing"

	"github.com/lotbook/lotbook/commands/commandstest"
)

func TestCheckpointsRestoreAsSavedAndAnOlderFormIsRefolded(t *testing.T) {
	commandstest.Checkpoints(t, New(Config{}), []string{`{"subs":{},"intents":{},"positions":{},"orders":{}}`,
		`{"subs":{"s1":{"member":"m1","product":"momentum","amount":"100000","held":"58000",` +
			`"positions":{"2330":{"positionId":"P1","shares":1000,"entryDay":"2026-03-02","entryClose":"159"}}}},` +
			`"intents":{"quant-strategy/s1/0050/1772415000/buy":{"Sub":"s1","Symbol":"0050","Day":"2026-03-02","EntryClose":"190.5"}},` +
			`"positions":{"P1":{"Sub":"s1","Symbol":"2330"}},"orders":{"T7":"s1"}}`},
		// before the strategy's orders were folded
		`{"subs":{},"intents":{},"positions":{}}`)
}
