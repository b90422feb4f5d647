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
	command string // the command whose line it is; "" for the command's own choice
	printed bool   // the usage itself was printed instead (the bare command)
}

func (u *usageError) Error() string { return u.err.Error() }
func (u *usageError) Unwrap() error { return u.err }

// usage marks err as the command line's fault.
func usage(err error) error { return &usageError{err: err} }

func usagef(format string, args ...any) error { return usage(fmt.Errorf(format, args...)) }

// exitCode prints err, once, in one line, and gives the exit status: 0, 1
// when a check failed (the report said why) or something went wrong, 2
// for a command line that cannot run.
func exitCode(err error, stderr io.Writer) int {
	var u *usageError
	switch {
	case err == nil:
		return 0
	case errors.Is(err, errFailed):
		return 1
	case errors.As(err, &u) && u.printed:
		return 2
	case errors.As(err, &u) && u.command != "":
		fmt.Fprintf(stderr, "agent-analysis %s: %v (see agent-analysis %s -h)\n", u.command, err, u.command)
		return 2
	case errors.As(err, &u):
		fmt.Fprintln(stderr, "agent-analysis:", err)
		return 2
	}
	fmt.Fprintln(stderr, "agent-analysis:", err)
	return 1
}
