package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"

	"github.com/lotbook/lotbook/ops/internal/wsresult"
)

// wsFanout runs ops/wsbench runs times (connecting thousands of sockets takes a while) and turns
// the medians of its results into rows.
func wsFanout(bin string, conns, symbols int, duration string, runs int) ([]row, error) {
	if runs < 1 {
		return nil, fmt.Errorf("ws-runs %d: need at least one run", runs)
	}
	args := []string{"run", "./ops/wsbench", "-json", "-bin", bin, "-conns", strconv.Itoa(conns),
		"-symbols", strconv.Itoa(symbols), "-duration", duration}
	var results []wsresult.Result
	for range runs {
		cmd := exec.Command("go", args...)
		cmd.Stderr = os.Stderr
		out, err := cmd.Output()
		if err != nil {
			return nil, fmt.Errorf("go %s: %w", strings.Join(args, " "), err)
		}
		var r wsresult.Result
		if err := json.Unmarshal(out, &r); err != nil {
			return nil, fmt.Errorf("wsbench output: %w: %s", err, out)
		}
		results = append(results, r)
	}
	return wsRows(results), nil
}

// serverMicros is the server's CPU per delivered message in µs: the figure a change to the
// fan-out moves, where the delays follow the share of the cores the machine's load leaves.
func serverMicros(r wsresult.Result) float64 {
	if r.MessagesPerSec == 0 {
		return 0
	}
	return r.ServerCPUPct / 100 * 1e6 / r.MessagesPerSec
}

// wsRows are the medians of the runs' figures (each figure's own median) next to their targets.
func wsRows(results []wsresult.Result) []row {
	med := func(get func(wsresult.Result) float64) float64 { return median(results, get) }
	f0 := func(v float64) string { return strconv.FormatFloat(v, 'f', 0, 64) }
	f1 := func(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }
	f2 := func(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) }
	r := results[0]
	label := "WebSocket"
	if len(results) > 1 {
		label = fmt.Sprintf("WebSocket (median of %d)", len(results))
	}
	rows := []row{
		{label, fmt.Sprintf("%d clients × %d symbols (%s): messages/s delivered", r.Connected, len(r.Symbols), strings.Join(r.Channels, ",")),
			f0(med(func(r wsresult.Result) float64 { return r.MessagesPerSec })), "≥50,000"},
		{label, "delivery delay p50 / p99 (ms, from the quote's due time)",
			f1(med(func(r wsresult.Result) float64 { return r.DelayP50ms })) + " / " + f1(med(func(r wsresult.Result) float64 { return r.DelayP99ms })), "p99 ≤50"},
		{label, "server memory per connection (KB of Go heap and stacks)", f1(med(func(r wsresult.Result) float64 { return r.KBPerConn })), "≤30"},
		{label, "CPU % of one core: server / wsbench clients",
			f0(med(func(r wsresult.Result) float64 { return r.ServerCPUPct })) + " / " + f0(med(func(r wsresult.Result) float64 { return r.ClientCPUPct })), "2 cores in all"},
		{label, "server CPU per delivered message (µs)", f2(med(serverMicros)), ""},
		{label, "load average (1 min) at the start of the window: other processes share the cores",
			f1(med(func(r wsresult.Result) float64 { return r.LoadAvg })), ""},
		{"market", "server CPU % of one core with no client (simulator ticking)", f1(med(func(r wsresult.Result) float64 { return r.IdleCPUPct })), "<10"},
	}
	var dropped, retried int64
	for _, r := range results {
		dropped, retried = max(dropped, r.Dropped), max(retried, r.DialRetries)
	}
	if dropped > 0 {
		rows = append(rows, row{label, "clients dropped (most in a run)", strconv.FormatInt(dropped, 10), "0"})
	}
	if retried > 0 {
		rows = append(rows, row{label, "handshakes tried again (most in a run)", strconv.FormatInt(retried, 10), "0"})
	}
	return rows
}
