// Package server is the stateless Agent Analysis HTTP server: it plays the
// fixture scenarios as AG-UI event streams and serves the go-app UI.
package server

import (
	"errors"
	"log/slog"
	"net/http"
	"time"

	"github.com/agent-analysis/agent-analysis/server/library"
)

// Config is everything the server depends on. The zero value serves the
// built-in fixtures with their real delays, pages from ./web, logs nowhere
// and allows no other origin.
type Config struct {
	// Scripts are what the server plays and the page offers; nil is the
	// built-in fixtures alone. main loads them once, at start
	// (library.Load), so a request never reaches the disk.
	Scripts *library.Library
	// WebDir holds the static assets, the built app.wasm among them.
	// Without an app.wasm the API and /healthz still work.
	WebDir string
	// Logger receives one line per request; nil discards.
	Logger *slog.Logger
	// NoDelay plays scripts without their delays (operators running
	// client test suites; requests can never choose this).
	NoDelay bool
	// WriteTimeout bounds each event write to a slow client; 0 means 10 s.
	WriteTimeout time.Duration
	// BodyTimeout bounds reading a request body, from the handler's start;
	// past it the answer is 408. 0 means 10 s.
	BodyTimeout time.Duration
	// ProgressTimeout drops a page, file or wasm response whose client
	// accepts nothing for this long; a slow reader that keeps reading is
	// kept. 0 means 30 s.
	ProgressTimeout time.Duration
	// MaxStreams caps the streams played at once; above it a stream
	// request gets 503 with Retry-After. 0 means DefaultMaxStreams.
	MaxStreams int
	// CORSOrigins are the other origins allowed to call the API ("*" for
	// any). None by default: same origin only.
	CORSOrigins []string

	// onDispose, if set, is told once per stream that its timer and cursor
	// were released: tests prove disposal with it (export_test.go).
	onDispose func(Disposal)
}

// DefaultMaxStreams is sized for a 2-core, few-GiB machine: a held stream
// costs about 2 goroutines and 30 KiB, so 2,000 of them take some 60 MiB
// and stay well inside a default 4,096 open-file limit.
const DefaultMaxStreams = 2000

// ErrShutdown is the cancellation cause main gives every request context
// when the server shuts down, so streams end promptly and say why.
var ErrShutdown = errors.New("server shutting down")

// New returns the server's whole HTTP surface.
func New(cfg Config) http.Handler {
	if cfg.WebDir == "" {
		cfg.WebDir = "web"
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Scripts == nil {
		cfg.Scripts = library.BuiltIn()
	}
	cfg.WriteTimeout = orDefault(cfg.WriteTimeout, 10*time.Second)
	cfg.BodyTimeout = orDefault(cfg.BodyTimeout, 10*time.Second)
	cfg.ProgressTimeout = orDefault(cfg.ProgressTimeout, 30*time.Second)
	if cfg.MaxStreams <= 0 {
		cfg.MaxStreams = DefaultMaxStreams
	}
	return withSecurityHeaders(withRequestLog(cfg.Logger, routes(cfg)))
}

func orDefault(d, fallback time.Duration) time.Duration {
	if d <= 0 {
		return fallback
	}
	return d
}
