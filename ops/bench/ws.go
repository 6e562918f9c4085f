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

// wsFanout runs ops/wsbench once (connecting thousands of sockets takes a while) and turns its
// result into rows.
func wsFanout(bin string, conns, symbols int, duration string) ([]row, error) {
	args := []string{"run", "./ops/wsbench", "-json", "-bin", bin, "-conns", strconv.Itoa(conns),
		"-symbols", strconv.Itoa(symbols), "-duration", duration}
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
	return wsRows(r), nil
}

func wsRows(r wsresult.Result) []row {
	f0 := func(v float64) string { return strconv.FormatFloat(v, 'f', 0, 64) }
	f1 := func(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }
	label := "WebSocket"
	rows := []row{
		{label, fmt.Sprintf("%d clients × %d symbols (%s): messages/s delivered", r.Connected, len(r.Symbols), strings.Join(r.Channels, ",")),
			f0(r.MessagesPerSec), "≥50,000"},
		{label, "delivery delay p50 / p99 (ms, from the frame's ts)", f1(r.DelayP50ms) + " / " + f1(r.DelayP99ms), "p99 ≤50"},
		{label, "server memory per connection (KB of Go heap and stacks)", f1(r.KBPerConn), ""},
		{label, "CPU % of one core: server / wsbench clients", f0(r.ServerCPUPct) + " / " + f0(r.ClientCPUPct), "2 cores in all"},
		{"market", "server CPU % of one core with no client (simulator ticking)", f1(r.IdleCPUPct), "<10"},
	}
	if r.Dropped > 0 {
		rows = append(rows, row{label, "clients dropped", strconv.FormatInt(r.Dropped, 10), "0"})
	}
	return rows
}
