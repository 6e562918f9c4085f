package main

import (
	"os"
	"testing"
	"time"
)

func TestPercentile(t *testing.T) {
	var ds []time.Duration
	for i := 1; i <= 100; i++ {
		ds = append(ds, time.Duration(i)*time.Millisecond)
	}
	tests := []struct {
		q    float64
		want float64
	}{{0, 1}, {0.5, 51}, {0.99, 99}, {1, 100}}
	for _, tc := range tests {
		if got := percentile(ds, tc.q); got != tc.want {
			t.Errorf("p%v = %v, want %v", tc.q*100, got, tc.want)
		}
	}
	if percentile(nil, 0.5) != 0 {
		t.Error("percentile of nothing is not 0")
	}
}

func TestProcReadings(t *testing.T) {
	if kb := procStatusKB(os.Getpid(), "VmRSS"); kb <= 0 {
		t.Fatalf("VmRSS of this process: %d kB", kb)
	}
	if procStatusKB(os.Getpid(), "NoSuchField") != 0 || procStatusKB(-1, "VmRSS") != 0 {
		t.Fatal("unknown field or process is not 0")
	}
	// CPU time moves in clock ticks: spin until it does (a busy machine may take a while).
	start := procCPU(os.Getpid())
	for deadline := time.Now().Add(10 * time.Second); procCPU(os.Getpid()) <= start; {
		if time.Now().After(deadline) {
			t.Fatal("CPU time did not grow while spinning")
		}
	}
}
