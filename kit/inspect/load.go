package inspect

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/agent-analysis/agent-analysis/agui"
	"github.com/agent-analysis/agent-analysis/agui/jsonpatch"
	"github.com/agent-analysis/agent-analysis/kit/agent"
	"github.com/agent-analysis/agent-analysis/kit/check"
	"github.com/agent-analysis/agent-analysis/kit/inspect/runs"
	"github.com/agent-analysis/agent-analysis/kit/rules"
	"github.com/agent-analysis/agent-analysis/kit/script"
)

// Load keeps the runs of files, as check reads them: every file named,
// and every file of a folder named; a script (its continuations runs of
// their own, linked to it), a capture of SSE or of the binary transport,
// a proxy's -log. A file is judged as check judges it, each event marked
// with what the engine judged there, so that a run read from a file shows
// what the same run passing the proxy showed. It says what it skipped, or
// could not read, a line each.
func (s *Store) Load(paths []string) []string {
	var said []string
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil || !info.IsDir() {
			said = append(said, s.loadFile(p)...)
			continue
		}
		entries, err := os.ReadDir(p)
		if err != nil {
			said = append(said, fmt.Sprintf("%s: the folder cannot be listed: %v", p, err))
			continue
		}
		for _, e := range entries {
			path := filepath.Join(p, e.Name())
			if e.IsDir() {
				said = append(said, path+": a folder: skipped")
				continue
			}
			data, err := script.ReadBounded(path, "a script")
			if err == nil {
				if why := check.Sniff(data[:min(len(data), 512)]); why.Name == "" {
					said = append(said, path+": skipped: not a script or a capture")
					continue
				}
			}
			said = append(said, s.loadFile(path)...)
		}
	}
	return said
}

func (s *Store) loadFile(path string) []string {
	data, err := script.ReadBounded(path, "a script")
	if err != nil {
		return []string{err.Error()}
	}
	return s.LoadData(path, data)
}

// LoadData keeps the runs of a file's bytes (a file dropped on the page),
// as Load keeps a file's.
func (s *Store) LoadData(path string, data []byte) []string {
	results := check.Data(path, data, false)
	if len(results) == 1 && slices.ContainsFunc(results[0].Failures, func(f rules.Failure) bool { return f.Rule == rules.File }) {
		return []string{results[0].Failures[0].Text}
	}
	switch check.Sniff(data) {
	case check.CaptureFile, check.BinaryFile:
		c := agent.ReadCapture(data)
		sc := script.Script{Name: script.BaseName(path), Frames: c.Frames}
		s.keepReplay(path, sc, check.Run(sc), results[0], false)
		return nil
	}
	sc, err := script.Parse(data, script.BaseName(path))
	if err != nil {
		return []string{fmt.Sprintf("%s: %v", path, err)}
	}
	main := check.Run(sc)
	s.keepReplay(path, sc, main, results[0], false)
	held := cost(sc)
	for i, c := range sc.Continuations {
		resumed := script.Script{Name: sc.Name + "/" + c.Name, Frames: c.Frames}
		r, failure := check.ContinuationReplay(sc, main, c)
		if failure != nil {
			r = check.Replay{}
		}
		if r.Request != nil { // the resume the replay sent: its state, its answers
			resumed.Input = jsonpatch.Encode(r.Request)
		}
		if held += cost(resumed); held > s.most {
			// Each continuation's input holds the state and conversation
			// its run left: a small file may ask for far more than is kept,
			// and its first runs are not let go for its last.
			return []string{fmt.Sprintf("%s: its continuations from %q on are not kept: the file's runs would hold more than the %d MiB the inspector keeps",
				path, c.Name, s.most>>20)}
		}
		s.keepReplay(path, resumed, r, results[1+i], true)
	}
	return nil
}

// keepReplay keeps a run read from a file: its events, each marked as the
// replay judged it, and the verdict check gives it.
func (s *Store) keepReplay(path string, sc script.Script, r check.Replay, res check.Result, resumes bool) {
	if path == "live" { // the source of the proxy's runs; the file is the same one named so
		path = "./live"
	}
	d := runs.Detail{Run: runs.Run{Source: path, Name: res.Name, Started: time.Now()}, Input: string(sc.Input), Failures: failures(res.Failures), Notes: res.Notes}
	if in, _, err := agui.ReadInput(sc.Input); err == nil && sc.Input != nil {
		d.ThreadID, d.RunID = in.ThreadID, in.RunID
	} else if len(r.Runs) > 0 { // a capture: no input, its first run says
		d.ThreadID, d.RunID = r.Runs[0].ThreadID, r.Runs[0].RunID
	}
	d.Name = name(d.ThreadID, d.RunID, res.Name)
	e := s.add(d, resumes)
	byEvent := map[int][]runs.Mark{}
	for _, w := range r.Warnings {
		if w.Index >= 0 {
			byEvent[w.Index] = append(byEvent[w.Index], mark(w.Rule, w.Text))
		}
	}
	if v := r.Violation; v != nil {
		byEvent[v.Index] = append(byEvent[v.Index], mark(v.Rule, v.Reason))
	}
	var at time.Duration
	n := 0
	for _, f := range sc.Frames {
		at += f.After
		if f.Event == nil {
			s.event(e, runs.Event{Index: -1, AtMs: ms(at), Comment: f.Comment}, agui.Judgement{})
			continue
		}
		s.event(e, runs.Event{Index: n, AtMs: ms(at), Type: script.TypeOf(f.Event), Size: len(f.Event), JSON: string(f.Event), Marks: byEvent[n]}, agui.Judgement{})
		n++
	}
	s.update(e, func(d *runs.Detail) {
		switch {
		case r.Pending != nil:
			d.Status, d.Ending = runs.Interrupted, check.Waiting(*r.Pending)
			d.Questions = questions(r.Pending.Interrupts)
		case res.Errored != "":
			d.Status, d.Ending = runs.Errored, res.Errored
		}
		verdict(d, "")
	})
}

// cost is what keeping a script's run holds, its marks aside.
func cost(sc script.Script) int {
	n := len(sc.Input)
	for _, f := range sc.Frames {
		n += eventPlace + len(f.Event) + len(f.Comment)
	}
	return n
}
