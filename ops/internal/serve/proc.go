package serve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Every calls f every d until ctx ends or f returns false: the tools' samplers and watchdogs.
func Every(ctx context.Context, d time.Duration, f func() bool) {
	t := time.NewTicker(d)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if !f() {
				return
			}
		}
	}
}

// Stop ends a server the tool started gracefully (SIGTERM), killing it if it does not exit within
// 20 s. done receives the process's exit; a value taken from it is put back for the caller.
func Stop(cmd *exec.Cmd, done chan error) error {
	if cmd.ProcessState != nil {
		return nil
	}
	_ = cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-done:
		done <- err
		var ee *exec.ExitError
		if err != nil && !errors.As(err, &ee) {
			return err
		}
		return nil
	case <-time.After(20 * time.Second):
		_ = cmd.Process.Kill()
		err := <-done
		done <- err
		return fmt.Errorf("lotbook serve did not stop within 20 s")
	}
}

// StatusKB reads a "Vm..." field of /proc/<pid>/status in kB (0 when unavailable).
func StatusKB(pid int, field string) int64 {
	raw, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for line := range strings.SplitSeq(string(raw), "\n") {
		if rest, ok := strings.CutPrefix(line, field+":"); ok {
			if f := strings.Fields(rest); len(f) > 0 {
				n, _ := strconv.ParseInt(f[0], 10, 64)
				return n
			}
		}
	}
	return 0
}

// CPU is the user+system CPU time a process has used so far (0 when unavailable).
func CPU(pid int) time.Duration {
	raw, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	i := strings.LastIndexByte(string(raw), ')') // the command name may hold spaces
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

// Main runs a tool's measurement with a text logger on stderr and a context that SIGINT or
// SIGTERM ends, exiting 1 when it fails; it prints the result as JSON with asJSON, else with text.
func Main[R any](name string, asJSON bool, run func(context.Context, *slog.Logger) (R, error), text func(R)) {
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	res, err := run(ctx, log)
	if err != nil {
		log.Error(name+" failed", "err", err)
		os.Exit(1)
	}
	if asJSON {
		_ = json.NewEncoder(os.Stdout).Encode(res)
		return
	}
	text(res)
}
