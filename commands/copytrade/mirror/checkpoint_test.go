package mirror

import (
	"testing"

	"github.com/lotbook/lotbook/commands/commandstest"
)

func TestCheckpointsRestoreAsSavedAndAnOlderFormIsRefolded(t *testing.T) {
	commandstest.Checkpoints(t, New(Config{}), []string{`{"mentors":{},"follows":{},"orders":{}}`,
		`{"mentors":{"m1":true},"follows":{"F1":{"follower":"m2","mentor":"m1","mentorName":"Ann","ends":"2026-12-24T04:00:00Z"},` +
			`"F2":{"follower":"m3","mentor":"m1","ends":"2026-12-25T04:00:00Z"}},` +
			`"orders":{"T1":{"intent":"open","direction":"long","symbol":"2330"},"T2":{"intent":"close","direction":"short","origin":"F9","symbol":"2603"}}}`},
		// before the mentors' working orders were folded
		`{"mentors":{},"follows":{}}`)
}
