package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"

	"github.com/agent-analysis/agent-analysis/library"
	"github.com/agent-analysis/agent-analysis/record"
	"github.com/agent-analysis/agent-analysis/script"
)

// runRecord records one run of a live agent as a script.
func runRecord(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	flags := flag.NewFlagSet("agent-analysis record", flag.ContinueOnError)
	flags.SetOutput(stderr)
	flags.Usage = func() {
		fmt.Fprintf(flags.Output(), "Usage: agent-analysis record -url URL [-input FILE | -scenario NAME] -o FILE [-timeout D]\n\n"+
			"Posts a RunAgentInput to a live AG-UI endpoint and writes what it streams as a script:\n"+
			"every event and SSE comment with the delay it arrived after, its generated ids replaced\n"+
			"by stable placeholders (thread-1, run-1, msg-1, call-1…). `agent-analysis serve -fixtures DIR`\n"+
			"replays it. The engine judges the stream as it is recorded; the exit status is 1 if it\n"+
			"broke a rule (the script is still written) or if nothing could be recorded. -timeout is\n"+
			"at most 1h, the longest delay a script holds.\n\nFlags:\n")
		flags.PrintDefaults()
	}
	var live liveFlags
	live.register(flags, "a RunAgentInput JSON file to send (missing threadId, runId and messages are filled in);\ndefault: the demo's input, with fresh ids")
	out := flags.String("o", "", "the script file to write, .json or .jsonl and not named as a built-in script:\nreplaced whole once the stream has ended, or left as it was")
	switch err := flags.Parse(args); {
	case errors.Is(err, flag.ErrHelp):
		return nil
	case err != nil:
		return parseFailed(err)
	case flags.NArg() > 0:
		return usagef("record: unexpected argument %q (see -h)", flags.Arg(0))
	case *out == "":
		return usagef("record: -o FILE is required")
	case len(live.inputs) > 1:
		return usagef("record: one -input: a script holds one run")
	case live.timeout > script.MaxAfter:
		return usagef("record: -timeout %s is over an hour, the longest delay a script holds", live.timeout)
	}
	if err := checkOutput(*out); err != nil {
		return usagef("record: -o %s: %w", *out, err)
	}
	runs, err := live.runs(flags)
	if err != nil {
		return usagef("record: %w", err)
	}
	verdict, err := record.Record(ctx, runs[0].request, *out)
	if err != nil {
		return fmt.Errorf("record: %w", err)
	}
	t := verdict.Transport
	fmt.Fprintf(stdout, "recorded %s: %d events, %d comments\n     %s\n", *out, t.Events, t.Comments, t)
	for _, n := range append(runs[0].notes, verdict.Notes...) {
		fmt.Fprintf(stdout, "     note: %s\n", n)
	}
	if !verdict.OK {
		fmt.Fprintf(stdout, "FAIL the stream: %s\n", verdict.Why())
		return errFailed
	}
	fmt.Fprintln(stdout, "ok   the stream is valid AG-UI 1.0, every run ended")
	return nil
}

// checkOutput refuses, before anything is recorded, a file serve
// -fixtures would not play: one it does not read, or one named as a
// built-in script is.
func checkOutput(path string) error {
	if ext := filepath.Ext(path); ext != ".json" && ext != ".jsonl" {
		return errors.New("a script file ends in .json or .jsonl: serve -fixtures reads no other")
	}
	if _, builtIn := library.BuiltIn().Lookup(script.BaseName(path)); builtIn {
		return fmt.Errorf("%q is a built-in script's name: serve -fixtures would refuse the file", script.BaseName(path))
	}
	return nil
}
