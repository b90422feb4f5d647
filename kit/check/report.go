package check

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/agent-analysis/agent-analysis/kit/rules"

	"github.com/agent-analysis/agent-analysis/kit/agent"
	"github.com/agent-analysis/agent-analysis/kit/script"
)

// Result is one script's or one live run's verdict.
type Result struct {
	Name      string           `json:"name"`
	Path      string           `json:"path,omitempty"` // the script's file
	OK        bool             `json:"ok"`
	Failures  []rules.Failure  `json:"failures,omitempty"`  // empty when OK
	Notes     []string         `json:"notes,omitempty"`     // SHOULD-level and wording-level differences: never a failure
	Warnings  []rules.Failure  `json:"-"`                   // the engine's warnings, which -strict fails (Strict)
	Transport *agent.Transport `json:"transport,omitempty"` // what a live run measured
	// Interrupted is what the run ended waiting for, when it ended with
	// the interrupt outcome: not a failure.
	Interrupted string `json:"interrupted,omitempty"`
	// Stopped is what the run had sent when the kit stopped it as a user
	// pressing Stop does (check -cancel-after): not a failure.
	Stopped string `json:"stopped,omitempty"`
	// Errored is the agent's own report that its last run failed
	// (RUN_ERROR): legal AG-UI, so not a failure, but no success either.
	Errored string `json:"errored,omitempty"`
	// A run that answered an interrupted one: the run it resumes (its
	// result's name) and the resume list it sent, or would have.
	Continues string          `json:"continues,omitempty"`
	Resume    json.RawMessage `json:"resume,omitempty"`
}

// Script judges one script. With useExpect and an "expect" in the script,
// the replay is compared with it; otherwise the stream must be valid
// AG-UI, every run ended.
func Script(s script.Script, useExpect bool) Result { return scriptResult(s, Run(s), useExpect) }

// scriptResult is Script's verdict on r, s's replay.
func scriptResult(s script.Script, r Replay, useExpect bool) Result {
	res := Result{Name: s.Name}
	if useExpect && s.Expect != nil {
		e, err := readExpect(s.Expect)
		if err != nil {
			res.Failures = []rules.Failure{{Rule: "expect", Text: err.Error()}}
			return res
		}
		res.Failures, res.Notes = compare(r, e)
	} else {
		if f := verdict(r); f != nil {
			res.Failures = []rules.Failure{*f}
		}
		res.warned(r.Warnings)
	}
	res.ended(r)
	res.OK = len(res.Failures) == 0
	return res
}

// ended says how a replay's last run ended when that is no failure and
// no plain success, as Live says it of a live run.
func (res *Result) ended(r Replay) {
	if r.Pending != nil {
		res.Interrupted = Waiting(*r.Pending)
	}
	res.Errored = errored(r.Runs)
}

// ending is how a run ended that is neither a failure nor a plain
// success: interrupted, stopped by the kit, or failed by the agent's own
// report; "" for none of these.
func (r Result) ending() string {
	switch {
	case r.Interrupted != "":
		return "interrupted: " + r.Interrupted
	case r.Stopped != "":
		return r.Stopped
	}
	return r.Errored
}

// Why is what failed, every failure led by its rule, in one line.
func (r Result) Why() string {
	texts := make([]string, len(r.Failures))
	for i, f := range r.Failures {
		texts[i] = f.String()
	}
	return strings.Join(texts, "; ")
}

// Print writes results as go test does: "ok   NAME" or "FAIL NAME: rule:
// why (page)", a line for each further failure, then a summary line. A
// live run's measurements follow its line; with verbose, so do the notes.
// Skipped files come first, each with why.
func Print(w io.Writer, results []Result, skipped []Skipped, verbose bool) {
	for _, s := range skipped {
		Line(w, "skip %s: %s", s.Path, s.Why)
	}
	passed, notes := 0, 0
	for _, r := range results {
		if r.OK {
			passed++
			if how := r.ending(); how != "" {
				Line(w, "ok   %s (%s)", r.Name, how)
			} else {
				Line(w, "ok   %s", r.Name)
			}
		} else {
			Line(w, "FAIL %s: %s", r.Name, r.Failures[0].Line())
			for _, f := range r.Failures[1:] {
				Line(w, "     and %s", f.Line())
			}
			if how := r.ending(); how != "" {
				Line(w, "     %s", how)
			}
		}
		if r.Transport != nil {
			Line(w, "     %s", r.Transport)
		}
		notes += len(r.Notes)
		if verbose {
			for _, n := range r.Notes {
				Line(w, "     note: %s", n)
			}
		}
	}
	fmt.Fprintf(w, "%d passed, %d failed", passed, len(results)-passed)
	if len(skipped) > 0 {
		fmt.Fprintf(w, ", %d skipped", len(skipped))
	}
	if notes > 0 && !verbose {
		noun := "notes"
		if notes == 1 {
			noun = "note"
		}
		fmt.Fprintf(w, " (%d %s at SHOULD or wording level: -v lists them)", notes, noun)
	}
	fmt.Fprintln(w)
}

// Line writes one line of a report, what does not print escaped as Go
// quotes it: a name or a path, the script's or the file system's, may
// hold a line end or a terminal's escape, and must not forge a line or
// move the cursor.
func Line(w io.Writer, format string, args ...any) {
	io.WriteString(w, agent.Printable(fmt.Sprintf(format, args...))+"\n")
}

// PrintJSON writes results, and the files skipped, as one JSON document.
func PrintJSON(w io.Writer, results []Result, skipped []Skipped) error {
	passed := 0
	for _, r := range results {
		if r.OK {
			passed++
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(struct {
		Passed  int       `json:"passed"`
		Failed  int       `json:"failed"`
		Results []Result  `json:"results"`
		Skipped []Skipped `json:"skipped,omitempty"`
	}{passed, len(results) - passed, results, skipped})
}
