package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/agent-analysis/agent-analysis/kit/agent"
	"github.com/agent-analysis/agent-analysis/kit/check"
	"github.com/agent-analysis/agent-analysis/kit/record"
	"github.com/agent-analysis/agent-analysis/kit/rules"
	"github.com/agent-analysis/agent-analysis/kit/script"
	"github.com/agent-analysis/agent-analysis/server/library"
)

var recordCommand = command{
	name:     "record",
	synopsis: []string{"-url URL [-input FILE] [-H 'Name: value']... [-answer HOW] -o FILE [flags]"},
	about: `Posts a RunAgentInput to a live AG-UI endpoint and writes what it streams as a script:
every event and SSE comment with the delay it arrived after, its generated ids replaced
by stable placeholders (thread-1, run-1, msg-1, call-1…). agent-analysis serve -fixtures DIR
replays it. The engine judges the stream as it is recorded; the exit status is 1 if it
broke a rule (the script is still written) or if nothing could be recorded. With -answer,
a run that ends interrupted is answered and the run that resumes it kept as the script's
continuation, named after the answer, its "when" the resume entries sent. -timeout is
at most 1h, the longest delay a script holds.`,
	flags: recordFlags,
}

func recordFlags(set *flag.FlagSet) work {
	var live liveFlags
	live.register(set, "a RunAgentInput JSON file to send (- for standard input); what it leaves out of AG-UI's RunAgentInput is\nfilled in, empty; default: an input of nothing but that")
	var out string
	set.Func("o", "the script file to write, .json or .jsonl and not named as a built-in script:\nreplaced whole once the stream has ended, or left as it was", func(path string) error {
		if err := checkOutput(path); err != nil {
			return err
		}
		out = path
		return nil
	})
	return func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
		switch {
		case len(args) > 0:
			return usagef("unexpected argument %q", args[0])
		case out == "":
			return usagef("-o FILE is required")
		case len(live.inputs) > 1:
			return usagef("one -input: a script holds one run")
		case live.timeout > script.MaxAfter:
			return usagef("-timeout %s is over an hour, the longest delay a script holds", live.timeout)
		}
		runs, err := live.runs("")
		if err != nil {
			return usage(err)
		}
		return record1(ctx, runs[0], live.answer, out, stdout)
	}
}

// record1 records one run, and the one resuming it if answer says how.
func record1(ctx context.Context, run liveRun, answer *agent.Answer, out string, stdout io.Writer) error {
	verdicts, err := record.Record(ctx, run.request, out, answer)
	if err != nil {
		for _, v := range verdicts[1:] { // what the resume did
			if !v.OK {
				failed(stdout, v.Name, v.Failures)
			}
		}
		return err
	}
	what := make([]string, len(verdicts))
	for i, v := range verdicts {
		what[i] = fmt.Sprintf("%d events, %d comments", v.Transport.Events, v.Transport.Comments)
		if i > 0 {
			what[i] = fmt.Sprintf("its resume %q: %s", answer.Name, what[i])
		}
	}
	check.Line(stdout, "recorded %s: %s", out, strings.Join(what, "; "))
	for _, v := range verdicts {
		check.Line(stdout, "     %s", v.Transport)
	}
	verdicts[0].Notes = append(run.notes, verdicts[0].Notes...)
	broke := false
	for i, v := range verdicts {
		for _, n := range v.Notes {
			check.Line(stdout, "     note: %s", n)
		}
		what := "the stream"
		if i > 0 {
			what = "the resumed run's stream"
		}
		if !v.OK {
			broke = true
			failed(stdout, what, v.Failures)
			continue
		}
		if v.Interrupted != "" {
			check.Line(stdout, "ok   %s is valid AG-UI, every run ended (interrupted: %s)", what, v.Interrupted)
		} else {
			check.Line(stdout, "ok   %s is valid AG-UI, every run ended", what)
		}
	}
	if broke {
		return errFailed
	}
	return nil
}

// failed writes a FAIL line, and a line for each further failure.
func failed(w io.Writer, what string, failures []rules.Failure) {
	check.Line(w, "FAIL %s: %s", what, failures[0].Line())
	for _, f := range failures[1:] {
		check.Line(w, "     and %s", f.Line())
	}
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
	return writable(path)
}
