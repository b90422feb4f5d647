// Package pipenet is a net.Listener whose connections are in-memory pipes
// (net.Pipe), for tests in a synctest bubble: there the clock moves only
// when every goroutine waits, so a timeout or a slow reader is exact
// however busy the machine, and a real listener would hang the bubble.
package pipenet

import (
	"context"
	"net"
	"sync"
)

// Listener hands its server the far end of each pipe a client dials.
type Listener struct {
	conns chan net.Conn
	done  chan struct{}
	once  sync.Once
}

// Listen is a listener no client has dialled yet.
func Listen() *Listener {
	return &Listener{conns: make(chan net.Conn), done: make(chan struct{})}
}

// DialContext connects to the listener, whatever the network and address:
// use it as an http.Transport's DialContext.
func (l *Listener) DialContext(ctx context.Context, _, _ string) (net.Conn, error) {
	near, far := net.Pipe()
	select {
	case l.conns <- far:
		return near, nil
	case <-l.done:
		return nil, net.ErrClosed
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Accept waits for the next dial, or the listener's close.
func (l *Listener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

// Close stops Accept and DialContext; it may be called more than once.
func (l *Listener) Close() error {
	l.once.Do(func() { close(l.done) })
	return nil
}

// Addr is a name for the listener: "pipe".
func (l *Listener) Addr() net.Addr { return addr{} }

type addr struct{}

func (addr) Network() string { return "pipe" }
func (addr) String() string  { return "pipe" }
