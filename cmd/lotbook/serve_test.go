package main

import (
	"errors"
	"log/slog"
	"testing"
)

func TestParseMarketSeed(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want uint64
		ok   bool
	}{
		{"", 1, true}, {"42", 42, true}, {"18446744073709551615", 18446744073709551615, true},
		{"0", 0, false}, {"-1", 0, false}, {"x", 0, false}, {"1.5", 0, false}, {"18446744073709551616", 0, false},
	} {
		got, err := parseMarketSeed(tc.in)
		if got != tc.want || (err == nil) != tc.ok || (err != nil && !errors.Is(err, errUsage)) {
			t.Errorf("parseMarketSeed(%q) = %d, %v", tc.in, got, err)
		}
	}
}

func TestServeRefusesNegativeBrokerRules(t *testing.T) {
	for _, args := range [][]string{{"--lock-minutes", "-1"}, {"--hold-days", "-2"}} {
		err := serve(t.Context(), append(args, "--data", t.TempDir()), slog.New(slog.DiscardHandler))
		if !errors.Is(err, errUsage) {
			t.Errorf("serve %v = %v, want a usage error", args, err)
		}
	}
}
