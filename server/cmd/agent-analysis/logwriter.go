package main

import (
	"io"
	"sync"
	"time"
)

// batchedWriter gathers log lines and writes them out together, every
// interval or once 32 KiB wait: one write per request line cost a quarter
// of a stream's CPU on loopback (docs/agent-analysis.md). Close writes what
// is left; a crash can lose the last interval's lines.
type batchedWriter struct {
	mu      sync.Mutex
	out     io.Writer
	buf     []byte
	stop    chan struct{}
	stopped sync.Once
	done    chan struct{}
}

const batchLimit = 32 << 10

func newBatchedWriter(out io.Writer, interval time.Duration) *batchedWriter {
	w := &batchedWriter{out: out, stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(w.done)
		tick := time.NewTicker(interval)
		defer tick.Stop()
		for {
			select {
			case <-w.stop:
				return
			case <-tick.C:
				w.flush()
			}
		}
	}()
	return w
}

func (w *batchedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = append(w.buf, p...)
	if len(w.buf) >= batchLimit {
		return len(p), w.flushLocked()
	}
	return len(p), nil
}

func (w *batchedWriter) flush() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.flushLocked()
}

func (w *batchedWriter) flushLocked() error {
	if len(w.buf) == 0 {
		return nil
	}
	_, err := w.out.Write(w.buf)
	w.buf = w.buf[:0]
	return err
}

// Close stops the flusher and writes what is left; closing again only
// writes what came since.
func (w *batchedWriter) Close() error {
	w.stopped.Do(func() { close(w.stop) })
	<-w.done
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.flushLocked()
}
