package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/agent-analysis/agent-analysis/kit/record"
	"github.com/agent-analysis/agent-analysis/kit/script"
	"github.com/agent-analysis/agent-analysis/server/library"
)

// runRecord records one run of a live agent as a script.
func runRecord(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	flags := flag.NewFlagSet("agent-analysis record", flag.ContinueOnError)
	flags.SetOutput(stderr)
	flags.Usage = func() {
		fmt.Fprintf(flags.Output(), "Usage: agent-analysis record -url URL [-input FILE | -scenario NAME] [-answer HOW] -o FILE [-timeout D]\n\n"+
			"Posts a RunAgentInput to a live AG-UI endpoint and writes what it streams as a script:\n"+
			"every event and SSE comment with the delay it arrived after, its generated ids replaced\n"+
			"by stable placeholders (thread-1, run-1, msg-1, call-1…). `agent-analysis serve -fixtures DIR`\n"+
			"replays it. The engine judges the stream as it is recorded; the exit status is 1 if it\n"+
			"broke a rule (the script is still written) or if nothing could be recorded. With -answer,\n"+
			"a run that ends interrupted is answered and the run that resumes it kept as the script's\n"+
			"continuation, named after the answer, its \"when\" the resume entries sent. -timeout is\n"+
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
	verdicts, err := record.Record(ctx, runs[0].request, *out, live.answer)
	if err != nil {
		for _, v := range verdicts[1:] { // what the resume did
			if !v.OK {
				fmt.Fprintf(stdout, "FAIL %s: %s\n", v.Name, v.Why())
			}
		}
		return fmt.Errorf("record: %w", err)
	}
	what := make([]string, len(verdicts))
	for i, v := range verdicts {
		what[i] = fmt.Sprintf("%d events, %d comments", v.Transport.Events, v.Transport.Comments)
		if i > 0 {
			what[i] = fmt.Sprintf("its resume %q: %s", live.answer.Name, what[i])
		}
	}
	fmt.Fprintf(stdout, "recorded %s: %s\n", *out, strings.Join(what, "; "))
	for _, v := range verdicts {
		fmt.Fprintf(stdout, "     %s\n", v.Transport)
	}
	verdicts[0].Notes = append(runs[0].notes, verdicts[0].Notes...)
	failed := false
	for i, v := range verdicts {
		for _, n := range v.Notes {
			fmt.Fprintf(stdout, "     note: %s\n", n)
		}
		what := "the stream"
		if i > 0 {
			what = "the resumed run's stream"
		}
		if !v.OK {
			failed = true
			fmt.Fprintf(stdout, "FAIL %s: %s\n", what, v.Why())
			continue
		}
		fmt.Fprintf(stdout, "ok   %s is valid AG-UI, every run ended", what)
		if v.Interrupted != "" {
			fmt.Fprintf(stdout, " (interrupted: %s)", v.Interrupted)
		}
		fmt.Fprintln(stdout)
	}
	if failed {
		return errFailed
	}
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
	// The file is written beside itself and renamed (atomicfile): the
	// folder must exist and take a new file.
	dir := filepath.Dir(path)
	if info, err := os.Stat(dir); err != nil {
		return fmt.Errorf("the folder %s does not exist", dir)
	} else if !info.IsDir() {
		return fmt.Errorf("%s is not a folder", dir)
	}
	if info, err := os.Stat(path); err == nil && info.IsDir() {
		return errors.New("it is a folder")
	}
	f, err := os.CreateTemp(dir, ".record-*")
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Errorf("no file can be created in %s: %v", dir, err)
	}
	f.Close()
	return os.Remove(f.Name())
}
