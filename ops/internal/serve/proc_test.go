package serve

import (
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
