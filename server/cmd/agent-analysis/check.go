package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"syscall"

	"github.com/agent-analysis/agent-analysis/internal/atomicfile"
	"github.com/agent-analysis/agent-analysis/kit/agent"
	"github.com/agent-analysis/agent-analysis/kit/check"
	"github.com/agent-analysis/agent-analysis/kit/sarif"
)

var checkCommand = command{
	name:     "check",
	synopsis: []string{"[flags] FILE|DIR...", "-url URL [-input FILE]... [-H 'Name: value']... [flags]"},
	about: `Judges AG-UI event streams with this project's AG-UI 1.x consumer engine (agui).
A FILE is a script (a JSON array of events, JSON Lines, or an object in the AG-UI
conformance corpus's shape: name, stream, optional input and expect) or a capture
(what curl -N writes: SSE), told apart by its content. A DIR stands for every file
in it; a file that is neither is named as skipped, with why.

With -url, it runs a live agent instead: it posts a complete RunAgentInput (its
own, or -input's with the members AG-UI requires filled in) and judges the stream
as it arrives, and checks the transport too: the status and content type, the SSE
framing, the longest silence and keep-alive comments, a stream that ends early.
-cancel-after stops a run as a user pressing Stop does, then asks for a new run on
the same thread.

Each file or run gets a line, "ok   NAME" or "FAIL NAME: rule: why (page)", then a
summary; the exit status is 1 if any failed, 2 for a command line that cannot run.`,
	flags: checkFlags,
}

func checkFlags(set *flag.FlagSet) work {
	expect := set.Bool("expect", false, "compare each file with its \"expect\" (the corpus's outcome, state, messages, events, request);\nwithout it, or without one, a file passes when its stream is valid AG-UI and every run ended")
	asJSON := set.Bool("json", false, "write one JSON report instead of lines")
	junit := outputFlag(set, "junit", "also write a JUnit XML report to this file, one testcase per file or run (for CI)")
	verbose := set.Bool("v", false, "list the notes: warnings, and differences at SHOULD or wording level")
	strict := set.Bool("strict", false, "fail a file or run the engine warned about, by the warning's rule (a file compared with its \"expect\" is judged by it)")
	sarifPath := outputFlag(set, "sarif", "also write every failure to this file as SARIF 2.1.0 (for code scanning)")
	name := set.String("name", "", "with -url: what the report calls the run; default: the -input file's name, the scenario on\nthis project's server, or else the URL's path")
	var stop *agent.Stop
	set.Var(shown(func(v string) error {
		var err error
		stop, err = parseStop(v)
		return err
	}), "cancel-after", "with -url: stop each run as a user pressing Stop does, after N events (0: at the answer's\nheaders) or a duration (500ms), judge what came, then ask for a new run on the same thread")
	var live liveFlags
	live.register(set, "with -url: a RunAgentInput JSON file to send (- for standard input), one run each (repeatable);\nwhat it leaves out of AG-UI's RunAgentInput is filled in, empty; default: an input of nothing but that")
	return func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
		switch {
		case live.url != "" && len(args) > 0:
			return usagef("give script files or -url, not both")
		case live.url != "" && *expect:
			return usagef("-expect compares script files with their \"expect\": a live run has none")
		case live.url == "" && given(set, liveOnly...) != "":
			return usagef("-%s goes with -url", given(set, liveOnly...))
		case live.url == "" && len(args) == 0:
			return usagef("name at least one file or directory, or an agent with -url")
		}
		var results []check.Result
		var skipped []check.Skipped
		if live.url != "" {
			runs, err := live.runs(*name)
			if err != nil {
				return usage(err)
			}
			results = checkLive(ctx, runs, live.answer, stop, answerHint(set, live))
		} else {
			for _, path := range args {
				// Only a file not there is a command line that cannot run; one
				// there that cannot be read fails its own line (check.Files).
				if _, err := lstat(path); errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
					var pe *fs.PathError
					if errors.As(err, &pe) {
						err = pe.Err
					}
					return usagef("%s: %w", path, err)
				}
			}
			results, skipped = check.Files(args, *expect)
			if len(results) == 0 {
				check.Print(stderr, nil, skipped, false)
				return usagef("nothing to judge: every file was skipped")
			}
		}
		if *strict {
			results = check.Strict(results)
		}
		if *sarifPath != "" {
			var b bytes.Buffer
			tool := sarif.Tool{Name: "agent-analysis check", InformationURI: "https://github.com/agent-analysis/agent-analysis"}
			if err := sarif.Write(&b, tool, check.SARIF(results, check.EventLine)); err != nil {
				return err
			}
			if err := atomicfile.Write(*sarifPath, b.Bytes()); err != nil {
				return fmt.Errorf("-sarif: %w", err)
			}
		}
		if *junit != "" {
			var b bytes.Buffer
			if err := check.WriteJUnit(&b, "agent-analysis check", results, skipped); err != nil {
				return err
			}
			if err := atomicfile.Write(*junit, b.Bytes()); err != nil {
				return fmt.Errorf("-junit: %w", err)
			}
		}
		if *asJSON {
			if err := check.PrintJSON(stdout, results, skipped); err != nil {
				return err
			}
		} else {
			check.Print(stdout, results, skipped, *verbose)
		}
		for _, r := range results {
			if !r.OK {
				return errFailed
			}
		}
		return nil
	}
}

// checkLive asks for each run and judges it; a run that ends interrupted
// is answered as answer says, and the run that resumes it judged too. Any
// other run asked with a stop (stop) is followed by one more on its
// thread, as a client asks for after its user pressed Stop.
func checkLive(ctx context.Context, runs []liveRun, answer *agent.Answer, stop *agent.Stop, hint func(thread string) string) []check.Result {
	var results []check.Result
	for _, r := range runs {
		r.request.Stop = stop
		ex := agent.Run(ctx, r.request)
		res := check.Live(r.name, ex)
		res.Notes = append(r.notes, res.Notes...)
		if ex.Interrupted != nil && answer == nil {
			res.Interrupted += "; to answer it: " + hint(ex.Interrupted.ThreadID)
		}
		if stop != nil && ex.Stopped == nil && len(ex.Failures) == 0 {
			res.Notes = append(res.Notes, fmt.Sprintf("the stream ended after %d events, before -cancel-after stopped it", ex.Transport.Events))
		}
		results = append(results, res)
		if ctx.Err() != nil {
			break // Ctrl-C: the run it cut says so; no other is asked for
		}
		answered := ex.Interrupted != nil && answer != nil // the run ended, interrupted, before any stop
		if stop != nil && !answered {
			again := agent.AfterStop(ctx, r.request)
			res := check.Live(r.name+"/after-stop", again)
			res.Notes = append(res.Notes, fmt.Sprintf("the run a client asks for after its user pressed Stop: the same input on thread %q, a fresh run id", r.request.Input.ThreadID))
			results = append(results, res)
			if ctx.Err() != nil {
				break
			}
			continue
		}
		if !answered {
			continue
		}
		resumed := agent.Resume(ctx, r.request, ex, *answer)
		results = append(results, check.Resumed(r.name+"/"+answer.Name, r.name, resumed))
		if ctx.Err() != nil {
			break
		}
	}
	return results
}

// answerHint is the command that answers an interrupted run: this one,
// on the run's thread, with -answer. Header values are left out.
func answerHint(set *flag.FlagSet, live liveFlags) func(thread string) string {
	return func(thread string) string {
		parts := []string{"agent-analysis check"}
		set.Visit(func(f *flag.Flag) {
			switch f.Name {
			case "thread", "answer", "json", "junit", "sarif", "v", "strict":
			case "H", "input":
			case "url":
				parts = append(parts[:1], append([]string{"-url", shellQuote(agent.RedactURL(f.Value.String()))}, parts[1:]...)...)
			default:
				parts = append(parts, "-"+f.Name, shellQuote(f.Value.String()))
			}
		})
		for _, path := range live.inputs {
			parts = append(parts, "-input", shellQuote(path))
		}
		for _, h := range live.headers {
			name, _, _ := strings.Cut(h, ":")
			parts = append(parts, "-H", shellQuote(strings.TrimSpace(name)+": …"))
		}
		return strings.Join(append(parts, "-thread", shellQuote(thread), "-answer", "approve|reject|cancel|FILE"), " ")
	}
}

// shellQuote quotes a word for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=@,+%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// lstat is os.Lstat; a test stands in for a folder root may search.
var lstat = os.Lstat

// errFailed makes the process exit 1 once the report is written.
var errFailed = errors.New("some scripts failed")
