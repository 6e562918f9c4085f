package process_test

import (
	"testing"

	"github.com/lotbook/lotbook/commands/commandstest"
	"github.com/lotbook/lotbook/commands/process"
)

func TestDailyStepsCheckpointsRestoreAsSaved(t *testing.T) {
	commandstest.Checkpoints(t, process.NewDailySteps(process.DailyStepsConfig{Name: "test-daily"}), []string{`{}`, `{"L1":"m1","L2":"m2"}`})
}
