package inspect

import (
	"slices"
	"strconv"
	"sync"
	"unsafe"

	"github.com/agent-analysis/agent-analysis/agui"
	"github.com/agent-analysis/agent-analysis/kit/inspect/runs"
)

// The store's bounds: past MaxRunBytes a run's events are counted, not
// kept (Detail.Truncated); past MaxBytes in all, or DefaultKeep runs, the
// oldest runs go. A run's bytes are its input's and its kept events',
// each event's with what holding it costs besides (eventCost): an empty
// comment is not free.
const (
	DefaultKeep = 200
	MaxRunBytes = 16 << 20
	MaxBytes    = 256 << 20
)

// Store keeps the last runs, for the inspector's page, and tells its
// live subscribers of every change. Every method returns at once: a run
// passing the proxy never waits for the page.
type Store struct {
	mu    sync.Mutex
	keep  int
	most  int      // bytes kept in all: MaxBytes, less in tests
	runs  []*entry // oldest first
	byID  map[string]*entry
	next  int
	bytes int
	subs  map[*Subscription]struct{}
}

// entry is one run as the store holds it.
type entry struct {
	detail  runs.Detail
	events  []runs.Event
	bytes   int
	resumes bool // it continues an interrupted run of its thread, which it is linked to once known
}

// NewStore keeps the last keep runs (DefaultKeep when keep < 1).
func NewStore(keep int) *Store {
	if keep < 1 {
		keep = DefaultKeep
	}
	return &Store{keep: keep, most: MaxBytes, byID: map[string]*entry{}, subs: map[*Subscription]struct{}{}}
}

// add keeps a new run, linked to the run it resumes when resumes is set:
// the last run of its thread that ended waiting for an answer.
func (s *Store) add(d runs.Detail, resumes bool) *entry {
	d.Replies = replies(d.Input)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.next++
	d.ID = strconv.Itoa(s.next)
	e := &entry{detail: d, resumes: resumes, bytes: len(d.Input)}
	s.bytes += e.bytes
	if resumes && d.ThreadID != "" {
		// A file's continuations are each a way its run goes on: every one
		// resumes it, and the run names the first as its answer.
		for _, prev := range slices.Backward(s.runs) {
			if prev.detail.ThreadID != d.ThreadID || prev.detail.Source != d.Source || prev.detail.Status != runs.Interrupted {
				continue
			}
			if prev.detail.ResumedBy == "" {
				prev.detail.ResumedBy = d.ID
				s.publish(runs.Update{Kind: "run", Run: &prev.detail.Run})
			} else if d.Source == "live" {
				continue
			}
			e.detail.Resumes = prev.detail.ID
			break
		}
	}
	s.runs = append(s.runs, e)
	s.byID[d.ID] = e
	s.trim()
	s.publish(runs.Update{Kind: "run", Run: &e.detail.Run})
	return e
}

// trim lets the oldest runs go while more are kept than the bounds allow.
func (s *Store) trim() {
	for len(s.runs) > s.keep || (s.bytes > s.most && len(s.runs) > 1) {
		old := s.runs[0]
		s.runs = s.runs[1:]
		delete(s.byID, old.detail.ID)
		s.bytes -= old.bytes
		s.publish(runs.Update{Kind: "gone", ID: old.detail.ID})
	}
}

// event adds an event to a run, as the engine judged it (j): kept while
// the run's events stay within MaxRunBytes, counted after.
func (s *Store) event(e *entry, ev runs.Event, j agui.Judgement) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, kept := s.byID[e.detail.ID]; !kept {
		return // let go while it streamed: nothing more of it is kept, counted or shown
	}
	if ev.Index >= 0 {
		e.detail.Events = ev.Index + 1
		ended(&e.detail, j)
		s.linkResume(e)
	}
	for _, m := range ev.Marks {
		if m.Fatal {
			e.detail.Status, e.detail.Rule = runs.Failed, m.Rule
		} else {
			e.detail.Warnings++
		}
	}
	size := eventCost(ev)
	if e.detail.Truncated || e.bytes+size > MaxRunBytes {
		e.detail.Truncated = true
	} else {
		e.events = append(e.events, ev)
		e.bytes += size
		s.bytes += size
	}
	// The page reads an event's bytes from the store: a page slow to
	// read its feed holds no copy of them, of an event kept or not.
	ev.JSON, ev.Comment = "", ""
	s.publish(runs.Update{Kind: "event", ID: e.detail.ID, Event: &ev, Run: &e.detail.Run})
	s.trim()
}

// eventCost is what keeping ev holds: its bytes, and its place in the
// run's list and its marks'.
func eventCost(ev runs.Event) int {
	n := eventPlace + len(ev.JSON) + len(ev.Comment)
	for _, m := range ev.Marks {
		n += int(unsafe.Sizeof(m)) + len(m.Text)
	}
	return n
}

// eventPlace is an event's place in a run's list.
const eventPlace = int(unsafe.Sizeof(runs.Event{}))

// linkResume links a run just found interrupted to the run that resumes
// it, if that has come already: a client may send its resume before the
// judge of the run it answers, behind the bytes, has read that run's end.
// (add links a resume to a run interrupted by then.) Runs link only to
// runs from the same source: a file's continuation answers its file's
// run, whatever live run shares its thread's id.
func (s *Store) linkResume(prev *entry) {
	if prev.detail.Status != runs.Interrupted || prev.detail.ResumedBy != "" || prev.detail.ThreadID == "" {
		return
	}
	i := slices.Index(s.runs, prev)
	if i < 0 {
		return // let go
	}
	for _, e := range s.runs[i+1:] {
		if e.resumes && e.detail.Resumes == "" && e.detail.ThreadID == prev.detail.ThreadID && e.detail.Source == prev.detail.Source {
			prev.detail.ResumedBy, e.detail.Resumes = e.detail.ID, prev.detail.ID
			s.publish(runs.Update{Kind: "run", Run: &e.detail.Run})
			return
		}
	}
}

// update changes a run's detail, and tells the subscribers.
func (s *Store) update(e *entry, change func(*runs.Detail)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	change(&e.detail)
	s.linkResume(e)
	if _, live := s.byID[e.detail.ID]; live {
		s.publish(runs.Update{Kind: "run", Run: &e.detail.Run})
	}
}

// Runs are the runs kept, the newest first.
func (s *Store) Runs() []runs.Run {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]runs.Run, 0, len(s.runs))
	for _, e := range slices.Backward(s.runs) {
		out = append(out, e.detail.Run)
	}
	return out
}

// Detail is a run's detail; ok is false for a run not kept.
func (s *Store) Detail(id string) (runs.Detail, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.byID[id]
	if !ok {
		return runs.Detail{}, false
	}
	d := e.detail
	d.Failures = slices.Clone(d.Failures)
	d.Notes = slices.Clone(d.Notes)
	d.Questions = slices.Clone(d.Questions)
	return d, true
}

// Events are a run's kept events from the from-th on, at most limit of
// them, and whether more are kept after them.
func (s *Store) Events(id string, from, limit int) ([]runs.Event, bool, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.byID[id]
	if !ok {
		return nil, false, false
	}
	from = min(max(from, 0), len(e.events))
	to := min(from+limit, len(e.events))
	return slices.Clone(e.events[from:to]), to < len(e.events), true
}
