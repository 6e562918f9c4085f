package main

import (
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
)

// tradeHTTP runs the API's trading measurement (api TestTradeThroughput behind
// LOTBOOK_TRADE_BENCH=1: market orders placed over HTTP by 8 members, then resting limit orders
// filled by a crossing quote update) on db and turns the two lines it prints into rows.
func tradeHTTP(db string) ([]row, error) {
	args := []string{"test", "./api", "-run", "^TestTradeThroughput$", "-count=1", "-v", "-timeout", "5m"}
	cmd := exec.Command("go", args...)
	cmd.Env = append(os.Environ(), "LOTBOOK_TRADE_BENCH=1", "LOTBOOK_TRADE_BENCH_DB="+db)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go %s: %w\n%s", strings.Join(args, " "), err, out)
	}
	rows := tradeRows(out)
	if len(rows) != 2 {
		return nil, fmt.Errorf("want the orders and the fill lines in the trade measurement's output:\n%s", out)
	}
	return rows, nil
}

var (
	ordersLine = regexp.MustCompile(`trade bench \((\w+)\): (\d+) orders over HTTP by (\d+) members: (\d+) orders/s, p50 (\S+), p99 (\S+)`)
	fillLine   = regexp.MustCompile(`trade bench \((\w+)\): quote update to fill of a resting order: p50 (\S+), p99 (\S+) over (\d+)`)
)

func tradeRows(out []byte) []row {
	var rows []row
	for line := range strings.SplitSeq(string(out), "\n") {
		if m := ordersLine.FindStringSubmatch(line); m != nil {
			rows = append(rows, row{"trade " + m[1], fmt.Sprintf("orders placed over HTTP/s (%s members, %s market orders); p50 / p99", m[3], m[2]),
				fmt.Sprintf("%s; %s / %s", m[4], m[5], m[6]), ""})
		}
		if m := fillLine.FindStringSubmatch(line); m != nil {
			rows = append(rows, row{"trade " + m[1], fmt.Sprintf("order-to-fill latency, crossing quote update → filled (%s orders): p50 / p99", m[4]),
				m[2] + " / " + m[3], ""})
		}
	}
	return rows
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
