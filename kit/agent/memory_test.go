package agent

import (
	"context"
	"net"
	"net/http"
	"sync"
	"testing"
)

// inMemory serves handle over in-memory connections (net.Pipe), for a
// test in a synctest bubble: there the clock moves only when every
// goroutine waits, so a timeout or a pause is exact, however busy the
// machine. The request goes to it whatever its URL.
func inMemory(t *testing.T, handle http.HandlerFunc) dialer {
	t.Helper()
	l := &pipes{conns: make(chan net.Conn), closed: make(chan struct{})}
	srv := &http.Server{Handler: handle}
	served := make(chan struct{})
	go func() {
		defer close(served)
		srv.Serve(l)
	}()
	t.Cleanup(func() {
		srv.Close() // ends every connection, and with it every handler
		<-served
	})
	return l.dial
}

// pipes is a listener whose connections are the server's ends of pipes.
type pipes struct {
	conns  chan net.Conn
	closed chan struct{}
	once   sync.Once
}

func (l *pipes) dial(ctx context.Context, _, _ string) (net.Conn, error) {
	server, client := net.Pipe()
	select {
	case l.conns <- server:
		return client, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-l.closed:
		return nil, net.ErrClosed
	}
}

func (l *pipes) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.closed:
		return nil, net.ErrClosed
	}
}

func (l *pipes) Close() error {
	l.once.Do(func() { close(l.closed) })
	return nil
}

func (l *pipes) Addr() net.Addr { return pipeAddr{} }

type pipeAddr struct{}

func (pipeAddr) Network() string { return "pipe" }
func (pipeAddr) String() string  { return "pipe" }
