//go:build !linux

package api

import "syscall"

// wsSyscalls holds nothing where writes that never wait are not built.
type wsSyscalls struct{}

// writeNow writes nothing: every socket's frames go to its connection's own writer, which waits.
func (w *wsWriter) writeNow(_ syscall.RawConn, frames [][]byte) ([][]byte, error) {
	return frames, nil
}
