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

	"github.com/agent-analysis/agent-analysis/internal/atomicfile"
	"github.com/agent-analysis/agent-analysis/kit/agent"
	"github.com/agent-analysis/agent-analysis/kit/check"
	"github.com/agent-analysis/agent-analysis/kit/sarif"
	"github.com/agent-analysis/agent-analysis/kit/script"
)

// checkLive asks for each run and judges it; a run that ends interrupted
// is answered as answer says, and the run that resumes it judged too.
func checkLive(ctx context.Context, runs []liveRun, answer *agent.Answer) []check.Result {
	var results []check.Result
	for _, r := range runs {
		ex := agent.Run(ctx, r.request)
		res := check.Live(r.name, ex)
		res.Notes = append(r.notes, res.Notes...)
		if ex.Interrupted != nil && answer == nil {
			res.Interrupted += "; -answer approve|reject|cancel|FILE answers it"
		}
		results = append(results, res)
		if ctx.Err() != nil {
			break // Ctrl-C: the run it cut says so; no other is asked for
		}
		if ex.Interrupted == nil || answer == nil {
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

// eventLine is the line a script file's nth event (from 1) starts on; 0
// when it cannot say.
func eventLine(path string, event int) int {
	s, err := script.ReadFile(path)
	if err != nil {
		return 0
	}
	for _, st := range s.Frames {
		if st.Event == nil {
			continue
		}
		if event--; event == 0 {
			return st.Line
		}
	}
	return 0
}

// errFailed makes the process exit 1 once the report is written.
var errFailed = errors.New("some scripts failed")

// runCheck replays script files through the AG-UI 1.x consumer engine,
// or, with -url, has it judge live runs of an agent.
func runCheck(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	flags := flag.NewFlagSet("agent-analysis check", flag.ContinueOnError)
	flags.SetOutput(stderr)
	flags.Usage = func() {
		fmt.Fprintf(flags.Output(), "Usage: agent-analysis check [flags] FILE|DIR...\n"+
			"       agent-analysis check -url URL [-input FILE]... [flags]\n\n"+
			"Replays AG-UI event streams through this project's AG-UI 1.x consumer engine (agui).\n"+
			"A file is a JSON array of events, JSON Lines (one event a line), or an object\n"+
			"in the AG-UI conformance corpus's shape (name, stream, optional input and expect).\n"+
			"A directory stands for its .json and .jsonl files.\n\n"+
			"With -url, it runs a live agent instead: it posts each input and judges the stream\n"+
			"as it arrives, and checks the transport too: the status and content type, the SSE\n"+
			"framing, the longest silence and keep-alive comments, a stream that ends early.\n\n"+
			"Each file or run gets a line, \"ok   NAME\" or \"FAIL NAME: why\", then a summary;\n"+
			"the exit status is 1 if any failed.\n\nFlags:\n")
		flags.PrintDefaults()
	}
	expect := flags.Bool("expect", false, "compare each file with its \"expect\" (the corpus's outcome, state, messages, events, request);\nwithout it, or without one, a file passes when its stream is valid AG-UI and every run ended")
	asJSON := flags.Bool("json", false, "write one JSON report instead of lines")
	junit := flags.String("junit", "", "also write a JUnit XML report to this file, one testcase per file or run (for CI)")
	verbose := flags.Bool("v", false, "list the notes: warnings, and differences at SHOULD or wording level")
	strict := flags.Bool("strict", false, "fail a file or run the engine warned about, by the warning's rule (a file compared with its \"expect\" is judged by it)")
	sarifPath := flags.String("sarif", "", "also write every failure to this file as SARIF 2.1.0 (for code scanning)")
	var live liveFlags
	live.register(flags, "with -url: a RunAgentInput JSON file to send, one run each (repeatable; missing threadId,\nrunId and messages are filled in); default: the demo's input, with fresh ids")
	switch err := flags.Parse(args); {
	case errors.Is(err, flag.ErrHelp):
		return nil
	case err != nil:
		return parseFailed(err)
	case live.url != "" && flags.NArg() > 0:
		return usagef("check: give script files or -url, not both")
	case live.url != "" && *expect:
		return usagef("check: -expect compares script files with their \"expect\": a live run has none")
	case live.url == "" && live.given(flags) != "":
		return usagef("check: -%s goes with -url", live.given(flags))
	case live.url == "" && flags.NArg() == 0:
		flags.Usage()
		return usagef("check: name at least one file or directory, or an agent with -url")
	}
	var results []check.Result
	if live.url != "" {
		runs, err := live.runs(flags)
		if err != nil {
			return usagef("check: %w", err)
		}
		results = checkLive(ctx, runs, live.answer)
	} else {
		for _, path := range flags.Args() {
			if _, err := os.Lstat(path); err != nil {
				var pe *fs.PathError
				if errors.As(err, &pe) {
					err = pe.Err
				}
				return usagef("check: %s: %w", path, err)
			}
		}
		results = check.Files(flags.Args(), *expect)
	}
	if *strict {
		results = check.Strict(results)
	}
	if *sarifPath != "" {
		var b bytes.Buffer
		tool := sarif.Tool{Name: "agent-analysis check", InformationURI: "https://github.com/agent-analysis/agent-analysis"}
		if err := sarif.Write(&b, tool, check.SARIF(results, eventLine)); err != nil {
			return err
		}
		if err := atomicfile.Write(*sarifPath, b.Bytes()); err != nil {
			return fmt.Errorf("check: -sarif: %w", err)
		}
	}
	if *junit != "" {
		var b bytes.Buffer
		if err := check.WriteJUnit(&b, "agent-analysis check", results); err != nil {
			return err
		}
		if err := atomicfile.Write(*junit, b.Bytes()); err != nil {
			return fmt.Errorf("check: -junit: %w", err)
		}
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
