// Package server is the stateless Agent Analysis HTTP server: it plays the
// fixture scenarios as AG-UI event streams and serves the go-app UI.
package server

import (
	"errors"
	"log/slog"
	"net/http"
	"time"
)

// Config is everything the server depends on. The zero value serves the
// fixtures with their real delays, pages from ./web and logs nowhere.
type Config struct {
	// WebDir holds the static assets, the built app.wasm among them.
	WebDir string
	// Logger receives one line per request; nil discards.
	Logger *slog.Logger
	// NoDelay plays fixtures without their delays (tests, benchmarks).
	NoDelay bool
	// WriteTimeout bounds each event write to a slow client; 0 means 10 s.
	WriteTimeout time.Duration
	// OnDispose, if set, is told once per stream that its timer and cursor
	// were released. Tests use it to prove disposal; production leaves it nil.
	OnDispose func(Disposal)
}

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
	if cfg.WriteTimeout == 0 {
		cfg.WriteTimeout = 10 * time.Second
	}
	mux := http.NewServeMux()
	addRoutes(mux, cfg)
	return withSecurityHeaders(withRequestLog(cfg.Logger, mux))
}
