package inspect_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/agent-analysis/agent-analysis/agui"
	"github.com/agent-analysis/agent-analysis/kit/inspect"
	"github.com/agent-analysis/agent-analysis/kit/proxy"
	"github.com/agent-analysis/agent-analysis/kit/script"
)

// A run's input counts against the store's bound: inputs of 15 MiB each
// do not pile up past it.
func TestAnInputCountsAgainstTheBound(t *testing.T) {
	const most = 4 << 20
	s := inspect.NewStore(0)
	s.SetMostBytes(most)
	input := `{"threadId":"t","runId":"r","messages":[{"id":"m","role":"user","content":"` + strings.Repeat("x", 1<<20) + `"}]}`
	for range most/len(input) + 3 {
		w := s.Begin(proxy.Begin{Method: "POST", Path: "/", Input: []byte(input), ThreadID: "t", RunID: "r", Started: time.Now()})
		w.End(proxy.Run{})
	}
	held := 0
	for _, r := range s.Runs() {
		d, _ := s.Detail(r.ID)
		held += len(d.Input)
	}
	if held > most {
		t.Errorf("the store holds %d MiB of inputs, past its %d MiB", held>>20, most>>20)
	}
}

// An event is not free for being empty: a stream of empty comments is cut
// short of the run's bound as a stream of big events is.
func TestAnEmptyCommentCountsAgainstTheBound(t *testing.T) {
	s := inspect.NewStore(0)
	w := s.Begin(proxy.Begin{Method: "POST", Path: "/", ThreadID: "t", RunID: "r", Started: time.Now()})
	for range inspect.MaxRunBytes / 64 {
		w.Frame(0, script.Frame{}, agui.Judgement{})
	}
	d, _ := s.Detail(s.Runs()[0].ID)
	if !d.Truncated {
		t.Errorf("%d empty comments kept whole, as if they held nothing", inspect.MaxRunBytes/64)
	}
}

// The live feed tells of an event without its bytes, which the page reads
// from the store: a page slow to read its feed holds no copy of them.
func TestTheLiveFeedHoldsNoEventsBytes(t *testing.T) {
	s := inspect.NewStore(0)
	sub := s.Subscribe()
	defer s.Unsubscribe(sub)
	w := s.Begin(proxy.Begin{Method: "POST", Path: "/", ThreadID: "t", RunID: "r", Started: time.Now()})
	w.Frame(0, script.Frame{Event: []byte(`{"type":"RUN_STARTED","threadId":"t","runId":"r"}`)}, agui.Judgement{})
	w.Frame(0, script.Frame{Comment: "keep-alive"}, agui.Judgement{})
	events := 0
	for len(sub.C) > 0 {
		u := <-sub.C
		if u.Kind != "event" {
			continue
		}
		events++
		if u.Event.JSON != "" || u.Event.Comment != "" {
			t.Errorf("the feed holds an event's bytes: %+v", u.Event)
		}
	}
	if events != 2 {
		t.Errorf("%d event updates, want 2", events)
	}
}

// A file whose continuations would hold more than the store keeps is
// kept as far as it fits, and the rest is said: its runs are not let go
// for its own later ones.
func TestAFileOfContinuationsPastTheBound(t *testing.T) {
	const stateBytes, conts = 300 << 10, 40 // each continuation's input holds the state
	ev := func(v any) map[string]any { return map[string]any{"event": v} }
	var list []any
	for i := range conts {
		list = append(list, map[string]any{"name": fmt.Sprint("c", i),
			"when": []any{map[string]any{"interruptId": "i1", "status": "cancelled"}},
			"stream": []any{
				ev(map[string]any{"type": "RUN_STARTED", "threadId": "t", "runId": fmt.Sprint("r", i+2)}),
				ev(map[string]any{"type": "RUN_FINISHED", "threadId": "t", "runId": fmt.Sprint("r", i+2)}),
			}})
	}
	data, _ := json.Marshal(map[string]any{
		"name":  "amp",
		"input": map[string]any{"threadId": "t", "runId": "r1"},
		"stream": []any{
			ev(map[string]any{"type": "RUN_STARTED", "threadId": "t", "runId": "r1"}),
			ev(map[string]any{"type": "STATE_SNAPSHOT", "snapshot": map[string]any{"blob": strings.Repeat("y", stateBytes)}}),
			ev(map[string]any{"type": "RUN_FINISHED", "threadId": "t", "runId": "r1",
				"outcome": map[string]any{"type": "interrupt", "interrupts": []any{map[string]any{"id": "i1", "reason": "confirmation"}}}}),
		},
		"continuations": list,
	})
	s := inspect.NewStore(0)
	s.SetMostBytes(4 << 20)
	said := s.LoadData("amp.json", data)
	kept := s.Runs()
	if len(said) != 1 || !strings.Contains(said[0], "not kept") || len(kept) >= 1+conts {
		t.Fatalf("said %q, %d runs kept of %d", said, len(kept), 1+conts)
	}
	if first := kept[len(kept)-1]; first.Name != "thread t run r1" {
		t.Errorf("the file's first run was let go: the oldest kept is %q", first.Name)
	}
}
