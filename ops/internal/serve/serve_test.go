package serve

import (
	"testing"

	"github.com/lotbook/lotbook/api"
)

func TestDefaultMetricsURLIsTheServersDefault(t *testing.T) {
	if want := "http://" + api.DefaultMetricsAddr; DefaultMetricsURL != want {
		t.Fatalf("DefaultMetricsURL %s, lotbook serve's default is %s", DefaultMetricsURL, want)
	}
}
