package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime/debug"
	"strings"
)

// command is one subcommand: how it is called, what it does, and its
// flags. Every command declares its flags and reports usage the same way
// (command.run): -h prints its help and exits 0; a command line that
// cannot run is one line on stderr and exit status 2.
type command struct {
	name     string
	synopsis []string // its forms, each after "agent-analysis NAME "
	about    string   // what it does, in a paragraph
	// flags declares the command's flags on fs and returns the work that
	// reads them once they are parsed, given the arguments left.
	flags func(fs *flag.FlagSet) work
}

type work func(ctx context.Context, args []string, stdout, stderr io.Writer) error

// commands are the subcommands, in the order help lists them.
var commands = []command{serveCommand, checkCommand, recordCommand, proxyCommand, inspectCommand}

func lookup(name string) (command, bool) {
	for _, c := range commands {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}

// run runs a subcommand: agent-analysis COMMAND [flags] [args], or help,
// or version.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		writeOverview(stderr)
		return &usageError{err: errors.New("give a command"), printed: true}
	}
	switch name := args[0]; name {
	case "help", "-h", "-help", "--help":
		if len(args) > 1 {
			c, ok := lookup(args[1])
			if !ok {
				return usagef("help: no command %q (see agent-analysis help)", args[1])
			}
			return c.run(ctx, []string{"-h"}, stdout, stderr)
		}
		writeOverview(stdout)
		return nil
	case "version", "-version", "--version":
		fmt.Fprintln(stdout, "agent-analysis", version())
		return nil
	default:
		c, ok := lookup(name)
		switch {
		case ok:
			return c.run(ctx, args[1:], stdout, stderr)
		case strings.HasPrefix(name, "-"):
			return usagef("give the command before its flags, as in agent-analysis serve %s (see agent-analysis help)", name)
		}
		return usagef("no command %q (see agent-analysis help)", name)
	}
}

// run parses the command's flags and does its work.
func (c command) run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("agent-analysis "+c.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors are reported once, as one line, by exitCode
	do := c.flags(fs)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			c.help(stdout, fs)
			return nil
		}
		return &usageError{err: err, command: c.name}
	}
	err := do(ctx, fs.Args(), stdout, stderr)
	var u *usageError
	if errors.As(err, &u) && u.command == "" {
		u.command = c.name
	}
	return err
}

// help is what -h prints: the forms, what the command does, its flags.
func (c command) help(w io.Writer, fs *flag.FlagSet) {
	for i, form := range c.synopsis {
		lead := "Usage: "
		if i > 0 {
			lead = "       "
		}
		fmt.Fprintf(w, "%sagent-analysis %s %s\n", lead, c.name, form)
	}
	fmt.Fprintf(w, "\n%s\n\nFlags:\n", strings.TrimSpace(c.about))
	fs.SetOutput(w)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
}

// writeOverview is what help, and the bare command, print.
func writeOverview(w io.Writer) {
	fmt.Fprintf(w, "agent-analysis serves the Agent Analysis demo, a deterministic AG-UI server, and tests\n"+
		"AG-UI clients and agents.\n\nUsage: agent-analysis COMMAND [flags] [arguments]\n\nCommands:\n")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.synopsis[0])
	}
	fmt.Fprintf(w, "  %-8s %s\n  %-8s %s\n\n", "help", "[COMMAND]", "version", "")
	fmt.Fprintln(w, "agent-analysis help COMMAND (or agent-analysis COMMAND -h) says what a command does and lists its flags.")
}

// version is the module's version and commit, as the build recorded them.
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown version)"
	}
	v := info.Main.Version
	var rev, modified string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				modified = ", modified"
			}
		}
	}
	if rev != "" {
		v += fmt.Sprintf(" (commit %.12s%s)", rev, modified)
	}
	return v + " " + info.GoVersion
}
