package check

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/agent-analysis/agent-analysis/agent"
	"github.com/agent-analysis/agent-analysis/script"
)

// Result is one script's or one live run's verdict.
type Result struct {
	Name      string           `json:"name"`
	Path      string           `json:"path,omitempty"` // the script's file
	OK        bool             `json:"ok"`
	Failures  []Failure        `json:"failures,omitempty"`  // empty when OK
	Notes     []string         `json:"notes,omitempty"`     // SHOULD-level and wording-level differences: never a failure
	Transport *agent.Transport `json:"transport,omitempty"` // what a live run measured
}

// Failure is one way a script or a run fails: the rule it broke, and
// what exactly was wrong. Rule is the engine's rule id ("after-finish"),
// Truncated, InputRule or FileRule, an expectation the replay disagrees
// with ("expect.state"), or a transport check of a live run
// ("content-type", see package agent).
type Failure struct {
	Rule string `json:"rule"`
	Text string `json:"text"`
}

// The failures that are neither an engine rule nor an expectation.
const (
	Truncated = "truncated" // the stream ended with a run active, or without the requested run
	InputRule = "input"     // the script's input cannot start a run
	FileRule  = "file"      // the script's file cannot be read
)

// Script judges one script. With useExpect and an "expect" in the script,
// the replay is compared with it; otherwise the stream must be valid
// AG-UI 1.0, every run ended.
func Script(s script.Script, useExpect bool) Result {
	res := Result{Name: s.Name}
	r := Run(s)
	if useExpect && s.Expect != nil {
		e, err := readExpect(s.Expect)
		if err != nil {
			res.Failures = []Failure{{Rule: "expect", Text: err.Error()}}
			return res
		}
		res.Failures, res.Notes = compare(r, e)
	} else {
		if f := verdict(r); f != nil {
			res.Failures = []Failure{*f}
		}
		res.Notes = warningNotes(r.Warnings)
	}
	res.OK = len(res.Failures) == 0
	return res
}

// Files judges every script in the paths given: files, and the .json and
// .jsonl files of directories (script.Paths), in name order.
func Files(paths []string, useExpect bool) ([]Result, error) {
	var files []string
	for _, p := range paths {
		if info, err := os.Stat(p); err == nil && !info.IsDir() {
			files = append(files, p)
			continue
		}
		found, err := script.Paths(p)
		if err != nil {
			return nil, err
		}
		files = append(files, found...)
	}
	var out []Result
	for _, f := range files {
		out = append(out, File(f, useExpect))
	}
	return out, nil
}

// File judges the script in one file; one that cannot be read fails.
func File(path string, useExpect bool) Result {
	s, err := script.ReadFile(path)
	if err != nil {
		return Result{Name: script.BaseName(path), Path: path, Failures: []Failure{{Rule: FileRule, Text: err.Error()}}}
	}
	res := Script(s, useExpect)
	res.Path = path
	return res
}

// Why is what failed, every failure's text, in one line.
func (r Result) Why() string {
	texts := make([]string, len(r.Failures))
	for i, f := range r.Failures {
		texts[i] = f.Text
	}
	return strings.Join(texts, "; ")
}

// Print writes results as go test does: "ok   NAME" or "FAIL NAME: why",
// then a summary line. A live run's measurements follow its line; with
// verbose, so do the notes.
func Print(w io.Writer, results []Result, verbose bool) {
	passed, notes := 0, 0
	for _, r := range results {
		if r.OK {
			passed++
			fmt.Fprintf(w, "ok   %s\n", r.Name)
		} else {
			fmt.Fprintf(w, "FAIL %s: %s\n", r.Name, r.Why())
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
		fmt.Fprintf(w, " (%d notes at SHOULD or wording level: -v lists them)", notes)
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
