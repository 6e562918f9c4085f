package repair_test

import (
	"testing"

	"github.com/lotbook/lotbook/commands/commandstest"
	"github.com/lotbook/lotbook/commands/lending/repair"
)

func TestCheckpointsRestoreAsSaved(t *testing.T) {
	commandstest.Checkpoints(t, repair.New(repair.Config{}), []string{`{}`,
		`{"L1":{"member":"m1","symbol":"2330","at":"2026-11-24T01:02:03Z"},"L2":{"member":"m2","symbol":"0050","at":"2026-11-24T01:02:04.5Z"}}`})
}
