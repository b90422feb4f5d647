package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/agent-analysis/agent-analysis/internal/atomicfile"
	"github.com/agent-analysis/agent-analysis/kit/agent"
	"github.com/agent-analysis/agent-analysis/kit/check"
	"github.com/agent-analysis/agent-analysis/kit/inspect"
	"github.com/agent-analysis/agent-analysis/kit/proxy"
	"github.com/agent-analysis/agent-analysis/kit/sarif"
)

// maxSARIFResults bounds what -sarif holds for a long-running proxy.
const maxSARIFResults = 10000

var proxyCommand = command{
	name:     "proxy",
	synopsis: []string{"-upstream URL [flags]"},
	about: `Forwards every request to the agent at -upstream and its answer back unchanged, flushed as
it arrives, and judges each run (a POST) as it passes: the RunAgentInput the client sent,
its resume list, and the stream, as check -url does. A request for / goes to the upstream
URL itself; one for /x to the upstream's path + /x. It prints a line per run, "ok   thread T
run R · …" or "FAIL thread T run R: rule at event N: why (page)", and a summary on SIGINT or
SIGTERM; the exit status is then 1 if any run broke a rule. A run its client cancelled (a
user pressing Stop) is reported as such, not failed. It only reports: no byte waits for it.`,
	flags: proxyFlags,
}

func proxyFlags(set *flag.FlagSet) work {
	upstream := set.String("upstream", "", "the agent's AG-UI endpoint, http(s)://…: every request goes there")
	addr := set.String("addr", "127.0.0.1:8090", "listen address (loopback by default)")
	var logFile string
	set.Func("log", "write each run as a script, as record does: the first to FILE (.json or .jsonl),\nthe Nth beside it with -N before the extension (FILE-2.json); serve -fixtures replays them, check judges them", func(path string) error {
		if err := checkOutput(path); err != nil {
			return err
		}
		logFile = path
		return nil
	})
	corsOrigins := set.String("cors-origins", "", "comma-separated origins (scheme://host[:port]) a browser client may call the proxy from,\nor *; the proxy then answers CORS itself. None by default: the upstream's headers pass")
	writeTimeout := set.Duration("write-timeout", 10*time.Second, "a client that accepts nothing for this long is dropped, and its run's upstream request cancelled")
	threads := set.Int("threads", proxy.DefaultThreads, "threads whose open interrupts are remembered, to check the resume that answers them")
	sarifFile := outputFlag(set, "sarif", "on exit, write every failure to this file as SARIF 2.1.0 (one result per failure:\nits rule, the rule's page, the upstream URL and the event), whole or not at all")
	verbose := set.Bool("v", false, "print each run's notes too: the engine's warnings, what was not judged and why")
	inspectAddr := set.String("inspect", "", "also serve the inspector at this address (127.0.0.1:8091): every run as it passes, judged,\nin the browser; it answers only its own address and never reaches the agent")
	keep := set.Int("keep", inspect.DefaultKeep, "with -inspect: the runs the inspector keeps; past them, the oldest go")
	web := set.String("web", "web", "with -inspect: the directory holding the built inspector.wasm")
	return func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
		switch {
		case len(args) > 0:
			return usagef("unexpected argument %q", args[0])
		case *upstream == "":
			return usagef("-upstream URL is required")
		case *writeTimeout <= 0:
			return usagef("-write-timeout must be positive, got %s", *writeTimeout)
		case *threads < 1:
			return usagef("-threads must be at least 1, got %d", *threads)
		case *keep < 1:
			return usagef("-keep must be at least 1, got %d", *keep)
		case *inspectAddr == "" && given(set, "keep", "web") != "":
			return usagef("-%s goes with -inspect", given(set, "keep", "web"))
		}
		origins, err := parseOrigins(*corsOrigins)
		if err != nil {
			return usage(err)
		}
		return runProxy(ctx, proxySetup{*upstream, *addr, logFile, origins, *writeTimeout, *threads, *sarifFile, *verbose, *inspectAddr, *keep, *web}, stdout, stderr)
	}
}

// proxySetup is what proxy is started with.
type proxySetup struct {
	upstream, addr, log string
	origins             []string
	writeTimeout        time.Duration
	threads             int
	sarif               string
	verbose             bool
	inspect             string // the inspector's address; "" for none
	keep                int
	web                 string
}

// runProxy stands between a real client and a real agent, passing every
// byte and judging every run, until ctx ends.
func runProxy(ctx context.Context, s proxySetup, stdout, stderr io.Writer) error {
	var mu sync.Mutex // one run's lines together, and the SARIF results
	// A run's lines go out with others within 50 ms, as serve's log
	// lines do: a write per run would cost a good share of its CPU.
	runLines := newBatchedWriter(stdout, 50*time.Millisecond)
	defer runLines.Close()
	var p *proxy.Proxy
	var err error
	var results []sarif.Result
	dropped := 0
	var observer proxy.Observer
	var store *inspect.Store
	if s.inspect != "" {
		store = inspect.NewStore(s.keep)
		observer = store
	}
	p, err = proxy.New(proxy.Config{
		Observer: observer,
		Upstream: s.upstream, Log: s.log, CORSOrigins: s.origins, WriteTimeout: s.writeTimeout, Threads: s.threads,
		Report: func(r proxy.Run) {
			mu.Lock()
			defer mu.Unlock()
			for _, line := range r.Lines(s.verbose) {
				check.Line(runLines, "%s", line) // the client's ids and the agent's texts, escaped
			}
			if s.sarif != "" {
				found := p.SARIF(r)
				keep := min(len(found), maxSARIFResults-len(results))
				results, dropped = append(results, found[:keep]...), dropped+len(found)-keep
			}
		},
	})
	if err != nil {
		return usagef("-upstream: %w", err)
	}
	ln, err := net.Listen("tcp", s.addr)
	if err != nil {
		return err
	}
	srv := &http.Server{
		Handler:           p,
		ReadHeaderTimeout: 5 * time.Second,
		IdleTimeout:       60 * time.Second,
		ErrorLog:          log.New(stderr, "proxy: ", 0),
	}
	// The runs a shutdown cuts are reported as interrupted.
	defer cancelOnShutdown(srv, proxy.ErrShutdown)()
	mu.Lock()
	fmt.Fprintf(stdout, "proxy: listening on http://%s, forwarding to %s\n", ln.Addr(), agent.RedactURL(s.upstream))
	mu.Unlock()
	if store != nil {
		iln, err := net.Listen("tcp", s.inspect)
		if err != nil {
			ln.Close()
			return fmt.Errorf("-inspect: %w", err)
		}
		isrv, release := newInspectorServer(store, iln, s.web, stderr)
		defer release()
		// It ends with the proxy, whatever ends that.
		ictx, stop := context.WithCancel(ctx)
		inspecting := make(chan error, 1)
		go func() { inspecting <- serveUntil(ictx, isrv, iln, nil) }()
		defer func() { <-inspecting }()
		defer stop()
		mu.Lock()
		fmt.Fprintf(stdout, "proxy: the inspector at http://%s/\n", iln.Addr())
		mu.Unlock()
	}
	err = serveUntil(ctx, srv, ln, nil)
	p.Close()
	runLines.Close() // every run's lines before the summary
	summary := p.Summary()
	mu.Lock()
	fmt.Fprintln(stdout, summary)
	mu.Unlock()
	if s.sarif != "" {
		if dropped > 0 {
			fmt.Fprintf(stderr, "proxy: -sarif: the first %d failures written, %d more left out\n", len(results), dropped)
		}
		var b bytes.Buffer
		if werr := sarif.Write(&b, sarif.Tool{Name: "agent-analysis proxy", InformationURI: "https://github.com/agent-analysis/agent-analysis"}, results); werr != nil {
			err = errors.Join(err, werr)
		} else if werr := atomicfile.Write(s.sarif, b.Bytes()); werr != nil {
			err = errors.Join(err, fmt.Errorf("-sarif: %w", werr))
		}
	}
	switch {
	case err != nil:
		return err
	case summary.Failed > 0:
		return errFailed
	}
	return nil
}
