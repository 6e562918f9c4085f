// Command bench runs every figure of `make bench` and prints them as one table: event store
// append benchmarks (events/bench/appendbench), the HTTP load runs of ops/loadgen (deposits on
// SQLite and on PostgreSQL, on PostgreSQL behind 1 and 2 API instances of a `serve --role`
// deployment, and on SQLite with many members for the cost per command as members grow, each
// with the server's CPU per command) with its timed rebuilds, the market socket's fan-out
// (ops/wsbench), orders over HTTP and order-to-fill latency (api TestTradeThroughput), in-memory
// match checks (commands/rules/matching benchmarks), and the web app's gzipped size
// (web/scripts/size.mjs). With -runs n it repeats the load run and reports medians.
package main

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/lotbook/lotbook/events/postgres/pgtest"
)

type row struct{ section, figure, value, target string }

func main() {
	bin := flag.String("bin", "bin/lotbook", "lotbook binary")
	runs := flag.Int("runs", 3, "load and rebuild runs (medians are reported)")
	duration := flag.String("duration", "15s", "length of each load run")
	clients := flag.Int("clients", 64, "concurrent HTTP clients")
	loadPG := flag.String("load-pg", pgtest.AdminDSN(), "PostgreSQL server of the HTTP load run on PostgreSQL, a fresh database per run (empty skips it)")
	scaleOut := flag.String("scale-out", "1,2", "API instances of the deployment runs on PostgreSQL (serve --role api, beside a projector and a process instance), a row each; empty skips them")
	manyMembers := flag.Int("many-members", 2000, "members of the SQLite load run that shows the cost per command as members grow (0 skips it)")
	rebuild := flag.String("rebuild", "all", "read models whose rebuild is timed on a big log (comma-separated, or all)")
	fill := flag.Int("fill", 300000, "events in the big log the rebuilds replay")
	growthLog := flag.String("growth-log", "", "data folder of a big log made by `go run ./ops/loadgen -grow N -data DIR -members M` (see ops/deploy/SCALING.md): start, memory and cold-cache CPU per command on it beside a small log's (empty skips it)")
	storeRuns := flag.Int("store-runs", 3, "runs per append benchmark configuration (medians)")
	storeDuration := flag.String("store-duration", "3s", "length of each append benchmark run")
	wsConns := flag.Int("ws-conns", 10000, "WebSocket clients of the fan-out run (0 skips it)")
	wsSymbols := flag.Int("ws-symbols", 50, "symbols each WebSocket client subscribes to")
	wsDuration := flag.String("ws-duration", "20s", "measurement window of the fan-out run")
	wsRuns := flag.Int("ws-runs", 3, "fan-out runs (medians are reported)")
	wsOnly := flag.Bool("ws-only", false, "run only the WebSocket fan-out")
	tradeDB := flag.String("trade-db", "sqlite", "store of the HTTP trading run: sqlite or postgres (empty skips it)")
	matchTime := flag.String("match-benchtime", "1s", "benchtime of the matching benchmarks (empty skips them)")
	lighthouseRuns := flag.Int("lighthouse-runs", 3, "Lighthouse runs per screen of the cold-start figures (0 skips them)")
	flag.Parse()

	var rows []row
	var failures []string
	fail := func(step string, err error) {
		failures = append(failures, fmt.Sprintf("%s: %v", step, err))
		fmt.Fprintf(os.Stderr, "bench: %s: %v\n", step, err)
	}
	wsSection := func() {
		fmt.Fprintf(os.Stderr, "bench: WebSocket fan-out, %d clients × %d symbols, %d run(s)\n", *wsConns, *wsSymbols, *wsRuns)
		if r, err := wsFanout(*bin, *wsConns, *wsSymbols, *wsDuration, *wsRuns); err != nil {
			fail("websocket fan-out", err)
		} else {
			rows = append(rows, r...)
		}
	}
	if *wsOnly {
		wsSection()
		report(rows, failures)
		return
	}

	fmt.Fprintln(os.Stderr, "bench: event store append benchmarks")
	if r, err := storeBenchmarks(*storeRuns, *storeDuration); err != nil {
		fail("store benchmarks", err)
	} else {
		rows = append(rows, r...)
	}

	fmt.Fprintf(os.Stderr, "bench: HTTP load, %d run(s) of %s\n", *runs, *duration)
	var few []loadResult
	if res, err := loadgen(*runs, "load (SQLite)", "-bin", *bin, "-duration", *duration, "-clients", strconv.Itoa(*clients)); err != nil {
		fail("load", err)
	} else {
		few = res
		rows = append(rows, loadRows("HTTP SQLite", res, *clients, "≥5,000")...)
	}
	if *loadPG != "" {
		fmt.Fprintf(os.Stderr, "bench: HTTP load on PostgreSQL, %d run(s) of %s\n", *runs, *duration)
		if res, err := loadgen(*runs, "load (PostgreSQL)", "-bin", *bin, "-duration", *duration, "-clients", strconv.Itoa(*clients), "-pg", *loadPG); err != nil {
			fail("load on PostgreSQL", err)
		} else {
			rows = append(rows, loadRows("HTTP PostgreSQL", res, *clients, "≥4,000")...)
		}
	}
	if *loadPG != "" && *scaleOut != "" {
		for n := range strings.SplitSeq(*scaleOut, ",") {
			n = strings.TrimSpace(n)
			fmt.Fprintf(os.Stderr, "bench: HTTP load on a deployment of %s API instance(s), %d run(s) of %s\n", n, *runs, *duration)
			if res, err := loadgen(*runs, "load ("+n+" API instances)", "-bin", *bin, "-duration", *duration, "-clients", strconv.Itoa(*clients),
				"-pg", *loadPG, "-api-instances", n); err != nil {
				fail("load on "+n+" API instances", err)
			} else {
				rows = append(rows, scaleOutRow(n, res, *clients))
			}
		}
	}
	if *manyMembers > 0 && few != nil {
		fmt.Fprintf(os.Stderr, "bench: HTTP load with %d members, %d run(s) of %s\n", *manyMembers, *runs, *duration)
		if res, err := loadgen(*runs, "load (many members)", "-bin", *bin, "-duration", *duration, "-clients", strconv.Itoa(*clients),
			"-members", strconv.Itoa(*manyMembers), "-proofs", "100"); err != nil {
			fail("load with many members", err)
		} else {
			rows = append(rows, growthRows(few, res)...)
		}
	}

	if *growthLog != "" {
		fmt.Fprintf(os.Stderr, "bench: growth, a small log against %s, %d run(s) each of %s\n", *growthLog, *runs, *duration)
		if r, err := growthLogRuns(*runs, *growthLog, "-bin", *bin, "-duration", *duration, "-clients", strconv.Itoa(*clients)); err != nil {
			fail("growth log", err)
		} else {
			rows = append(rows, r...)
		}
	}

	fmt.Fprintf(os.Stderr, "bench: rebuild of %s over a log of %d events, %d run(s)\n", *rebuild, *fill, *runs)
	if r, err := rebuildRuns(*bin, *runs, *fill, *rebuild); err != nil {
		fail("rebuild", err)
	} else {
		rows = append(rows, r...)
	}

	if *wsConns > 0 {
		wsSection()
	}

	fmt.Fprintln(os.Stderr, "bench: server memory under 16 worst-case uploads at once")
	if r, err := uploadMemory(*bin); err != nil {
		fail("upload memory", err)
	} else {
		rows = append(rows, r)
	}

	if *tradeDB != "" {
		fmt.Fprintf(os.Stderr, "bench: orders over HTTP and order-to-fill latency (%s)\n", *tradeDB)
		if r, err := tradeHTTP(*tradeDB, *runs); err != nil {
			fail("trade", err)
		} else {
			rows = append(rows, r...)
		}
	}

	if *matchTime != "" {
		fmt.Fprintln(os.Stderr, "bench: in-memory matching")
		if r, err := matchBench(*matchTime); err != nil {
			fail("matching", err)
		} else {
			rows = append(rows, r...)
		}
	}

	if _, err := os.Stat("web/scripts/size.mjs"); err == nil {
		fmt.Fprintln(os.Stderr, "bench: web size")
		if r, err := webSize(); err != nil {
			fail("web size", err)
		} else {
			rows = append(rows, r...)
		}
	} else {
		rows = append(rows, row{"web", "first route gzipped", "web/scripts/size.mjs missing", "≤150 KB"})
	}

	if *lighthouseRuns > 0 {
		fmt.Fprintf(os.Stderr, "bench: cold start, Lighthouse mobile preset, %d run(s)\n", *lighthouseRuns)
		if r, err := coldStart(*bin, *lighthouseRuns); err != nil {
			fail("cold start", err)
		} else {
			rows = append(rows, r...)
		}
	}

	report(rows, failures)
}

// report prints the table, then what could not be measured (exiting 1 if anything).
func report(rows []row, failures []string) {
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "section\tfigure\tvalue\ttarget\t")
	fmt.Fprintln(tw, "-------\t------\t-----\t------\t")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t\n", r.section, r.figure, r.value, r.target)
	}
	tw.Flush()
	if len(failures) > 0 {
		fmt.Println("\nnot measured:")
		for _, f := range failures {
			fmt.Println("  " + f)
		}
		os.Exit(1)
	}
}

// uploadMemory runs ops/uploadload, which exits 1 (after printing its result) when the peak is
// over its limit: the row shows the figure either way.
func uploadMemory(bin string) (row, error) {
	var out bytes.Buffer
	cmd := exec.Command("go", "run", "./ops/uploadload", "-bin", bin)
	cmd.Stdout, cmd.Stderr = &out, os.Stderr
	runErr := cmd.Run()
	var res struct {
		PeakMB  float64 `json:"peakMB"`
		Aborted bool    `json:"aborted"`
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		return row{}, fmt.Errorf("uploadload: %w (%v): %s", err, runErr, out.Bytes())
	}
	value := fmt.Sprintf("%.0f MB", res.PeakMB)
	if res.Aborted {
		value = "over " + value + " (killed)"
	}
	return row{"uploads", "server peak memory, 16 worst-case uploads at once", value, "<400 MB"}, nil
}

// storeBenchmarks runs the store helper's append benchmark (events/bench/appendbench: medians
// of several runs on fresh stores) and turns its table into rows.
func storeBenchmarks(runs int, duration string) ([]row, error) {
	args := []string{"run", "./events/bench/appendbench", "-runs", strconv.Itoa(runs), "-duration", duration}
	cmd := exec.Command("go", args...)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go %s: %w\n%s", strings.Join(args, " "), err, out)
	}
	rows := appendRows(out)
	if len(rows) == 0 {
		return nil, fmt.Errorf("no rows in the append benchmark's output:\n%s", out)
	}
	return rows, nil
}

// appendTargets are the append targets at 64 writers (issue 15).
var appendTargets = map[string]string{"postgres": "≥100,000 events/s", "sqlite": "≥60,000 events/s"}

// appendRows turns appendbench's table into rows. Its header names the columns (two or more
// spaces apart, names may hold single spaces); the values hold no spaces.
//
// After each backend's rows with several writers it adds their bound: a durable append is
// answered only after its commit's fsync, so each writer has one append in flight and a commit
// can take at most one append per writer. Commits run one at a time (the global order), so no
// run can beat writers × events/append × the commits/s of one writer alone (its events/s, at a
// batch of one). The bound shows how much of a figure is the disk's sync latency.
func appendRows(out []byte) []row {
	var rows []row
	var cols []string
	single := map[string]float64{} // commits/s of one writer, by backend and events/append
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "backend") {
			cols = regexp.MustCompile(`\s{2,}`).Split(line, -1)
			continue
		}
		f := strings.Fields(line)
		if cols == nil || len(f) != len(cols) {
			continue
		}
		v := map[string]string{}
		for i, c := range cols {
			v[c] = f[i]
		}
		target := ""
		if v["writers"] == "64" {
			target = appendTargets[v["backend"]]
		}
		value := fmt.Sprintf("%s, %s, %s / %s", v["events/s"], v["mean batch (events/txn)"], v["p50"], v["p99"])
		figure := v["writers"] + " writers: events/s, mean batch, p50 / p99"
		if cpu, ok := v["CPU/event (Go)"]; ok {
			figure += ", CPU/event Go / database"
			value += fmt.Sprintf(", %s / %s", cpu, v["CPU/event (server)"])
		}
		rows = append(rows, row{"append " + v["backend"], figure, value, target})
		writers, errW := strconv.Atoi(v["writers"])
		perAppend, errE := strconv.Atoi(v["events/append"])
		rate, errR := strconv.ParseFloat(v["events/s"], 64)
		if errW != nil || errE != nil || errR != nil || perAppend < 1 {
			continue
		}
		key := v["backend"] + "/" + v["events/append"]
		if writers == 1 {
			single[key] = rate / float64(perAppend)
		} else if c, ok := single[key]; ok {
			rows = append(rows, row{"append " + v["backend"],
				fmt.Sprintf("%d writers: bound, writers × events/append × 1-writer commits/s", writers),
				strconv.FormatFloat(float64(writers*perAppend)*c, 'f', 0, 64), ""})
		}
	}
	return rows
}

// loadResult mirrors the fields of ops/loadgen's JSON that the table shows.
type loadResult struct {
	Members         int            `json:"members"`
	Head            int64          `json:"head"`
	RestartSeconds  float64        `json:"restartSeconds"`
	RestartRSSMB    float64        `json:"restartRssMB"`
	ServerCPUPerCmd float64        `json:"serverCpuPerCmdMs"`
	CommandsPerSec  float64        `json:"commandsPerSec"`
	Commands        int64          `json:"commands"`
	P50ms           float64        `json:"p50ms"`
	P99ms           float64        `json:"p99ms"`
	LagP50ms        float64        `json:"lagP50ms"`
	LagP99ms        float64        `json:"lagP99ms"`
	MetricLagP99ms  float64        `json:"metricLagP99ms"`
	RSSIdleMB       float64        `json:"rssIdleMB"`
	RSSLoadMB       float64        `json:"rssLoadMB"`
	HWMMB           float64        `json:"hwmMB"`
	ServerCPUPct    float64        `json:"serverCpuPct"`
	LoadgenCPUPct   float64        `json:"loadgenCpuPct"`
	Errors          map[string]int `json:"errors"`
	Rebuilds        []struct {
		Name         string  `json:"name"`
		Events       int64   `json:"events"`
		EventsPerSec float64 `json:"eventsPerSec"`
	} `json:"rebuilds"`
}

// loadgen runs ops/loadgen n times with args and decodes its JSON results.
func loadgen(n int, what string, args ...string) ([]loadResult, error) {
	var results []loadResult
	for i := range n {
		fmt.Fprintf(os.Stderr, "bench: %s run %d/%d\n", what, i+1, n)
		cmd := exec.Command("go", append([]string{"run", "./ops/loadgen", "-json"}, args...)...)
		cmd.Stderr = os.Stderr
		out, err := cmd.Output()
		if err != nil {
			return nil, fmt.Errorf("loadgen: %w", err)
		}
		var r loadResult
		if err := json.Unmarshal(out, &r); err != nil {
			return nil, fmt.Errorf("loadgen output: %w: %s", err, out)
		}
		results = append(results, r)
	}
	return results, nil
}

// median of get over results.
func median[T any](results []T, get func(T) float64) float64 {
	vs := make([]float64, len(results))
	for i, r := range results {
		vs[i] = get(r)
	}
	slices.Sort(vs)
	return vs[len(vs)/2]
}

func rebuildRuns(bin string, runs, fill int, names string) ([]row, error) {
	results, err := loadgen(runs, "rebuild", "-bin", bin, "-duration", "0", "-members", "64",
		"-fill", strconv.Itoa(fill), "-rebuild", names, "-restart")
	if err != nil {
		return nil, err
	}
	// The restart is the other end of growth: a server started again on the big log must come
	// up from its checkpoints, in time and memory that do not grow with the log.
	rows := []row{{fmt.Sprintf("restart (median of %d)", len(results)),
		fmt.Sprintf("serve start to ready (s) / RSS once quiet (MB), %d-event log", results[0].Head),
		strconv.FormatFloat(median(results, func(r loadResult) float64 { return r.RestartSeconds }), 'f', 2, 64) + " / " +
			strconv.FormatFloat(median(results, func(r loadResult) float64 { return r.RestartRSSMB }), 'f', 0, 64), "<1 s, flat"}}
	type rate struct {
		name   string
		events int64
		perSec float64
	}
	rates := make([]rate, len(results[0].Rebuilds))
	for i, rb := range results[0].Rebuilds {
		rates[i] = rate{rb.Name, rb.Events, median(results, func(r loadResult) float64 { return r.Rebuilds[i].EventsPerSec })}
	}
	slices.SortFunc(rates, func(a, b rate) int { return cmp.Compare(a.perSec, b.perSec) })
	// Every read model must reach the target: the slowest few name where the time goes, and the
	// minimum over all of them is the figure the target holds to.
	for _, r := range rates[:min(len(rates), slowestRebuilds)] {
		rows = append(rows, row{"rebuild", fmt.Sprintf("%s: events/s over %d events", r.name, r.events),
			strconv.FormatFloat(r.perSec, 'f', 0, 64), "≥150,000"})
	}
	if len(rates) > slowestRebuilds {
		rows = append(rows, row{"rebuild", fmt.Sprintf("min over all %d read models: events/s", len(rates)),
			strconv.FormatFloat(rates[0].perSec, 'f', 0, 64), "≥150,000"})
	}
	return rows, nil
}

// slowestRebuilds is how many of the slowest rebuilds the report names.
const slowestRebuilds = 5

// loadRows are the figures of the load runs results (medians) under label.
func loadRows(label string, results []loadResult, clients int, target string) []row {
	med := func(get func(loadResult) float64) float64 { return median(results, get) }
	if len(results) > 1 {
		label = fmt.Sprintf("%s (median of %d)", label, len(results))
	}
	f0 := func(v float64) string { return strconv.FormatFloat(v, 'f', 0, 64) }
	f1 := func(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }
	rows := []row{
		{label, fmt.Sprintf("deposit commands/s (%d clients, %d members)", clients, results[0].Members), f0(med(func(r loadResult) float64 { return r.CommandsPerSec })), target},
		{label, "command latency p50 / p99 (ms)", f1(med(func(r loadResult) float64 { return r.P50ms })) + " / " + f1(med(func(r loadResult) float64 { return r.P99ms })), "p99 ≤50"},
		{label, "server CPU per command (ms)", cpuPerCmd(med(func(r loadResult) float64 { return r.ServerCPUPerCmd })), "≤0.25"},
		{label, "projection lag, ack → visible in a read: p50 / p99 (ms)", f1(med(func(r loadResult) float64 { return r.LagP50ms })) + " / " + f1(med(func(r loadResult) float64 { return r.LagP99ms })), "p99 ≤100"},
		{label, "projection lag, lag_seconds metric sampled: p99 (ms)", f1(med(func(r loadResult) float64 { return r.MetricLagP99ms })), "p99 ≤100"},
		{label, "server RSS idle / under load / peak (MB)", f0(med(func(r loadResult) float64 { return r.RSSIdleMB })) + " / " +
			f0(med(func(r loadResult) float64 { return r.RSSLoadMB })) + " / " + f0(med(func(r loadResult) float64 { return r.HWMMB })), ""},
		{label, "CPU % of one core: server / load generator",
			f0(med(func(r loadResult) float64 { return r.ServerCPUPct })) + " / " + f0(med(func(r loadResult) float64 { return r.LoadgenCPUPct })), "2 cores in all"},
	}
	refused := map[string]int{}
	for _, r := range results {
		for k, v := range r.Errors {
			refused[k] += v
		}
	}
	for _, k := range slices.Sorted(maps.Keys(refused)) {
		rows = append(rows, row{label, "refused: " + k, strconv.Itoa(refused[k]), ""})
	}
	return rows
}

// scaleOutRow is the figure of a deployment's load run: commands/s over n API instances, with
// its latency, lag and the CPU per command of all the deployment's processes.
func scaleOutRow(n string, results []loadResult, clients int) row {
	med := func(get func(loadResult) float64) float64 { return median(results, get) }
	label := "HTTP PostgreSQL, serve --role"
	if len(results) > 1 {
		label = fmt.Sprintf("%s (median of %d)", label, len(results))
	}
	value := fmt.Sprintf("%.0f (p99 %.1f ms, lag p99 %.1f ms, CPU/cmd %s ms)", med(func(r loadResult) float64 { return r.CommandsPerSec }),
		med(func(r loadResult) float64 { return r.P99ms }), med(func(r loadResult) float64 { return r.LagP99ms }),
		cpuPerCmd(med(func(r loadResult) float64 { return r.ServerCPUPerCmd })))
	return row{label, fmt.Sprintf("deposit commands/s, %s API instance(s) + projector + process (%d clients)", n, clients), value, "scale-out, 2 cores"}
}

// growthRows set the server CPU per command with many members beside the default run's: the
// cost of a command must not grow with the members (aggregate cache misses, longer streams).
func growthRows(few, many []loadResult) []row {
	cpu := func(rs []loadResult) float64 {
		return median(rs, func(r loadResult) float64 { return r.ServerCPUPerCmd })
	}
	label := fmt.Sprintf("HTTP SQLite (median of %d)", len(many))
	return []row{
		{label, fmt.Sprintf("server CPU per command (ms): %d members / %d members", few[0].Members, many[0].Members),
			cpuPerCmd(cpu(few)) + " / " + cpuPerCmd(cpu(many)), "flat, ≤0.25"},
		{label, fmt.Sprintf("deposit commands/s with %d members", many[0].Members),
			strconv.FormatFloat(median(many, func(r loadResult) float64 { return r.CommandsPerSec }), 'f', 0, 64), "≥5,000"},
	}
}

// growthLogRuns sets the two ends of growth side by side, runs alternated: a server started on
// a small log (the default members, -cold) and on the big log in dir (-reuse), each measured
// from its start with an empty aggregate cache: time to ready, memory once quiet and under the
// load, and the CPU per command while each member's first command loads its streams.
func growthLogRuns(runs int, dir string, args ...string) ([]row, error) {
	var small, big []loadResult
	for range runs {
		s, err := loadgen(1, "growth: small log", append([]string{"-cold"}, args...)...)
		if err != nil {
			return nil, err
		}
		b, err := loadgen(1, "growth: big log", append([]string{"-reuse", "-data", dir}, args...)...)
		if err != nil {
			return nil, err
		}
		small, big = append(small, s...), append(big, b...)
	}
	return growthLogRows(small, big), nil
}

// growthLogRows are the figures of growthLogRuns' results (medians), small end first.
func growthLogRows(small, big []loadResult) []row {
	label := fmt.Sprintf("growth (median of %d)", len(big))
	both := func(get func(loadResult) float64, format func(float64) string) string {
		return format(median(small, get)) + " / " + format(median(big, get))
	}
	f0 := func(v float64) string { return strconv.FormatFloat(v, 'f', 0, 64) }
	f2 := func(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) }
	ends := fmt.Sprintf("%d-event log, %d members / %d-event log, %d members", small[0].Head, small[0].Members, big[0].Head, big[0].Members)
	return []row{
		{label, "serve start to ready (s): " + ends, both(func(r loadResult) float64 { return r.RestartSeconds }, f2), "<1 s, flat"},
		{label, "server RSS once quiet after start / under load (MB): " + ends,
			both(func(r loadResult) float64 { return r.RestartRSSMB }, f0) + ", " + both(func(r loadResult) float64 { return r.RSSLoadMB }, f0), "flat"},
		{label, "server CPU per command, cold cache (ms): " + ends, both(func(r loadResult) float64 { return r.ServerCPUPerCmd }, cpuPerCmd), "flat"},
		{label, "deposit commands/s: " + ends, both(func(r loadResult) float64 { return r.CommandsPerSec }, f0), ""},
	}
}

func cpuPerCmd(ms float64) string { return strconv.FormatFloat(ms, 'f', 3, 64) }

// webSize runs web/scripts/size.mjs; each line it prints becomes a row.
func webSize() ([]row, error) {
	return scriptRows("web", func(fig string) string {
		if strings.Contains(strings.ToLower(fig), "first route total") {
			return "≤150 KB"
		}
		return ""
	}, nil, "web/scripts/size.mjs")
}

// coldStart runs web/scripts/lighthouse.mjs (Lighthouse's mobile preset against a fresh demo
// server of bin); each line it prints becomes a row.
func coldStart(bin string, runs int) ([]row, error) {
	return scriptRows("cold start", func(fig string) string {
		switch {
		case strings.Contains(fig, " LCP"), strings.Contains(fig, " interactive"):
			return "≤1500 ms"
		case strings.Contains(fig, " TBT"):
			return "≤200 ms"
		case strings.Contains(fig, " CLS"):
			return "≤0.1"
		}
		return ""
	}, []string{"LOTBOOK_BIN=" + bin}, "web/scripts/lighthouse.mjs", strconv.Itoa(runs))
}

// scriptRows runs a node script with env added; each "figure: value" line it prints becomes a
// row of section, with the target target gives the figure.
func scriptRows(section string, target func(fig string) string, env []string, script string, args ...string) ([]row, error) {
	cmd := exec.Command("node", append([]string{script}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("node %s: %w", script, err)
	}
	var rows []row
	for line := range strings.SplitSeq(strings.TrimSpace(string(out)), "\n") {
		if line = strings.TrimSpace(line); line == "" {
			continue
		}
		fig, val, found := strings.Cut(line, ":")
		if !found {
			fig, val = line, ""
		}
		fig = strings.TrimSpace(fig)
		rows = append(rows, row{section, fig, strings.TrimSpace(val), target(fig)})
	}
	return rows, nil
}
