package serve

import (
	"context"
	"os"
	"testing"
	"time"
)

func TestProcReadings(t *testing.T) {
	if kb := StatusKB(os.Getpid(), "VmRSS"); kb <= 0 {
		t.Fatalf("VmRSS of this process: %d kB", kb)
	}
	if StatusKB(os.Getpid(), "NoSuchField") != 0 || StatusKB(-1, "VmRSS") != 0 {
		t.Fatal("unknown field or process is not 0")
	}
	// CPU time moves in clock ticks: spin until it does (a busy machine may take a while).
	start := CPU(os.Getpid())
	for deadline := time.Now().Add(10 * time.Second); CPU(os.Getpid()) <= start; {
		if time.Now().After(deadline) {
			t.Fatal("CPU time did not grow while spinning")
		}
	}
}

func TestEveryStopsWhenToldOrCancelled(t *testing.T) {
	n := 0
	Every(context.Background(), time.Millisecond, func() bool { n++; return n < 3 })
	if n != 3 {
		t.Fatalf("f ran %d times, want 3 (it returned false on the third)", n)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	Every(ctx, time.Hour, func() bool { t.Fatal("f ran after the context ended"); return true })
}
