package check

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agent-analysis/agent-analysis/script"
)

// Result is one script's verdict.
type Result struct {
	Name  string   `json:"name"`
	Path  string   `json:"path,omitempty"`
	OK    bool     `json:"ok"`
	Why   []string `json:"why,omitempty"`   // what disagrees; empty when OK
	Notes []string `json:"notes,omitempty"` // SHOULD-level and wording-level differences: never a failure
}

// Script judges one script. With useExpect and an "expect" in the script,
// the replay is compared with it; otherwise the stream must be valid
// AG-UI 1.0, every run ended.
func Script(s script.Script, useExpect bool) Result {
	res := Result{Name: s.Name}
	r := Run(s)
	if useExpect && s.Expect != nil {
		e, err := readExpect(s.Expect)
		if err != nil {
			res.Why = []string{err.Error()}
			return res
		}
		res.Why, res.Notes = compare(r, e)
	} else {
		if !r.Accepted() {
			res.Why = []string{why(r)}
		}
		for _, w := range r.Warnings {
			res.Notes = append(res.Notes, fmt.Sprintf("warning (%s): %s", w.Rule.ID, w.Text))
		}
	}
	res.OK = len(res.Why) == 0
	return res
}

// Files judges every script in the paths given: files, and the .json and
// .jsonl files of directories (not their subdirectories), in name order.
func Files(paths []string, useExpect bool) ([]Result, error) {
	var files []string
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !info.IsDir() {
			files = append(files, p)
			continue
		}
		entries, err := os.ReadDir(p)
		if err != nil {
			return nil, err
		}
		var found []string
		for _, e := range entries {
			if ext := filepath.Ext(e.Name()); !e.IsDir() && (ext == ".json" || ext == ".jsonl") {
				found = append(found, filepath.Join(p, e.Name()))
			}
		}
		if len(found) == 0 {
			return nil, fmt.Errorf("%s: no .json or .jsonl script in it", p)
		}
		slices.Sort(found)
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
	name := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	s, err := Load(path)
	if err != nil {
		return Result{Name: name, Path: path, Why: []string{err.Error()}}
	}
	res := Script(s, useExpect)
	res.Path = path
	return res
}

// Load reads a script file, bounded.
func Load(path string) (script.Script, error) {
	f, err := os.Open(path)
	if err != nil {
		return script.Script{}, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, script.MaxBytes+1))
	if err != nil {
		if errors.Is(err, fs.ErrInvalid) {
			err = fmt.Errorf("%s: not a readable file", path)
		}
		return script.Script{}, err
	}
	name := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	s, err := script.Parse(data, name)
	if err != nil {
		return script.Script{}, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// Print writes results as go test does: "ok   NAME" or "FAIL NAME: why",
// then a summary line. With verbose, notes follow each line.
func Print(w io.Writer, results []Result, verbose bool) {
	passed, notes := 0, 0
	for _, r := range results {
		if r.OK {
			passed++
			fmt.Fprintf(w, "ok   %s\n", r.Name)
		} else {
			fmt.Fprintf(w, "FAIL %s: %s\n", r.Name, strings.Join(r.Why, "; "))
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
