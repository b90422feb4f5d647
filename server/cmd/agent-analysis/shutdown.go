package main

import (
	"context"
	"errors"
	"net"
	"net/http"
	"sync"
	"time"
)

// cancelOnShutdown gives every request srv serves a context its shutdown
// cancels with cause, so that open streams end promptly and say why:
// Shutdown alone would wait for them. It also ends every connection's
// reads then, so that a request body that stalls does not hold the
// shutdown for the 10 s its read may take; that costs a connection, not a
// request, anything. Call what it returns once srv is done.
func cancelOnShutdown(srv *http.Server, cause error) (release func()) {
	base, cancel := context.WithCancelCause(context.Background())
	srv.BaseContext = func(net.Listener) context.Context { return base }
	conns := openConns{conns: make(map[net.Conn]struct{})}
	srv.ConnState = conns.track
	srv.RegisterOnShutdown(func() {
		// First the contexts: a handler that starts reading after the cut
		// (net/http may set a request's deadline again after it) finds
		// its context ended already (server/input.go).
		cancel(cause)
		conns.endReads()
	})
	return func() { cancel(nil) }
}

// openConns are a server's connections, from accepted to closed.
type openConns struct {
	mu    sync.Mutex
	conns map[net.Conn]struct{}
}

func (o *openConns) track(c net.Conn, state http.ConnState) {
	switch state {
	case http.StateNew:
		o.mu.Lock()
		o.conns[c] = struct{}{}
		o.mu.Unlock()
	case http.StateHijacked, http.StateClosed:
		o.mu.Lock()
		delete(o.conns, c)
		o.mu.Unlock()
	}
}

// endReads makes every read in progress, and every read to come, fail at
// once; writes go on, so a stream can still say it was cancelled.
func (o *openConns) endReads() {
	o.mu.Lock()
	defer o.mu.Unlock()
	now := time.Now()
	for c := range o.conns {
		c.SetReadDeadline(now)
	}
}

// serveUntil serves on ln until ctx ends, then shuts srv down: open
// requests get 5 s to finish, then their connections are closed.
// stopping, if set, is told when the shutdown starts.
func serveUntil(ctx context.Context, srv *http.Server, ln net.Listener, stopping func()) error {
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	if stopping != nil {
		stopping()
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := srv.Shutdown(shutdownCtx)
	if errors.Is(err, context.DeadlineExceeded) {
		err = srv.Close()
	}
	if serveErr := <-served; !errors.Is(serveErr, http.ErrServerClosed) {
		return serveErr
	}
	return err
}
