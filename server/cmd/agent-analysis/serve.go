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
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agent-analysis/agent-analysis/app/catalogue"
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

// serve serves until ctx ends, then shuts down gracefully.
func serve(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f, err := parseServeFlags(args, stderr)
	if err != nil || f == nil {
		return err // nil, nil: -h
	}
	scripts, err := library.Load(f.fixtureDirs...)
	if err != nil {
		return fmt.Errorf("-fixtures: nothing served:\n%w", err)
	}
	logOut := newBatchedWriter(stdout, 50*time.Millisecond)
	defer logOut.Close()
	handler := logHandler(logOut, f.debug, f.jsonLog)
	logger := slog.New(handler)
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
		// Headers, then a body: the API's handler gives a body 10 s of its
		// own; this also bounds a body no handler reads.
		ReadTimeout: 15 * time.Second,
		IdleTimeout: 60 * time.Second,
		ErrorLog:    slog.NewLogLogger(handler, slog.LevelWarn),
	}
	defer cancelOnShutdown(srv, server.ErrShutdown)()

	logger.Info("listening", "url", "http://"+ln.Addr().String()+"/agent-analysis",
		"noDelay", f.noDelay, "maxStreams", f.maxStreams, "corsOrigins", strings.Join(f.origins, ","),
		"scripts", len(scripts.Names()), "fromFiles", len(scripts.Catalogue().In(catalogue.File)))
	return serveUntil(ctx, srv, ln, func() { logger.Info("shutting down") })
}

// parseServeFlags reads serve's command line; nil flags and no error
// for -h, which printed the usage.
func parseServeFlags(args []string, stderr io.Writer) (*serveFlags, error) {
	flags := flag.NewFlagSet("agent-analysis", flag.ContinueOnError)
	flags.SetOutput(stderr)
	flags.Usage = func() {
		fmt.Fprintf(flags.Output(), "Usage: agent-analysis [serve] [flags]\n"+
			"       agent-analysis check [flags] FILE|DIR... | -url URL (see agent-analysis check -h)\n"+
			"       agent-analysis record -url URL -o FILE (see agent-analysis record -h)\n"+
			"       agent-analysis proxy -upstream URL (see agent-analysis proxy -h)\n\n"+
			"Serves the Agent Analysis demo and its deterministic AG-UI fixture endpoint,\n"+
			"POST /api/agent-analysis. Flags:\n\n")
		flags.PrintDefaults()
	}
	var f serveFlags
	flags.StringVar(&f.addr, "addr", ":8080", "listen address")
	flags.StringVar(&f.web, "web", "web", "directory of static assets and the built app.wasm, relative to the working directory\n(without app.wasm the API and /healthz still work)")
	flags.BoolVar(&f.debug, "debug", false, "log every event and asset request")
	flags.BoolVar(&f.jsonLog, "log-json", false, "log as JSON lines")
	flags.BoolVar(&f.noDelay, "no-delay", false, "play every script without its delays (for client test suites; requests cannot choose this)")
	flags.Func("fixtures", "a directory of scripts to play besides the built-in ones (repeatable): its .json and .jsonl\n"+
		"files, each a JSON array of events, JSON Lines, or an AG-UI conformance-corpus object;\n"+
		"read once, at start. A bad file, or a name taken, refuses the start", func(dir string) error {
		f.fixtureDirs = append(f.fixtureDirs, dir)
		return nil
	})
	flags.IntVar(&f.maxStreams, "max-streams", server.DefaultMaxStreams, "streams played at once; above it a stream request gets 503 with Retry-After")
	corsOrigins := flags.String("cors-origins", "", "comma-separated origins (scheme://host[:port]) allowed to call the API, or * for any;\nnone by default: same origin only")
	switch err := flags.Parse(args); {
	case errors.Is(err, flag.ErrHelp):
		return nil, nil
	case err != nil:
		return nil, parseFailed(err)
	case flags.NArg() > 0:
		return nil, usagef("unexpected argument %q (see -h)", flags.Arg(0))
	case f.maxStreams < 1:
		return nil, usagef("-max-streams must be at least 1, got %d", f.maxStreams)
	}
	origins, err := parseOrigins(*corsOrigins)
	if err != nil {
		return nil, usage(err)
	}
	f.origins = origins
	return &f, nil
}

// logHandler writes the server's log lines to out, as text or JSON lines;
// with debug, every event and asset request too.
func logHandler(out io.Writer, debug, jsonLines bool) slog.Handler {
	level := slog.LevelInfo
	if debug {
		level = slog.LevelDebug
	}
	opts := &slog.HandlerOptions{Level: level}
	if jsonLines {
		return slog.NewJSONHandler(out, opts)
	}
	return slog.NewTextHandler(out, opts)
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
			o = u.Scheme + "://" + u.Host
		}
		origins = append(origins, o)
	}
	return origins, nil
}
