package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/agent-analysis/agent-analysis/kit/inspect"
	"github.com/agent-analysis/agent-analysis/server"
)

var inspectCommand = command{
	name:     "inspect",
	synopsis: []string{"[flags] [FILE|DIR...]"},
	about: `Opens runs in the inspector, a page in the browser: captures (SSE, or AG-UI's binary
transport), scripts and a proxy's -log files, as check reads them, each judged, its events
marked where a rule was broken or warned about. Files dropped on the page open too. For
the runs passing a proxy, live, use proxy -inspect ADDR.

The page shows a run's request (header names, never values), its events, its conversation
and its state at any event; it reads, and sends nothing to any agent. It answers only its
own address: localhost or an IP address, and its port.`,
	flags: inspectFlags,
}

func inspectFlags(set *flag.FlagSet) work {
	addr := set.String("addr", "127.0.0.1:8091", "the inspector's listen address (loopback by default)")
	web := set.String("web", "web", "directory of static assets and the built inspector.wasm, relative to the working directory")
	keep := set.Int("keep", inspect.DefaultKeep, "the runs kept: past them, the oldest go")
	return func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
		if *keep < 1 {
			return usagef("-keep must be at least 1, got %d", *keep)
		}
		store := inspect.NewStore(*keep)
		for _, line := range store.Load(args) {
			fmt.Fprintln(stderr, "inspect: "+line)
		}
		ln, err := net.Listen("tcp", *addr)
		if err != nil {
			return err
		}
		srv, release := newInspectorServer(store, ln, *web, stderr)
		defer release()
		fmt.Fprintf(stdout, "inspect: %d runs, at http://%s/\n", len(store.Runs()), ln.Addr())
		return serveUntil(ctx, srv, ln, nil)
	}
}

// newInspectorServer is the server of the inspector's page on ln; call
// release once it is done.
func newInspectorServer(store *inspect.Store, ln net.Listener, web string, stderr io.Writer) (srv *http.Server, release func()) {
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	if _, err := os.Stat(filepath.Join(web, "inspector.wasm")); err != nil {
		dir, _ := filepath.Abs(web)
		fmt.Fprintf(stderr, "inspect: no inspector.wasm in %s: the page says how to build it (make wasm, or -web DIR)\n", dir)
	}
	srv = &http.Server{
		Handler:           server.NewInspector(server.InspectorConfig{API: store.Handler(), WebDir: web, Port: port}),
		ReadHeaderTimeout: 5 * time.Second,
		IdleTimeout:       60 * time.Second,
	}
	// The page's live feed ends with the server.
	return srv, cancelOnShutdown(srv, context.Canceled)
}
