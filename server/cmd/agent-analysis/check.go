package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/agent-analysis/agent-analysis/check"
)

// errFailed makes the process exit 1 once the report is written.
var errFailed = errors.New("some scripts failed")

// runCheck replays script files through the AG-UI 1.0 consumer engine.
func runCheck(args []string, stdout, stderr io.Writer) error {
	flags := flag.NewFlagSet("agent-analysis check", flag.ContinueOnError)
	flags.SetOutput(stderr)
	flags.Usage = func() {
		fmt.Fprintf(flags.Output(), "Usage: agent-analysis check [flags] FILE|DIR...\n\n"+
			"Replays AG-UI event streams through this project's AG-UI 1.0 consumer engine.\n"+
			"A file is a JSON array of events, JSON Lines (one event a line), or an object\n"+
			"in the AG-UI conformance corpus's shape (name, stream, optional input and expect).\n"+
			"A directory stands for its .json and .jsonl files. Each file gets a line,\n"+
			"\"ok   NAME\" or \"FAIL NAME: why\", then a summary; the exit status is 1 if any failed.\n\nFlags:\n")
		flags.PrintDefaults()
	}
	expect := flags.Bool("expect", false, "compare each file with its \"expect\" (the corpus's outcome, state, messages, events, request);\nwithout it, or without one, a file passes when its stream is valid AG-UI 1.0 and every run ended")
	asJSON := flags.Bool("json", false, "write one JSON report instead of lines")
	verbose := flags.Bool("v", false, "list the notes: warnings, and differences at SHOULD or wording level")
	switch err := flags.Parse(args); {
	case errors.Is(err, flag.ErrHelp):
		return nil
	case err != nil:
		return err
	case flags.NArg() == 0:
		flags.Usage()
		return errors.New("check: name at least one file or directory")
	}
	results, err := check.Files(flags.Args(), *expect)
	if err != nil {
		return fmt.Errorf("check: %w", err)
	}
	if *asJSON {
		if err := check.PrintJSON(stdout, results); err != nil {
			return err
		}
	} else {
		check.Print(stdout, results, *verbose)
	}
	for _, r := range results {
		if !r.OK {
			return errFailed
		}
	}
	return nil
}
