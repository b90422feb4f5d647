package inspect

import (
	"fmt"
	"time"

	"github.com/agent-analysis/agent-analysis/agui"
	"github.com/agent-analysis/agent-analysis/kit/inspect/runs"
	"github.com/agent-analysis/agent-analysis/kit/proxy"
	"github.com/agent-analysis/agent-analysis/kit/script"
)

// The store watches a proxy's runs as they pass (proxy.Config.Observer).
var _ proxy.Observer = (*Store)(nil)

// Begin keeps a run as its judge starts on it.
func (s *Store) Begin(b proxy.Begin) proxy.RunObserver {
	d := runs.Detail{
		Run:     runs.Run{Source: "live", ThreadID: b.ThreadID, RunID: b.RunID, Started: b.Started, Status: runs.Running},
		Input:   string(b.Input),
		Headers: b.Headers,
		Method:  b.Method,
		Path:    b.Path,
		URL:     b.URL,
	}
	d.Name = name(b.ThreadID, b.RunID, b.Method+" "+b.Path)
	return &watching{s: s, e: s.add(d, b.Resume)}
}

// name is a run's name: its thread and run, or what else says which it is.
func name(thread, run, otherwise string) string {
	if thread == "" && run == "" {
		return otherwise
	}
	return fmt.Sprintf("thread %s run %s", thread, run)
}

// watching is one run passing the proxy.
type watching struct {
	s      *Store
	e      *entry
	events int
}

func (w *watching) Frame(at time.Duration, f script.Frame, j agui.Judgement) {
	ev := runs.Event{Index: -1, AtMs: ms(at), Comment: f.Comment}
	if f.Event != nil {
		ev = runs.Event{Index: w.events, AtMs: ms(at), Type: script.TypeOf(f.Event), Size: len(f.Event), JSON: string(f.Event), Marks: marks(j)}
		w.events++
	}
	w.s.event(w.e, ev, j)
}

func (w *watching) End(r proxy.Run) {
	w.s.update(w.e, func(d *runs.Detail) {
		d.Failures, d.Notes = failures(r.Failures), r.Notes
		d.Transport = &runs.Transport{Status: r.Status, ContentType: r.ContentType, Bytes: r.Bytes,
			AnsweredMs: ms(r.Answered), LongestGap: ms(r.LongestGap), TookMs: ms(r.Took)}
		d.Events = r.Events
		verdict(d, r.Cancelled)
	})
}

// verdict settles a run's status from its failures and warnings, and how
// it ended: cancelled by its client (how, in cancelled), interrupted, or
// failed by the agent's own report (d.Ending says which, already).
func verdict(d *runs.Detail, cancelled string) {
	switch {
	case len(d.Failures) > 0:
		d.Status, d.Rule = runs.Failed, d.Failures[0].Rule
	case cancelled != "":
		d.Status, d.Ending = runs.Cancelled, cancelled
	case d.Status == runs.Interrupted, d.Status == runs.Errored:
	case d.Warnings > 0:
		d.Status = runs.Warned
	default:
		d.Status = runs.OK
	}
}

// ended notes, as an event judged, how a run of the stream ended.
func ended(d *runs.Detail, j agui.Judgement) {
	if j.Run == nil || j.Violation != nil {
		return
	}
	switch r := j.Run; {
	case r.Phase == agui.Finished && r.Outcome.Kind == agui.OutcomeInterrupt:
		d.Status = runs.Interrupted
		var ids []string
		for _, i := range r.Outcome.Interrupts {
			ids = append(ids, fmt.Sprintf("%q", i.ID))
		}
		d.Ending = fmt.Sprintf("run %q waits for interrupt %v", r.RunID, ids)
		d.Questions = questions(r.Outcome.Interrupts)
	case r.Phase == agui.Errored:
		d.Status, d.Ending = runs.Errored, fmt.Sprintf("the agent reported an error: RUN_ERROR %q", r.Error.Message)
	case r.Phase == agui.Active:
		d.Status, d.Ending = runs.Running, ""
	}
}
