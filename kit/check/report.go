package check

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
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
	// A run that answered an interrupted one: the run it resumes (its
	// result's name) and the resume list it sent, or would have.
	Continues string          `json:"continues,omitempty"`
	Resume    json.RawMessage `json:"resume,omitempty"`
}

// Script judges one script. With useExpect and an "expect" in the script,
// the replay is compared with it; otherwise the stream must be valid
// AG-UI, every run ended.
func Script(s script.Script, useExpect bool) Result {
	res := Result{Name: s.Name}
	r := Run(s)
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
	res.OK = len(res.Failures) == 0
	return res
}

// Files judges every script in the paths given: files, and the .json and
// .jsonl files of directories (script.Paths), in name order. A path that
// cannot be read, or a directory that cannot be listed, fails by rules.File
// and the others are still judged.
func Files(paths []string, useExpect bool) []Result {
	var out []Result
	for _, p := range paths {
		if info, err := os.Stat(p); err != nil || !info.IsDir() {
			out = append(out, File(p, useExpect)...)
			continue
		}
		found, err := script.Paths(p)
		if err != nil {
			out = append(out, Result{Name: script.BaseName(p), Path: p, Failures: []rules.Failure{{Rule: rules.File, Text: err.Error()}}})
			continue
		}
		for _, f := range found {
			out = append(out, File(f, useExpect)...)
		}
	}
	return out
}

// File judges the script in one file, then its continuations, each a
// result of its own; one that cannot be read fails. A file that holds an
// SSE stream (IsCapture: what curl -N writes) is judged as a script of its
// events, the framing checked as a live stream's is.
func File(path string, useExpect bool) []Result {
	unreadable := func(err error) []Result {
		return []Result{{Name: script.BaseName(path), Path: path, Failures: []rules.Failure{{Rule: rules.File, Text: err.Error()}}}}
	}
	data, err := script.ReadBounded(path, "a script")
	if err != nil {
		return unreadable(err)
	}
	if agent.IsCapture(data) {
		res := capture(script.BaseName(path), agent.ReadCapture(data), useExpect)
		res.Path = path
		return []Result{res}
	}
	s, err := script.Parse(data, script.BaseName(path))
	if err != nil {
		return unreadable(fmt.Errorf("%s: %w", path, err))
	}
	res := Script(s, useExpect)
	res.Path = path
	out := []Result{res}
	for _, c := range Continuations(s, useExpect) {
		c.Path = path
		out = append(out, c)
	}
	return out
}

// capture judges an SSE stream read from a file: its events, replayed,
// and its framing.
func capture(name string, c agent.Capture, useExpect bool) Result {
	s := script.Script{Name: name}
	for _, f := range c.Frames {
		s.Frames = append(s.Frames, script.Frame{Event: f.Event, Comment: f.Comment})
	}
	res := Script(s, useExpect)
	for _, f := range c.Failures {
		res.Failures = append(res.Failures, f)
	}
	res.Notes = append(res.Notes, c.Notes...)
	res.OK = len(res.Failures) == 0
	return res
}

// Why is what failed, every failure led by its rule, in one line.
func (r Result) Why() string {
	texts := make([]string, len(r.Failures))
	for i, f := range r.Failures {
		texts[i] = f.String()
	}
	return strings.Join(texts, "; ")
}

// Print writes results as go test does: "ok   NAME" or "FAIL NAME: why",
// then a summary line. A live run's measurements follow its line; with
// verbose, so do the notes.
func Print(w io.Writer, results []Result, verbose bool) {
	passed, notes := 0, 0
	for _, r := range results {
		interrupted := ""
		if r.Interrupted != "" {
			interrupted = " (interrupted: " + r.Interrupted + ")"
		}
		if r.OK {
			passed++
			fmt.Fprintf(w, "ok   %s%s\n", r.Name, interrupted)
		} else {
			fmt.Fprintf(w, "FAIL %s: %s%s\n", r.Name, r.Failures[0].Line(), interrupted)
			for _, f := range r.Failures[1:] {
				fmt.Fprintf(w, "     and %s\n", f.Line())
			}
		}
		if r.Transport != nil {
			fmt.Fprintf(w, "     %s\n", r.Transport)
		}
		notes += len(r.Notes)
		if verbose {
			for _, n := range r.Notes {
				fmt.Fprintf(w, "     note: %s\n", n)
			}
		}
	}
	fmt.Fprintf(w, "%d passed, %d failed", passed, len(results)-passed)
	if notes > 0 && !verbose {
		noun := "notes"
		if notes == 1 {
			noun = "note"
		}
		fmt.Fprintf(w, " (%d %s at SHOULD or wording level: -v lists them)", notes, noun)
	}
	fmt.Fprintln(w)
}

// PrintJSON writes results as one JSON document.
func PrintJSON(w io.Writer, results []Result) error {
	passed := 0
	for _, r := range results {
		if r.OK {
			passed++
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(struct {
		Passed  int      `json:"passed"`
		Failed  int      `json:"failed"`
		Results []Result `json:"results"`
	}{passed, len(results) - passed, results})
}
