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
	"github.com/agent-analysis/agent-analysis/kit/proxy"
	"github.com/agent-analysis/agent-analysis/kit/sarif"
)

// maxSARIFResults bounds what -sarif holds for a long-running proxy.
const maxSARIFResults = 10000

// runProxy stands between a real client and a real agent, passing every
// byte and judging every run, until ctx ends.
func runProxy(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	flags := flag.NewFlagSet("agent-analysis proxy", flag.ContinueOnError)
	flags.SetOutput(stderr)
	flags.Usage = func() {
		fmt.Fprintf(flags.Output(), "Usage: agent-analysis proxy -upstream URL [flags]\n\n"+
			"Forwards every request to the agent at -upstream and its answer back unchanged, flushed as\n"+
			"it arrives, and judges each run (a POST) as it passes: the RunAgentInput the client sent,\n"+
			"its resume list, and the stream, as check -url does. A request for / goes to the upstream\n"+
			"URL itself; one for /x to the upstream's path + /x. It prints a line per run, \"ok   thread T\n"+
			"run R · …\" or \"FAIL thread T run R: rule at event N: why\", and a summary on SIGINT or\n"+
			"SIGTERM; the exit status is then 1 if any run failed. It only reports: no byte waits for it.\n\nFlags:\n")
		flags.PrintDefaults()
	}
	upstream := flags.String("upstream", "", "the agent's AG-UI endpoint, http(s)://…: every request goes there")
	addr := flags.String("addr", "127.0.0.1:8090", "listen address (loopback by default)")
	logFile := flags.String("log", "", "write each run as a script, as record does: the first to FILE (.json or .jsonl),\nthe Nth beside it with -N before the extension (FILE-2.json); serve -fixtures replays them, check judges them")
	corsOrigins := flags.String("cors-origins", "", "comma-separated origins (scheme://host[:port]) a browser client may call the proxy from,\nor *; the proxy then answers CORS itself. None by default: the upstream's headers pass")
	writeTimeout := flags.Duration("write-timeout", 10*time.Second, "a client that accepts nothing for this long is dropped, and its run's upstream request cancelled")
	threads := flags.Int("threads", proxy.DefaultThreads, "threads whose open interrupts are remembered, to check the resume that answers them")
	sarifFile := flags.String("sarif", "", "on exit, write every failure to this file as SARIF 2.1.0 (one result per failure:\nits rule, the rule's spec page, the upstream URL and the event), whole or not at all")
	verbose := flags.Bool("v", false, "print each run's notes too: the engine's warnings, what was not judged and why")
	switch err := flags.Parse(args); {
	case errors.Is(err, flag.ErrHelp):
		return nil
	case err != nil:
		return parseFailed(err)
	case flags.NArg() > 0:
		return usagef("proxy: unexpected argument %q (see -h)", flags.Arg(0))
	case *upstream == "":
		return usagef("proxy: -upstream URL is required")
	case *writeTimeout <= 0:
		return usagef("proxy: -write-timeout must be positive, got %s", *writeTimeout)
	case *threads < 1:
		return usagef("proxy: -threads must be at least 1, got %d", *threads)
	}
	if *logFile != "" {
		if err := checkOutput(*logFile); err != nil {
			return usagef("proxy: -log %s: %w", *logFile, err)
		}
	}
	origins, err := parseOrigins(*corsOrigins)
	if err != nil {
		return usagef("proxy: %w", err)
	}

	var mu sync.Mutex // one run's lines together, and the SARIF results
	// A run's lines go out with others within 50 ms, as serve's log
	// lines do: a write per run would cost a good share of its CPU.
	runLines := newBatchedWriter(stdout, 50*time.Millisecond)
	defer runLines.Close()
	var p *proxy.Proxy
	var results []sarif.Result
	dropped := 0
	p, err = proxy.New(proxy.Config{
		Upstream: *upstream, Log: *logFile, CORSOrigins: origins, WriteTimeout: *writeTimeout, Threads: *threads,
		Report: func(r proxy.Run) {
			mu.Lock()
			defer mu.Unlock()
			for _, line := range r.Lines(*verbose) {
				fmt.Fprintln(runLines, line)
			}
			if *sarifFile != "" {
				found := p.SARIF(r)
				keep := min(len(found), maxSARIFResults-len(results))
				results, dropped = append(results, found[:keep]...), dropped+len(found)-keep
			}
		},
	})
	if err != nil {
		return usagef("proxy: -upstream: %w", err)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("proxy: %w", err)
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
	fmt.Fprintf(stdout, "proxy: listening on http://%s, forwarding to %s\n", ln.Addr(), agent.RedactURL(*upstream))
	mu.Unlock()
	err = serveUntil(ctx, srv, ln, nil)
	p.Close()
	runLines.Close() // every run's lines before the summary
	summary := p.Summary()
	mu.Lock()
	fmt.Fprintln(stdout, summary)
	mu.Unlock()
	if *sarifFile != "" {
		if dropped > 0 {
			fmt.Fprintf(stderr, "proxy: -sarif: the first %d failures written, %d more left out\n", len(results), dropped)
		}
		var b bytes.Buffer
		if werr := sarif.Write(&b, sarif.Tool{Name: "agent-analysis proxy", InformationURI: "https://github.com/agent-analysis/agent-analysis"}, results); werr != nil {
			err = errors.Join(err, werr)
		} else if werr := atomicfile.Write(*sarifFile, b.Bytes()); werr != nil {
			err = errors.Join(err, fmt.Errorf("-sarif: %w", werr))
		}
	}
	switch {
	case err != nil:
		return fmt.Errorf("proxy: %w", err)
	case summary.Failed > 0:
		return errFailed
	}
	return nil
}
