// Command agent-analysis serves the Agent Analysis demo: the AG-UI fixture
// endpoint and the go-app UI.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/agent-analysis/agent-analysis/server"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "agent-analysis:", err)
		os.Exit(1)
	}
}

// run serves until ctx ends, then shuts down gracefully.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	flags := flag.NewFlagSet("agent-analysis", flag.ContinueOnError)
	flags.SetOutput(stderr)
	addr := flags.String("addr", ":8080", "listen address")
	web := flags.String("web", "web", "directory of static assets, app.wasm included")
	debug := flags.Bool("debug", false, "verbose logging")
	jsonLog := flags.Bool("log-json", false, "log as JSON lines")
	if err := flags.Parse(args); err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(*web, "app.wasm")); err != nil {
		return fmt.Errorf("%w (build it with `make wasm`)", err)
	}

	level := slog.LevelInfo
	if *debug {
		level = slog.LevelDebug
	}
	opts := &slog.HandlerOptions{Level: level}
	var handler slog.Handler = slog.NewTextHandler(stdout, opts)
	if *jsonLog {
		handler = slog.NewJSONHandler(stdout, opts)
	}
	logger := slog.New(handler)

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	// Cancelling every request context on shutdown ends open streams promptly;
	// srv.Shutdown alone would wait for them.
	base, cancelRequests := context.WithCancelCause(context.Background())
	defer cancelRequests(nil)
	srv := &http.Server{
		Handler:           server.New(server.Config{WebDir: *web, Logger: logger}),
		ReadHeaderTimeout: 5 * time.Second,
		IdleTimeout:       60 * time.Second,
		BaseContext:       func(net.Listener) context.Context { return base },
		ErrorLog:          slog.NewLogLogger(handler, slog.LevelWarn),
	}
	srv.RegisterOnShutdown(func() { cancelRequests(server.ErrShutdown) })

	logger.Info("listening", "url", "http://"+ln.Addr().String()+"/agent-analysis")
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()

	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	logger.Info("shutting down")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err = srv.Shutdown(shutdownCtx)
	if errors.Is(err, context.DeadlineExceeded) {
		err = srv.Close()
	}
	if serveErr := <-served; !errors.Is(serveErr, http.ErrServerClosed) {
		return serveErr
	}
	return err
}
