package page

import (
	"errors"
	"reflect"
	"testing"

	"github.com/agent-analysis/agent-analysis/kit/inspect/runs"
)

// run is a run of the list, as the store says it.
func run(id string, status runs.Status, events int) runs.Run {
	return runs.Run{ID: id, ThreadID: "t", Status: status, Events: events}
}

func ids(list []runs.Run) []string {
	var out []string
	for _, r := range list {
		out = append(out, r.ID)
	}
	return out
}

// step runs msgs through Update, and returns the last Cmd.
func step(t *testing.T, m Model, msgs ...Msg) (Model, Cmd) {
	t.Helper()
	var cmd Cmd
	for _, msg := range msgs {
		m, cmd = Update(m, msg)
	}
	return m, cmd
}

// events are n events, with a comment before the first.
func events(from, n int) []runs.Event {
	var out []runs.Event
	if from == 0 {
		out = append(out, runs.Event{Index: -1, Comment: "hello"})
	}
	for i := from; i < from+n; i++ {
		out = append(out, runs.Event{Index: i, Type: "STATE_DELTA", Size: 10})
	}
	return out
}

// shown is a model showing run "1" with n events read (and one comment).
func shown(t *testing.T, n int) Model {
	t.Helper()
	m, _ := step(t, NewModel(),
		Located{Hash: "#run=1"},
		GotDetail{ID: "1", Detail: runs.Detail{Run: run("1", runs.OK, n)}},
		GotEvents{ID: "1", From: 0, Events: events(0, n)},
		GotAt{ID: "1", At: runs.At{Index: -1}},
		Scrolled{Top: 0, Height: 320, RowPx: 32},
	)
	return m
}

func TestChoosingARunReadsItsDetailEventsAndStateBeforeTheFirstEvent(t *testing.T) {
	m, cmd := Update(NewModel(), Located{Hash: "#run=7"})
	want := Batch{ReadDetail{ID: "7"}, ReadEvents{ID: "7", From: 0, Limit: pageSize}, ReadAt{ID: "7", Index: -1}, KeepPlace{Hash: "#run=7"}}
	if !reflect.DeepEqual(cmd, want) {
		t.Errorf("cmd %#v, want %#v", cmd, want)
	}
	if m.Shown.ID != "7" || m.Shown.Cursor != -1 {
		t.Errorf("shown %+v", m.Shown)
	}
	if _, cmd := Update(m, Located{Hash: "#run=7"}); cmd != nil {
		t.Errorf("choosing the shown run again: %#v", cmd)
	}
}

func TestAReloadShowsTheRunAndEventTheURLNames(t *testing.T) {
	m, cmd := Update(NewModel(), Located{Hash: "#event=4&run=3"})
	if m.Shown.ID != "3" || m.Shown.Cursor != 4 {
		t.Errorf("shown %+v", m.Shown)
	}
	if b, _ := cmd.(Batch); len(b) != 4 || b[2] != (ReadAt{ID: "3", Index: 4}) {
		t.Errorf("cmd %#v", cmd)
	}
	if m, cmd := Update(NewModel(), Located{Hash: ""}); m.Shown.ID != "" || cmd != nil {
		t.Errorf("no fragment: %+v %#v", m.Shown, cmd)
	}
}

func TestEventsArePagedUntilAllAreRead(t *testing.T) {
	m, _ := Update(NewModel(), Located{Hash: "#run=1"})
	m, cmd := Update(m, GotEvents{ID: "1", From: 0, Events: events(0, 3), More: true})
	if cmd != (ReadEvents{ID: "1", From: 4, Limit: pageSize}) {
		t.Fatalf("after the first page: %#v", cmd)
	}
	m, cmd = Update(m, GotEvents{ID: "1", From: 4, Events: events(3, 2)})
	if cmd != nil || len(m.Shown.Events) != 6 || !reflect.DeepEqual(m.Shown.Pos, []int{1, 2, 3, 4, 5}) {
		t.Errorf("events %d pos %v cmd %#v", len(m.Shown.Events), m.Shown.Pos, cmd)
	}
	// A page of another run, or from elsewhere, changes nothing.
	if n, _ := Update(m, GotEvents{ID: "2", From: 6, Events: events(5, 1)}); len(n.Shown.Events) != 6 {
		t.Error("another run's page was taken")
	}
}

func TestSteppingStaysWithinTheEventsRead(t *testing.T) {
	m := shown(t, 3) // events 0..2
	for _, c := range []struct {
		name string
		msgs []Msg
		want int
	}{
		{"forward", []Msg{Stepped{By: 1}}, 0},
		{"forward twice", []Msg{Stepped{By: 1}, Stepped{By: 1}}, 1},
		{"back from the start", []Msg{Stepped{By: -1}}, -1},
		{"past the end", []Msg{Stepped{By: 10}}, 2},
		{"to the last", []Msg{Stepped{To: Final}}, 2},
		{"to the first", []Msg{Stepped{To: Final}, Stepped{To: First}}, -1},
		{"a row chosen", []Msg{ChoseEvent{Index: 1}}, 1},
		{"a row past the end", []Msg{ChoseEvent{Index: 9}}, 2},
	} {
		got, _ := step(t, m, c.msgs...)
		if got.Shown.Cursor != c.want {
			t.Errorf("%s: cursor %d, want %d", c.name, got.Shown.Cursor, c.want)
		}
	}
	if _, cmd := Update(m, Stepped{By: -1}); cmd != nil {
		t.Errorf("a step that goes nowhere reads: %#v", cmd)
	}
	if _, cmd := Update(NewModel(), Stepped{By: 1}); cmd != nil {
		t.Errorf("a step with no run shown: %#v", cmd)
	}
}

func TestTheStateIsReadForTheCursorOnceTheReadInFlightLands(t *testing.T) {
	m := shown(t, 5)
	m, cmd := Update(m, Stepped{By: 1})
	if b := cmd.(Batch); b[0] != (ReadAt{ID: "1", Index: 0}) || b[1] != (KeepPlace{Hash: "#event=0&run=1"}) {
		t.Fatalf("first step: %#v", cmd)
	}
	m, cmd = Update(m, Stepped{By: 1}) // the read for 0 is still out
	if _, ok := cmd.(KeepPlace); !ok {
		t.Fatalf("second step read again while one was out: %#v", cmd)
	}
	m, cmd = Update(m, GotAt{ID: "1", At: runs.At{Index: 0}})
	if cmd != (ReadAt{ID: "1", Index: 1}) || m.Shown.At.Index != 0 {
		t.Fatalf("the late answer: %#v, at %+v", cmd, m.Shown.At)
	}
	m, cmd = Update(m, GotAt{ID: "1", At: runs.At{Index: 1, Changed: []string{"/a"}}})
	if cmd != nil || m.Shown.At.Index != 1 {
		t.Errorf("the answer for the cursor: %#v, at %+v", cmd, m.Shown.At)
	}
	if n, _ := Update(m, GotAt{ID: "2", At: runs.At{Index: 4}}); n.Shown.At.Index != 1 {
		t.Error("another run's state was taken")
	}
}

func TestStepsScrollTheTimelineJustEnoughToShowTheCursor(t *testing.T) {
	m := shown(t, 100) // rows: a comment, then events; 10 rows in view
	m, _ = step(t, m, ChoseEvent{Index: 8})
	if m.Shown.Scroll.Top != 0 || m.Shown.Scroll.Reveal != 0 {
		t.Errorf("row 9 is in view, yet it scrolled: %+v", m.Shown.Scroll)
	}
	m, _ = step(t, m, Stepped{By: 1}) // event 9 is row 10, the 11th
	if m.Shown.Scroll.Top != 32 || m.Shown.Scroll.Reveal != 1 {
		t.Errorf("down past the view: %+v", m.Shown.Scroll)
	}
	m, _ = step(t, m, Stepped{To: Final})
	if want := 100*32.0 + 32 - 320; m.Shown.Scroll.Top != want {
		t.Errorf("to the end: top %v, want %v", m.Shown.Scroll.Top, want)
	}
	m, _ = step(t, m, Stepped{To: First})
	if m.Shown.Scroll.Top != 0 || m.Shown.Scroll.Reveal != 3 {
		t.Errorf("back to the start: %+v", m.Shown.Scroll)
	}
}

func TestLiveUpdatesMergeIntoTheList(t *testing.T) {
	m, _ := step(t, NewModel(), GotRuns{Runs: []runs.Run{run("2", runs.Running, 1), run("1", runs.OK, 5)}})
	for _, c := range []struct {
		name string
		u    runs.Update
		want []string
		run2 runs.Run
	}{
		{"a new run goes first", runs.Update{Kind: "run", Run: ptr(run("3", runs.Running, 0))}, []string{"3", "2", "1"}, run("2", runs.Running, 1)},
		{"an event moves a run on", runs.Update{Kind: "event", ID: "2", Run: ptr(run("2", runs.Running, 2)), Event: &runs.Event{Index: 1}}, []string{"2", "1"}, run("2", runs.Running, 2)},
		{"an older word is not taken", runs.Update{Kind: "run", Run: ptr(run("2", runs.Running, 0))}, []string{"2", "1"}, run("2", runs.Running, 1)},
		{"an ending is taken", runs.Update{Kind: "run", Run: ptr(run("2", runs.Failed, 1))}, []string{"2", "1"}, run("2", runs.Failed, 1)},
		{"a run let go leaves", runs.Update{Kind: "gone", ID: "1"}, []string{"2"}, run("2", runs.Running, 1)},
	} {
		got, cmd := Update(m, LiveUpdate{Update: c.u})
		if !reflect.DeepEqual(ids(got.Runs), c.want) {
			t.Errorf("%s: %v, want %v", c.name, ids(got.Runs), c.want)
		}
		if r := got.Runs[indexOf(got.Runs, "2")]; r != c.run2 {
			t.Errorf("%s: run 2 is %+v, want %+v", c.name, r, c.run2)
		}
		if cmd != nil {
			t.Errorf("%s: reads %#v with no run shown", c.name, cmd)
		}
	}
	if _, cmd := Update(m, LiveUpdate{Update: runs.Update{Kind: "resync"}}); cmd != (ReadRuns{}) {
		t.Errorf("resync: %#v", cmd)
	}
	if got, cmd := Update(m, LiveOpened{}); cmd != (ReadRuns{}) || got.Live != Connected {
		t.Errorf("reconnected: %#v %v", cmd, got.Live)
	}
}

func indexOf(list []runs.Run, id string) int {
	for i, r := range list {
		if r.ID == id {
			return i
		}
	}
	return -1
}

func ptr[T any](v T) *T { return &v }

// A list read while the feed brought news keeps the news, and drops the
// runs let go meanwhile.
func TestAFreshListKeepsWhatTheFeedBroughtMeanwhile(t *testing.T) {
	m, _ := step(t, NewModel(),
		LiveUpdate{Update: runs.Update{Kind: "run", Run: ptr(run("1", runs.Running, 0))}},
		LiveUpdate{Update: runs.Update{Kind: "event", ID: "1", Run: ptr(run("1", runs.OK, 4))}},
		LiveUpdate{Update: runs.Update{Kind: "run", Run: ptr(run("3", runs.Running, 0))}},
		LiveUpdate{Update: runs.Update{Kind: "run", Run: ptr(run("0", runs.OK, 1))}},
	)
	m, _ = Update(m, GotRuns{Runs: []runs.Run{run("2", runs.OK, 2), run("1", runs.Running, 3)}})
	if got := ids(m.Runs); !reflect.DeepEqual(got, []string{"3", "2", "1"}) {
		t.Errorf("runs %v", got)
	}
	if r := m.Runs[2]; r.Status != runs.OK || r.Events != 4 {
		t.Errorf("run 1 went back to %+v", r)
	}
}

func TestTheShownRunFollowsTheFeed(t *testing.T) {
	m := shown(t, 2)
	m, cmd := Update(m, LiveUpdate{Update: runs.Update{Kind: "event", ID: "1", Run: ptr(run("1", runs.Running, 3)), Event: &runs.Event{Index: 2}}})
	if cmd != (ReadEvents{ID: "1", From: 3, Limit: pageSize}) || m.Shown.Detail.Events != 3 {
		t.Fatalf("an event: %#v, detail %+v", cmd, m.Shown.Detail.Run)
	}
	// More news while the read is out: one more read once it lands.
	m, cmd = Update(m, LiveUpdate{Update: runs.Update{Kind: "event", ID: "1", Run: ptr(run("1", runs.Running, 4)), Event: &runs.Event{Index: 3}}})
	if cmd != nil {
		t.Fatalf("a second read while one is out: %#v", cmd)
	}
	m, cmd = Update(m, GotEvents{ID: "1", From: 3, Events: events(2, 1)})
	if cmd != (ReadEvents{ID: "1", From: 4, Limit: pageSize}) {
		t.Fatalf("after the read: %#v", cmd)
	}
	m, _ = Update(m, GotEvents{ID: "1", From: 4, Events: events(3, 1)})
	if m.Shown.Last() != 3 {
		t.Errorf("last event %d", m.Shown.Last())
	}
	m, cmd = Update(m, LiveUpdate{Update: runs.Update{Kind: "run", Run: ptr(run("1", runs.Failed, 4))}})
	if cmd != (ReadDetail{ID: "1"}) || m.Shown.Detail.Status != runs.Failed {
		t.Errorf("an ending: %#v %+v", cmd, m.Shown.Detail.Run)
	}
	m, _ = Update(m, LiveUpdate{Update: runs.Update{Kind: "gone", ID: "1"}})
	if !m.Shown.Gone {
		t.Error("a run let go is not said so")
	}
	if _, cmd := Update(m, Stepped{By: 1}); cmd != (KeepPlace{Hash: "#event=0&run=1"}) {
		t.Errorf("a run let go is still read: %#v", cmd)
	}
}

func TestAResumedRunAndItsAnswerAreReadBothWays(t *testing.T) {
	m, _ := Update(NewModel(), Located{Hash: "#run=1"})
	asked := runs.Detail{Run: runs.Run{ID: "1", Status: runs.Interrupted, ResumedBy: "2"}, Questions: []runs.Question{{ID: "i1", Reason: "confirmation"}}}
	m, cmd := Update(m, GotDetail{ID: "1", Detail: asked})
	if cmd != (ReadDetail{ID: "2"}) {
		t.Fatalf("the answering run is not read: %#v", cmd)
	}
	m, _ = Update(m, GotDetail{ID: "2", Detail: runs.Detail{Run: runs.Run{ID: "2", Resumes: "1"}, Replies: []runs.Reply{{InterruptID: "i1", Status: "resolved"}}}})
	if m.Shown.Answer == nil || m.Shown.Answer.Replies[0].InterruptID != "i1" || m.Shown.Detail.ID != "1" {
		t.Errorf("answer %+v", m.Shown.Answer)
	}
	m, _ = Update(m, Located{Hash: "#run=2"})
	m, cmd = Update(m, GotDetail{ID: "2", Detail: runs.Detail{Run: runs.Run{ID: "2", Resumes: "1"}}})
	if cmd != (ReadDetail{ID: "1"}) {
		t.Fatalf("the asking run is not read: %#v", cmd)
	}
	m, _ = Update(m, GotDetail{ID: "1", Detail: asked})
	if m.Shown.Asked == nil || m.Shown.Asked.Questions[0].Reason != "confirmation" {
		t.Errorf("asked %+v", m.Shown.Asked)
	}
}

func TestStatusSaysWhatHappened(t *testing.T) {
	m := shown(t, 1)
	for _, c := range []struct {
		msg  Msg
		want string
	}{
		{Copied{What: AsScript, ID: "1"}, "Copied run 1's script."},
		{Copied{What: AsCommand, ID: "1", Err: errors.New("denied")}, "Could not copy run 1's check command: denied"},
		{Opened{Name: "a.sse"}, "Opened a.sse: its runs are at the top of the list."},
		{Opened{Name: "b", Said: []string{"b: skipped: not a script or a capture"}}, "Opened b. The inspector said: b: skipped: not a script or a capture"},
		{Opened{Name: "c", Err: errors.New("413")}, "Could not open c: 413"},
		{GotRuns{Err: errors.New("offline")}, "The list of runs could not be read: offline"},
	} {
		if got, _ := Update(m, c.msg); got.Status != c.want {
			t.Errorf("%#v: %q, want %q", c.msg, got.Status, c.want)
		}
	}
	got, cmd := Update(m, ChoseFiles{Files: []File{{Name: "a.sse"}, {Name: "b.json"}}})
	if open, ok := cmd.(OpenFiles); got.Status != "Opening a.sse, b.json…" || !ok || len(open.Files) != 2 || open.Files[0].Name != "a.sse" {
		t.Errorf("opening: %q %#v", got.Status, cmd)
	}
	if _, cmd := Update(m, ChoseCopy{What: AsCapture}); cmd != (CopyRun{ID: "1", What: AsCapture}) {
		t.Errorf("copy: %#v", cmd)
	}
}

func TestThreadsGroupRunsNewestFirst(t *testing.T) {
	list := []runs.Run{
		{ID: "5", ThreadID: "b"}, {ID: "4", ThreadID: "a"}, {ID: "3"}, {ID: "2", ThreadID: "b"}, {ID: "1"},
	}
	var got [][]string
	for _, th := range Threads(list) {
		got = append(got, append([]string{th.ID + ":"}, ids(th.Runs)...))
	}
	want := [][]string{{"b:", "5", "2"}, {"a:", "4"}, {":", "3"}, {":", "1"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("threads %v, want %v", got, want)
	}
}

func TestVerdictsInWords(t *testing.T) {
	for _, c := range []struct {
		run  runs.Run
		want string
	}{
		{runs.Run{Status: runs.Running}, "running"},
		{runs.Run{Status: runs.OK}, "ok"},
		{runs.Run{Status: runs.Warned, Warnings: 2}, "ok, 2 warnings"},
		{runs.Run{Status: runs.Warned, Warnings: 1}, "ok, 1 warning"},
		{runs.Run{Status: runs.Failed, Rule: "after-finish"}, "failed: after-finish"},
		{runs.Run{Status: runs.Interrupted}, "interrupted: waits for an answer"},
		{runs.Run{Status: runs.Cancelled}, "cancelled by the client"},
		{runs.Run{Status: runs.Errored}, "errored: the agent reported an error"},
	} {
		if got := Verdict(c.run); got != c.want {
			t.Errorf("%s: %q, want %q", c.run.Status, got, c.want)
		}
	}
}

func TestTheWindowHoldsTheRowsInViewAndAMargin(t *testing.T) {
	for _, c := range []struct {
		top, height float64
		n           int
		first, last int
	}{
		{0, 320, 10000, 0, 20},            // 10 in view, 10 below
		{3200, 320, 10000, 90, 120},       // row 100 at the top
		{319968, 320, 10000, 9989, 10000}, // the end
		{0, 320, 5, 0, 5},
		{0, 0, 100, 0, 25}, // no height yet: 480 px
		{0, 320, 0, 0, 0},
		{99999999, 320, 50, 49, 50}, // scrolled past the rows there are: the last
	} {
		first, last := Window(c.top, c.height, 32, c.n)
		if first != c.first || last != c.last {
			t.Errorf("Window(%v, %v, 32, %d) = %d, %d; want %d, %d", c.top, c.height, c.n, first, last, c.first, c.last)
		}
	}
}

func TestTheURLKeepsTheSelection(t *testing.T) {
	for _, c := range []struct {
		id     string
		cursor int
	}{{"3", -1}, {"12", 0}, {"a&b", 7}} {
		if id, cursor := readPlace(placeHash(c.id, c.cursor)); id != c.id || cursor != c.cursor {
			t.Errorf("%q %d: back as %q %d", c.id, c.cursor, id, cursor)
		}
	}
	if id, cursor := readPlace("#run=2&event=x"); id != "2" || cursor != -1 {
		t.Errorf("a bad event: %q %d", id, cursor)
	}
}
