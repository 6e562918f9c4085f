package api

import (
	"fmt"
	"syscall"
	"unsafe"
)

// wsIovMax is the most buffers one writev takes (the kernel's IOV_MAX).
const wsIovMax = 1024

// wsSyscalls is a worker's writev: its buffer list and the result of its last call.
type wsSyscalls struct {
	iov   []syscall.Iovec
	n     int
	errno syscall.Errno
	call  func(fd uintptr) bool // w.writev, bound once: a method value made per write would allocate
}

// writeNow writes frames to the socket as far as it takes them without waiting (the socket is
// non-blocking, as every socket of Go's network poller) and returns what did not fit: the frames
// not written, the first of them perhaps in part. A nil raw (not a TCP socket) writes nothing.
func (w *wsWriter) writeNow(raw syscall.RawConn, frames [][]byte) ([][]byte, error) {
	if raw == nil {
		return frames, nil
	}
	if w.call == nil {
		w.call = w.writev
	}
	defer func() { clear(w.iov) }() // the iovecs point into the frames: let them go
	for len(frames) > 0 {
		chunk := frames[:min(len(frames), wsIovMax)]
		size := 0
		w.iov = w.iov[:0]
		for _, f := range chunk {
			v := syscall.Iovec{Base: unsafe.SliceData(f)}
			v.SetLen(len(f))
			w.iov = append(w.iov, v)
			size += len(f)
		}
		if err := raw.Write(w.call); err != nil {
			return frames, fmt.Errorf("socket write: %w", err)
		}
		switch w.errno {
		case 0:
		case syscall.EAGAIN:
			return frames, nil
		default:
			return frames, fmt.Errorf("socket writev: %w", w.errno)
		}
		if w.n < size {
			return advance(frames, w.n), nil
		}
		frames = frames[len(chunk):]
	}
	return nil, nil
}

// writev is one writev of w.iov on fd. It never asks the poller to wait for the socket: a socket
// that is full goes to its connection's own writer.
func (w *wsWriter) writev(fd uintptr) bool {
	for {
		n, _, errno := syscall.Syscall(syscall.SYS_WRITEV, fd, uintptr(unsafe.Pointer(unsafe.SliceData(w.iov))), uintptr(len(w.iov)))
		if errno == syscall.EINTR {
			continue
		}
		w.n, w.errno = 0, errno
		if errno == 0 {
			w.n = int(n)
		}
		return true
	}
}

// advance drops the first n bytes of frames (a frame written in part keeps its rest).
func advance(frames [][]byte, n int) [][]byte {
	for n > 0 && len(frames) > 0 {
		if n < len(frames[0]) {
			frames[0] = frames[0][n:]
			return frames
		}
		n -= len(frames[0])
		frames = frames[1:]
	}
	return frames
}
