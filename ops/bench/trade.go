package main

import (
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// tradeHTTP runs the API's trading measurement (api TestTradeThroughput behind
// LOTBOOK_TRADE_BENCH=1: market orders placed over HTTP by 8 members, then resting limit orders
// filled by a crossing quote update) runs times on db and reports the medians of what it prints.
func tradeHTTP(db string, runs int) ([]row, error) {
	args := []string{"test", "./api", "-run", "^TestTradeThroughput$", "-count=1", "-v", "-timeout", "5m"}
	var results []tradeResult
	for range runs {
		cmd := exec.Command("go", args...)
		cmd.Env = append(os.Environ(), "LOTBOOK_TRADE_BENCH=1", "LOTBOOK_TRADE_BENCH_DB="+db)
		cmd.Stderr = os.Stderr
		out, err := cmd.Output()
		if err != nil {
			return nil, fmt.Errorf("go %s: %w\n%s", strings.Join(args, " "), err, out)
		}
		r, ok := parseTrade(out)
		if !ok {
			return nil, fmt.Errorf("want the orders and the fill lines in the trade measurement's output:\n%s", out)
		}
		results = append(results, r)
	}
	return tradeRows(results), nil
}

// tradeResult is one run of the trading measurement; durations in seconds.
type tradeResult struct {
	db                    string
	orders, members       int
	perSec, p50, p99, cpu float64
	fills                 int
	fillP50, fillP99      float64
}

var (
	ordersLine = regexp.MustCompile(`trade bench \((\w+)\): (\d+) orders over HTTP by (\d+) members: (\d+) orders/s, p50 (\S+), p99 (\S+), cpu (\S+) per order`)
	fillLine   = regexp.MustCompile(`trade bench \((\w+)\): quote update to fill of a resting order: p50 (\S+), p99 (\S+) over (\d+)`)
)

func parseTrade(out []byte) (tradeResult, bool) {
	var r tradeResult
	var orders, fills, bad bool
	sec := func(s string) float64 {
		d, err := time.ParseDuration(s)
		bad = bad || err != nil
		return d.Seconds()
	}
	for line := range strings.SplitSeq(string(out), "\n") {
		if m := ordersLine.FindStringSubmatch(line); m != nil {
			orders = true
			r.db = m[1]
			r.orders, _ = strconv.Atoi(m[2])
			r.members, _ = strconv.Atoi(m[3])
			r.perSec, _ = strconv.ParseFloat(m[4], 64)
			r.p50, r.p99, r.cpu = sec(m[5]), sec(m[6]), sec(m[7])
		}
		if m := fillLine.FindStringSubmatch(line); m != nil {
			fills = true
			r.fillP50, r.fillP99 = sec(m[2]), sec(m[3])
			r.fills, _ = strconv.Atoi(m[4])
		}
	}
	return r, orders && fills && !bad
}

// tradeRows are the medians of the runs, each figure on its own, beside the targets.
func tradeRows(results []tradeResult) []row {
	med := func(get func(tradeResult) float64) float64 { return median(results, get) }
	ms := func(get func(tradeResult) float64) string {
		return strconv.FormatFloat(med(get)*1000, 'f', 2, 64) + " ms"
	}
	first := results[0]
	section := "trade " + first.db
	if len(results) > 1 {
		section = fmt.Sprintf("%s (median of %d)", section, len(results))
	}
	return []row{
		{section, fmt.Sprintf("orders placed over HTTP/s (%d members, %d market orders)", first.members, first.orders),
			strconv.FormatFloat(med(func(r tradeResult) float64 { return r.perSec }), 'f', 0, 64), "≥3,000"},
		{section, "order latency over HTTP, placed → filled (a market order fills in its command): p50 / p99",
			ms(func(r tradeResult) float64 { return r.p50 }) + " / " + ms(func(r tradeResult) float64 { return r.p99 }), "p99 ≤10 ms"},
		{section, "CPU per order (test process: server and clients, projections and engine caught up)",
			ms(func(r tradeResult) float64 { return r.cpu }), ""},
		{section, fmt.Sprintf("order-to-fill latency, crossing quote update → filled (%d resting orders): p50 / p99", first.fills),
			ms(func(r tradeResult) float64 { return r.fillP50 }) + " / " + ms(func(r tradeResult) float64 { return r.fillP99 }), "p99 ≤10 ms"},
	}
}

// matchBench runs the matching rule's Go benchmarks (commands/rules/matching) for benchtime:
// one goroutine, so ops/s is what one symbol's book can check.
func matchBench(benchtime string) ([]row, error) {
	args := []string{"test", "./commands/rules/matching", "-run", "^$", "-bench", "^Benchmark(Check|Cross)$", "-benchtime", benchtime, "-count=1"}
	cmd := exec.Command("go", args...)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go %s: %w\n%s", strings.Join(args, " "), err, out)
	}
	rows := matchRows(out)
	if len(rows) != 2 {
		return nil, fmt.Errorf("want BenchmarkCheck and BenchmarkCross in the output:\n%s", out)
	}
	return rows, nil
}

var benchLine = regexp.MustCompile(`^Benchmark(Check|Cross)(?:-\d+)?\s+\d+\s+([\d.]+) ns/op`)

func matchRows(out []byte) []row {
	var rows []row
	for line := range strings.SplitSeq(string(out), "\n") {
		m := benchLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		ns, err := strconv.ParseFloat(m[2], 64)
		if err != nil || ns <= 0 {
			continue
		}
		perSec := strconv.FormatFloat(1e9/ns, 'f', 0, 64)
		if m[1] == "Check" {
			rows = append(rows, row{"match", "match checks/s per symbol, one goroutine (resting limit vs best price)", perSec, "≥300,000"})
		} else {
			rows = append(rows, row{"match", "full crosses/s, one goroutine (3-lot order over 5 levels)", perSec, ""})
		}
	}
	return rows
}
