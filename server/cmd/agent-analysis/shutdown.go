package main

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"
)

// cancelOnShutdown gives every request srv serves a context its shutdown
// cancels with cause, so that open streams end promptly and say why:
// Shutdown alone would wait for them. Call what it returns once srv is
// done.
func cancelOnShutdown(srv *http.Server, cause error) (release func()) {
	base, cancel := context.WithCancelCause(context.Background())
	srv.BaseContext = func(net.Listener) context.Context { return base }
	srv.RegisterOnShutdown(func() { cancel(cause) })
	return func() { cancel(nil) }
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
