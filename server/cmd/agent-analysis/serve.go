package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agent-analysis/agent-analysis/app/catalogue"
	"github.com/agent-analysis/agent-analysis/internal/gcpace"
	"github.com/agent-analysis/agent-analysis/server"
	"github.com/agent-analysis/agent-analysis/server/library"
)

// serveFlags are what serve is started with.
type serveFlags struct {
	addr, web      string
	debug, jsonLog bool
	noDelay        bool
	fixtureDirs    []string
	maxStreams     int
	origins        []string // -cors-origins, read
}

var serveCommand = command{
	name:     "serve",
	synopsis: []string{"[flags]"},
	about: `Serves the Agent Analysis demo and its deterministic AG-UI fixture endpoint,
POST /api/agent-analysis, until SIGINT or SIGTERM, then shuts down gracefully.`,
	flags: serveFlagSet,
}

func serveFlagSet(set *flag.FlagSet) work {
	var f serveFlags
	set.StringVar(&f.addr, "addr", ":8080", "listen address")
	set.StringVar(&f.web, "web", "web", "directory of static assets and the built app.wasm, relative to the working directory\n(without app.wasm the API and /healthz still work)")
	set.BoolVar(&f.debug, "debug", false, "log every event and asset request")
	set.BoolVar(&f.jsonLog, "log-json", false, "log as JSON lines")
	set.BoolVar(&f.noDelay, "no-delay", false, "play every script without its delays (for client test suites; requests cannot choose this)")
	set.Func("fixtures", "a directory of scripts to play besides the built-in ones (repeatable): its .json and .jsonl\n"+
		"files, each a JSON array of events, JSON Lines, or an AG-UI conformance-corpus object;\n"+
		"read once, at start. A bad file, or a name taken, refuses the start", func(dir string) error {
		if info, err := os.Stat(dir); err != nil || !info.IsDir() {
			return fmt.Errorf("%s is not a folder", dir)
		}
		f.fixtureDirs = append(f.fixtureDirs, dir)
		return nil
	})
	set.IntVar(&f.maxStreams, "max-streams", server.DefaultMaxStreams, "streams played at once; above it a stream request gets 503 with Retry-After")
	corsOrigins := set.String("cors-origins", "", "comma-separated origins (scheme://host[:port]) allowed to call the API, or * for any;\nnone by default: same origin only")
	return func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
		switch {
		case len(args) > 0:
			return usagef("unexpected argument %q", args[0])
		case f.maxStreams < 1:
			return usagef("-max-streams must be at least 1, got %d", f.maxStreams)
		}
		origins, err := parseOrigins(*corsOrigins)
		if err != nil {
			return usage(err)
		}
		f.origins = origins
		return serve(ctx, f, stdout)
	}
}

// serve serves until ctx ends, then shuts down gracefully.
func serve(ctx context.Context, f serveFlags, stdout io.Writer) error {
	// The server alone paces its collector: a stream's garbage against a
	// small live heap (the guide's Memory); check, record, proxy and
	// inspect run as Go does.
	gcpace.Set(os.Getenv)
	scripts, err := library.Load(f.fixtureDirs...)
	if err != nil {
		return fmt.Errorf("-fixtures: nothing served:\n%w", err)
	}
	logOut := newBatchedWriter(stdout, 50*time.Millisecond)
	defer logOut.Close()
	handler := logHandler(logOut, f.debug, f.jsonLog)
	logger := slog.New(handler)
	for _, n := range scripts.Notices() {
		logger.Warn("-fixtures: " + n)
	}
	if _, err := os.Stat(filepath.Join(f.web, "app.wasm")); err != nil {
		dir, _ := filepath.Abs(f.web)
		logger.Warn("no app.wasm: the API and /healthz work, the pages say how to build the client (make wasm, or -web DIR)", "web", dir)
	}

	ln, err := net.Listen("tcp", f.addr)
	if err != nil {
		return err
	}
	srv := &http.Server{
		Handler: server.New(server.Config{
			WebDir: f.web, Logger: logger, Scripts: scripts, NoDelay: f.noDelay, MaxStreams: f.maxStreams, CORSOrigins: f.origins,
		}),
		ReadHeaderTimeout: 5 * time.Second,
		// Headers and body within the 10 s the API's handler gives a body
		// (server.Config.BodyTimeout), which then sets no deadline of its
		// own; this also bounds a body no handler reads.
		ReadTimeout: 10 * time.Second,
		IdleTimeout: 60 * time.Second,
		ErrorLog:    slog.NewLogLogger(handler, slog.LevelWarn),
	}
	defer cancelOnShutdown(srv, server.ErrShutdown)()

	logger.Info("listening", "url", "http://"+ln.Addr().String()+"/agent-analysis",
		"noDelay", f.noDelay, "maxStreams", f.maxStreams, "corsOrigins", strings.Join(f.origins, ","),
		"scripts", len(scripts.Names()), "fromFiles", len(scripts.Catalogue().In(catalogue.File)))
	return serveUntil(ctx, srv, ln, func() { logger.Info("shutting down") })
}

// logHandler writes the server's log lines to out, as text or JSON lines;
// with debug, every event and asset request too. out takes concurrent
// writes (lineHandler).
func logHandler(out io.Writer, debug, jsonLines bool) slog.Handler {
	level := slog.LevelInfo
	if debug {
		level = slog.LevelDebug
	}
	opts := &slog.HandlerOptions{Level: level}
	if jsonLines {
		return &lineHandler{slog.NewJSONHandler(out, opts), out, true}
	}
	return &lineHandler{slog.NewTextHandler(out, opts), out, false}
}

// parseOrigins reads -cors-origins: "*", or origins written as a browser
// sends them in its Origin header.
func parseOrigins(list string) ([]string, error) {
	var origins []string
	for o := range strings.SplitSeq(list, ",") {
		o = strings.TrimSpace(o)
		if o == "" {
			continue
		}
		if o != "*" {
			u, err := url.Parse(o)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" ||
				u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
				return nil, fmt.Errorf("-cors-origins: %q is not an origin such as http://localhost:5173, or *", o)
			}
			host := strings.TrimSuffix(u.Host, ":")
			if p := u.Port(); p == "80" && u.Scheme == "http" || p == "443" && u.Scheme == "https" {
				host = strings.TrimSuffix(host, ":"+p) // a browser's Origin leaves the default port out
			}
			o = u.Scheme + "://" + host
		}
		origins = append(origins, o)
	}
	return origins, nil
}
