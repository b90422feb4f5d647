package page

import "testing"

// The sample run the page draws as it starts must reach every part of the
// run's view, or the first real run pays for the parts it missed.
func TestTheRehearsalDrawsEveryPartOfARun(t *testing.T) {
	stages := rehearsal()
	// Drawn in turn, the stages mount the run's views and then update
	// them: the first has read nothing of the run, the last all of it.
	if first := stages[0]; first.ID == "" || first.Detail != nil || len(first.Events) != 0 || first.At != nil {
		t.Errorf("the first stage has read the run: detail %v, %d events, at %v", first.Detail != nil, len(first.Events), first.At != nil)
	}
	s := stages[len(stages)-1]
	if s.Detail == nil || s.Asked == nil || s.At == nil {
		t.Fatalf("read: detail %v, asked %v, at %v", s.Detail != nil, s.Asked != nil, s.At != nil)
	}
	if s.ReadingAt() || s.Cursor != s.At.Index || s.Last() != s.Detail.Events-1 {
		t.Errorf("cursor %d, state at %d, reading %v; %d of %d events", s.Cursor, s.At.Index, s.ReadingAt(), s.Last()+1, s.Detail.Events)
	}
	var warned, broke bool
	for _, e := range s.Events {
		for _, m := range e.Marks {
			warned, broke = warned || !m.Fatal, broke || m.Fatal
		}
	}
	if !warned || !broke || len(s.Detail.Failures) == 0 {
		t.Errorf("marks: a warning %v, a broken rule %v, failures %d", warned, broke, len(s.Detail.Failures))
	}
	if len(s.At.Changed) == 0 {
		t.Error("the state shown changed nothing: no highlight is drawn")
	}
	if len(s.Asked.Questions) == 0 || len(s.Detail.Replies) == 0 || s.Detail.Input == "" {
		t.Errorf("questions %d, replies %d, input %q", len(s.Asked.Questions), len(s.Detail.Replies), s.Detail.Input)
	}
	said, err := Conversation(s.At.Messages)
	if err != nil {
		t.Fatal(err)
	}
	roles := map[string]bool{}
	var answered bool
	for _, m := range said {
		roles[m.Role] = true
		for _, c := range m.Calls {
			answered = answered || c.Answered
		}
	}
	if !roles["user"] || !roles["reasoning"] || !roles["assistant"] || !answered {
		t.Errorf("conversation: roles %v, a tool call with its result %v", roles, answered)
	}
}
