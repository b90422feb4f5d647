// Command agent-analysis serves the Agent Analysis demo: the AG-UI fixture
// endpoint and the go-app UI. Its other subcommands test AG-UI clients and
// agents: check judges script files or a live agent, record turns a live
// agent's run into a script that serve -fixtures replays.
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
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/agent-analysis/agent-analysis/app/catalogue"
	"github.com/agent-analysis/agent-analysis/server"
	"github.com/agent-analysis/agent-analysis/server/library"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	code := exitCode(run(ctx, os.Args[1:], os.Stdout, os.Stderr), os.Stderr)
	stop()
	os.Exit(code)
}

// usageError is a command line that cannot run (an unknown flag, a
// missing file, no arguments, a URL without a scheme): exit status 2.
type usageError struct {
	err     error
	printed bool // the flag package printed it, with the usage
}

func (u *usageError) Error() string { return u.err.Error() }
func (u *usageError) Unwrap() error { return u.err }

// usage marks err as the command line's fault.
func usage(err error) error { return &usageError{err: err} }

func usagef(format string, args ...any) error { return usage(fmt.Errorf(format, args...)) }

// parseFailed is a flag.Parse error: the flag package printed it.
func parseFailed(err error) error { return &usageError{err: err, printed: true} }

// exitCode prints err, once, and gives the exit status: 0, 1 when a
// check failed (the report said why) or something went wrong, 2 for a
// command line that cannot run.
func exitCode(err error, stderr io.Writer) int {
	var u *usageError
	switch {
	case err == nil:
		return 0
	case errors.Is(err, errFailed):
		return 1
	case errors.As(err, &u):
		if !u.printed {
			fmt.Fprintln(stderr, "agent-analysis:", err)
		}
		return 2
	}
	fmt.Fprintln(stderr, "agent-analysis:", err)
	return 1
}

// run runs a subcommand: serve (the default), check, or record.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 {
		switch args[0] {
		case "serve":
			return serve(ctx, args[1:], stdout, stderr)
		case "check":
			return runCheck(ctx, args[1:], stdout, stderr)
		case "record":
			return runRecord(ctx, args[1:], stdout, stderr)
		case "proxy":
			return runProxy(ctx, args[1:], stdout, stderr)
		}
	}
	return serve(ctx, args, stdout, stderr)
}

// serve serves until ctx ends, then shuts down gracefully.
func serve(ctx context.Context, args []string, stdout, stderr io.Writer) error {
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
	addr := flags.String("addr", ":8080", "listen address")
	web := flags.String("web", "web", "directory of static assets and the built app.wasm, relative to the working directory\n(without app.wasm the API and /healthz still work)")
	debug := flags.Bool("debug", false, "log every event and asset request")
	jsonLog := flags.Bool("log-json", false, "log as JSON lines")
	noDelay := flags.Bool("no-delay", false, "play every script without its delays (for client test suites; requests cannot choose this)")
	var fixtureDirs []string
	flags.Func("fixtures", "a directory of scripts to play besides the built-in ones (repeatable): its .json and .jsonl\n"+
		"files, each a JSON array of events, JSON Lines, or an AG-UI conformance-corpus object;\n"+
		"read once, at start. A bad file, or a name taken, refuses the start", func(dir string) error {
		fixtureDirs = append(fixtureDirs, dir)
		return nil
	})
	maxStreams := flags.Int("max-streams", server.DefaultMaxStreams, "streams played at once; above it a stream request gets 503 with Retry-After")
	corsOrigins := flags.String("cors-origins", "", "comma-separated origins (scheme://host[:port]) allowed to call the API, or * for any;\nnone by default: same origin only")
	switch err := flags.Parse(args); {
	case errors.Is(err, flag.ErrHelp):
		return nil
	case err != nil:
		return parseFailed(err)
	case flags.NArg() > 0:
		return usagef("unexpected argument %q (see -h)", flags.Arg(0))
	case *maxStreams < 1:
		return usagef("-max-streams must be at least 1, got %d", *maxStreams)
	}
	origins, err := parseOrigins(*corsOrigins)
	if err != nil {
		return usage(err)
	}
	scripts, err := library.Load(fixtureDirs...)
	if err != nil {
		return fmt.Errorf("-fixtures: nothing served:\n%w", err)
	}

	level := slog.LevelInfo
	if *debug {
		level = slog.LevelDebug
	}
	opts := &slog.HandlerOptions{Level: level}
	logOut := newBatchedWriter(stdout, 50*time.Millisecond)
	defer logOut.Close()
	var handler slog.Handler = slog.NewTextHandler(logOut, opts)
	if *jsonLog {
		handler = slog.NewJSONHandler(logOut, opts)
	}
	logger := slog.New(handler)
	if _, err := os.Stat(filepath.Join(*web, "app.wasm")); err != nil {
		dir, _ := filepath.Abs(*web)
		logger.Warn("no app.wasm: the API and /healthz work, the pages say how to build the client (make wasm, or -web DIR)", "web", dir)
	}

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	// Cancelling every request context on shutdown ends open streams promptly;
	// srv.Shutdown alone would wait for them.
	base, cancelRequests := context.WithCancelCause(context.Background())
	defer cancelRequests(nil)
	srv := &http.Server{
		Handler: server.New(server.Config{
			WebDir: *web, Logger: logger, Scripts: scripts, NoDelay: *noDelay, MaxStreams: *maxStreams, CORSOrigins: origins,
		}),
		ReadHeaderTimeout: 5 * time.Second,
		// Headers, then a body: the API's handler gives a body 10 s of its
		// own; this also bounds a body no handler reads.
		ReadTimeout: 15 * time.Second,
		IdleTimeout: 60 * time.Second,
		BaseContext: func(net.Listener) context.Context { return base },
		ErrorLog:    slog.NewLogLogger(handler, slog.LevelWarn),
	}
	srv.RegisterOnShutdown(func() { cancelRequests(server.ErrShutdown) })

	logger.Info("listening", "url", "http://"+ln.Addr().String()+"/agent-analysis",
		"noDelay", *noDelay, "maxStreams", *maxStreams, "corsOrigins", strings.Join(origins, ","),
		"scripts", len(scripts.Names()), "fromFiles", len(scripts.Catalogue().In(catalogue.File)))
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
