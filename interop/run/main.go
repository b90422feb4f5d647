// Command run is the interop lane: it runs agent-analysis against real
// third-party AG-UI agents, each a Node server in interop/agents/NAME with
// a mock model, and checks that the kit gives each case the verdict the
// table (interop/cases.md) expects: ok, interrupted, or the exact rule a
// real agent breaks.
//
//	make interop                  # builds the binary, npm ci in each agent, then this
//	go run ./interop/run -agent mastra
//
// It starts each agent on a free loopback port, waits until it answers,
// runs its cases in the table's order and stops it, also on failure. A
// line per case, then "N passed, N failed"; the exit status is 1 if any
// case got a verdict other than the one expected.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "interop:", err)
		stop()
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stdout io.Writer) error {
	flags := flag.NewFlagSet("interop", flag.ContinueOnError)
	table := flags.String("table", "interop/cases.md", "the agents and cases")
	bin := flags.String("bin", "bin/agent-analysis", "the agent-analysis binary to test")
	only := flags.String("agent", "", "run only this agent's cases")
	logs := flags.String("logs", "bin/interop", "where each agent's and proxy's output is written (NAME.log, NAME-proxy.log)")
	if err := flags.Parse(args); err != nil {
		return err
	}
	agents, cases, err := readTable(*table)
	if err != nil {
		return err
	}
	dir := filepath.Dir(*table)
	binPath, err := filepath.Abs(*bin)
	if err != nil {
		return err
	}
	if _, err := os.Stat(binPath); err != nil {
		return fmt.Errorf("%v: build it first (make interop does)", err)
	}
	tmp, err := os.MkdirTemp("", "agent-analysis-interop-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if err := os.MkdirAll(*logs, 0o755); err != nil {
		return err
	}

	passed, failed := 0, 0
	for _, a := range agents {
		if *only != "" && a.Name != *only {
			continue
		}
		mine := slices.DeleteFunc(slices.Clone(cases), func(c Case) bool { return c.Agent != a.Name })
		if len(mine) == 0 {
			continue
		}
		p, f, err := runAgent(ctx, dir, binPath, tmp, *logs, a, mine, stdout)
		passed, failed = passed+p, failed+f
		if err != nil {
			fmt.Fprintf(stdout, "FAIL %s: %v\n", a.Name, err)
			failed += len(mine) - p - f
		}
		if ctx.Err() != nil {
			break
		}
	}
	fmt.Fprintf(stdout, "%d passed, %d failed\n", passed, failed)
	if failed > 0 || ctx.Err() != nil {
		return fmt.Errorf("%d cases did not get the verdict expected", failed)
	}
	return nil
}

// runAgent starts one agent, runs its cases and stops it.
func runAgent(ctx context.Context, dir, bin, tmp, logs string, a Agent, cases []Case, stdout io.Writer) (passed, failed int, err error) {
	began := time.Now()
	proc, url, err := startAgent(ctx, dir, a, logs)
	if err != nil {
		return 0, 0, err
	}
	defer proc.stop()
	fmt.Fprintf(stdout, "%s: ready in %s at %s\n", a.Name, time.Since(began).Round(10*time.Millisecond), url)
	l := &lane{dir: dir, bin: bin, tmp: tmp, url: url}
	for _, c := range cases {
		if c.How == "proxy" && l.proxy == nil {
			if l.proxy, err = startProxy(ctx, bin, url, logs, a.Name); err != nil {
				return passed, failed, err
			}
			defer l.proxy.stop()
		}
		o, err := l.run(ctx, c)
		switch {
		case err != nil:
			failed++
			fmt.Fprintf(stdout, "FAIL %s: %v\n", c, err)
		case !slices.Equal(o.Verdicts, c.Expect):
			failed++
			fmt.Fprintf(stdout, "FAIL %s: expected %s, got %s: %s\n", c, strings.Join(c.Expect, " "), strings.Join(o.Verdicts, " "), o.Detail)
		default:
			passed++
			fmt.Fprintf(stdout, "ok   %-22s %s\n", c, strings.Join(o.Verdicts, " "))
		}
		if ctx.Err() != nil {
			break
		}
	}
	return passed, failed, nil
}
