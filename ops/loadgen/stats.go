package main

import (
	"context"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
)

// percentile of sorted durations, in milliseconds (q in 0..1).
func percentile(sorted []time.Duration, q float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	i := int(q*float64(len(sorted)-1) + 0.5)
	return float64(sorted[i]) / float64(time.Millisecond)
}

func sortedCopy(ds []time.Duration) []time.Duration {
	out := slices.Clone(ds)
	slices.Sort(out)
	return out
}

// procStatusKB reads a "Vm..." field of /proc/<pid>/status in kB (0 when unavailable).
func procStatusKB(pid int, field string) int64 {
	raw, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for line := range strings.SplitSeq(string(raw), "\n") {
		if rest, ok := strings.CutPrefix(line, field+":"); ok {
			f := strings.Fields(rest)
			if len(f) > 0 {
				n, _ := strconv.ParseInt(f[0], 10, 64)
				return n
			}
		}
	}
	return 0
}

// procCPU is the user+system CPU time a process has used so far (0 when unavailable).
func procCPU(pid int) time.Duration {
	raw, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	// Fields after the command name, which is in parentheses and may hold spaces.
	i := strings.LastIndexByte(string(raw), ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(raw[i+1:]))
	if len(f) < 13 {
		return 0
	}
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	const ticks = 100 // USER_HZ on Linux
	return time.Duration(utime+stime) * time.Second / ticks
}

// waitQuiet waits until the process uses under a tenth of a core over half a second, or limit.
func waitQuiet(ctx context.Context, pid int, limit time.Duration) bool {
	const window = 500 * time.Millisecond
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		before := procCPU(pid)
		select {
		case <-ctx.Done():
			return false
		case <-time.After(window):
		}
		if procCPU(pid)-before < window/10 {
			return true
		}
	}
	return false
}
