package server

import "sync"

// A bufferPool keeps byte buffers between requests, each of at most most
// bytes: a larger one is left to the collector. It holds pointers, so
// that putting a buffer back allocates nothing.
type bufferPool struct {
	pool sync.Pool
	most int
}

// get is an empty buffer, kept or new.
func (p *bufferPool) get() *[]byte {
	if b, ok := p.pool.Get().(*[]byte); ok {
		return b
	}
	return new([]byte)
}

// put keeps b, emptied, for the next get; used is what b grew into since.
func (p *bufferPool) put(b *[]byte, used []byte) {
	if cap(used) <= p.most {
		*b = used[:0]
		p.pool.Put(b)
	}
}
