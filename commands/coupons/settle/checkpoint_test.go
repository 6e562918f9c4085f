package settle_test

import (
	"testing"

	"github.com/lotbook/lotbook/commands/commandstest"
	"github.com/lotbook/lotbook/commands/coupons/settle"
)

func TestCheckpointsRestoreAsSaved(t *testing.T) {
	commandstest.Checkpoints(t, settle.New(settle.Config{}), []string{`{}`, `{"m1/T1":true,"m2/T9":true}`})
}
