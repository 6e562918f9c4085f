// Package pgnet sets how lotbook's PostgreSQL connections meet a failing network. pgx's
// defaults dial without a time limit and probe an idle connection only after 5 minutes, so a
// database that vanished without a reset (a dropped route, a dead host) holds dials and idle
// connections for minutes. Requests bound their own waits with deadlines (package api); this
// bounds the rest: connecting, and finding that a pooled connection's peer is gone.
package pgnet

import (
	"net"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// ConnectTimeout bounds one connection attempt (TCP, TLS and start-up) unless the connection
// string sets connect_timeout: long enough for a loaded server, short enough that a pool retries
// soon after the network returns.
const ConnectTimeout = 5 * time.Second

// keepAlive probes an idle connection after 15 s of silence and drops it after 3 unanswered
// probes 5 s apart: a dead peer is found within 30 s instead of 5 minutes and more.
var keepAlive = net.KeepAliveConfig{Enable: true, Idle: 15 * time.Second, Interval: 5 * time.Second, Count: 3}

// Configure applies the time limits to cfg, parsed from dsn; settings dsn names win.
func Configure(cfg *pgconn.Config, dsn string) {
	if !strings.Contains(dsn, "connect_timeout") {
		cfg.ConnectTimeout = ConnectTimeout
	}
	d := &net.Dialer{KeepAliveConfig: keepAlive}
	cfg.DialFunc = d.DialContext
}
