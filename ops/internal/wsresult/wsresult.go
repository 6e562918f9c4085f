// Package wsresult is the figures of one ops/wsbench run, as the tool writes them and ops/bench
// reads them.
package wsresult

// Result is one run's figures: ops/wsbench writes it as JSON, ops/bench reads it.
type Result struct {
	Conns          int      `json:"conns"`
	Symbols        []string `json:"symbols"`
	Channels       []string `json:"channels"`
	Connected      int      `json:"connected"`
	Dropped        int64    `json:"dropped"`
	DialRetries    int64    `json:"dialRetries"` // handshakes that failed and were tried again
	ErrorFrames    int64    `json:"errorFrames"`
	Seconds        float64  `json:"seconds"`
	Messages       int64    `json:"messages"`
	MessagesPerSec float64  `json:"messagesPerSec"`
	DelayP50ms     float64  `json:"delayP50ms"`
	DelayP99ms     float64  `json:"delayP99ms"`
	DelayMaxms     float64  `json:"delayMaxms"`
	ConnectSeconds float64  `json:"connectSeconds"`
	RSSBeforeMB    float64  `json:"rssBeforeMB,omitempty"`
	RSSAfterMB     float64  `json:"rssAfterMB,omitempty"`
	KBPerConn      float64  `json:"kbPerConn,omitempty"`    // server Go heap and stacks in use, per connection
	IdleCPUPct     float64  `json:"idleCpuPct,omitempty"`   // server, of one core, no client (simulator ticking)
	ServerCPUPct   float64  `json:"serverCpuPct,omitempty"` // server, of one core, during the window
	ClientCPUPct   float64  `json:"clientCpuPct"`           // this tool, of one core, during the window
	LoadAvg        float64  `json:"loadAvg"`                // the machine's 1-minute load average as the window starts
	SubscribeSecs  float64  `json:"subscribeSeconds"`       // from the first dial until every client had its snapshots
}
