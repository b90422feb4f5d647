package proxy

import (
	"errors"
	"io"
	"sync"
	"time"
)

// errBehind ends a judge's reading when its backlog overflowed: what
// follows is gone, and an SSE stream cannot be judged from its middle.
var errBehind = errors.New("the stream ran ahead of the judge")

// backlog hands a stream's bytes from the handler to its judge without
// ever making the handler wait: put copies and returns. Past max bytes
// waiting, a chunk is dropped, and the judge reads what was queued before
// it, then errBehind: the first problem in the stream's order is still
// found first (an event over the engine's bound is seen within the
// first MiB, well inside max).
type backlog struct {
	mu      sync.Mutex
	ready   sync.Cond
	chunks  []chunk
	waiting int  // bytes queued
	max     int  // bound on waiting
	over    bool // a chunk was dropped
	quit    bool // the judge reads no more: take nothing
	end     error
	at      time.Time // when the chunk last read from arrived
}

type chunk struct {
	data []byte
	at   time.Time
	kept *[]byte // the pooled buffer data is in, if it is
}

// Chunks of up to smallChunk bytes (most reads of an event stream) are
// copied into buffers kept between streams, and given back once read.
var chunkBuffers = sync.Pool{New: func() any { b := make([]byte, 0, smallChunk); return &b }}

const smallChunk = 4 << 10

// copyChunk is a chunk holding a copy of p.
func copyChunk(p []byte, at time.Time) chunk {
	if len(p) > smallChunk {
		return chunk{data: append([]byte(nil), p...), at: at}
	}
	kept := chunkBuffers.Get().(*[]byte)
	return chunk{data: append((*kept)[:0], p...), at: at, kept: kept}
}

// release gives the chunk's buffer back, once nothing reads it.
func (c *chunk) release() {
	if c.kept != nil {
		chunkBuffers.Put(c.kept)
	}
	*c = chunk{}
}

func newBacklog(max int) *backlog {
	b := &backlog{max: max}
	b.ready.L = &b.mu
	return b
}

// put queues a copy of p, which arrived at at; it never blocks.
func (b *backlog) put(p []byte, at time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.quit || b.over || b.end != nil {
		return
	}
	if b.waiting+len(p) > b.max {
		b.over = true
	} else {
		b.chunks = append(b.chunks, copyChunk(p, at))
		b.waiting += len(p)
	}
	b.ready.Signal()
}

// close ends the stream: after what is queued, the judge reads err
// (io.EOF for a whole stream).
func (b *backlog) close(err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.end == nil {
		b.end = err
	}
	b.ready.Signal()
}

// stop is the judge's: it reads no more, and what waits is freed.
func (b *backlog) stop() {
	b.mu.Lock()
	defer b.mu.Unlock()
	for i := range b.chunks {
		b.chunks[i].release()
	}
	b.quit, b.chunks, b.waiting = true, nil, 0
}

// Read is the judge's: it blocks until bytes, or the end, are there.
func (b *backlog) Read(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for len(b.chunks) == 0 && !b.over && b.end == nil && !b.quit {
		b.ready.Wait()
	}
	switch {
	case len(b.chunks) > 0:
		c := &b.chunks[0]
		n := copy(p, c.data)
		b.at = c.at
		if c.data = c.data[n:]; len(c.data) == 0 {
			c.release()
			b.chunks = b.chunks[1:]
		}
		b.waiting -= n
		return n, nil
	case b.over:
		return 0, errBehind
	case b.quit:
		return 0, io.EOF
	}
	return 0, b.end
}

// arrival is when the bytes last read arrived.
func (b *backlog) arrival() time.Time {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.at
}
