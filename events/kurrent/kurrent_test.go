package kurrent_test

import (
	"context"
	"os"
	"testing"

	"github.com/google/uuid"

	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/events/kurrent"
	"github.com/lotbook/lotbook/events/storetest"
)

// TestConformance runs the store suite against the KurrentDB server at EVENTSTORE_URL (for example
// "kurrentdb://127.0.0.1:2113?tls=false"). Every store gets its own stream prefix, so runs share a
// server without seeing each other's events.
func TestConformance(t *testing.T) {
	url := os.Getenv("EVENTSTORE_URL")
	if url == "" {
		t.Skip("EVENTSTORE_URL not set: KurrentDB conformance skipped")
	}
	storetest.Run(t, func(t *testing.T) events.Store {
		s, err := kurrent.Open(context.Background(), url, kurrent.WithStreamPrefix("lbtest-"+uuid.NewString()[:8]+"-"))
		if err != nil {
			t.Fatalf("open %s: %v", url, err)
		}
		return s
	}, storetest.SparsePositions())
}
