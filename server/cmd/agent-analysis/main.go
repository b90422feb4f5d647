// Command agent-analysis serves the Agent Analysis demo: the AG-UI fixture
// endpoint and the go-app UI. Its other subcommands test AG-UI clients and
// agents: check judges script files or a live agent, record turns a live
// agent's run into a script that serve -fixtures replays, proxy judges
// the traffic between a real client and a real agent.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/agent-analysis/agent-analysis/internal/gcpace"
)

func main() {
	gcpace.Set(os.Getenv)
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

// run runs a subcommand: serve (the default), check, record or proxy.
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
