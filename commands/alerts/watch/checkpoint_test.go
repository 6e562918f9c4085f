package watch_test

import (
	"testing"

	"github.com/lotbook/lotbook/commands/alerts/watch"
	"github.com/lotbook/lotbook/commands/commandstest"
)

func TestCheckpointsRestoreAsSaved(t *testing.T) {
	commandstest.Checkpoints(t, watch.New(watch.Config{}), []string{`{}`,
		`{"a1":{"member":"m1","symbol":"2330","kind":"above","value":"600.5"},"a2":{"member":"m2","symbol":"0050","kind":"changeDown","value":"3"}}`})
}
