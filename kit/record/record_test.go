package record

import (
	"strings"
	"testing"
	"time"

	"github.com/agent-analysis/agent-analysis/kit/agent"
	"github.com/agent-analysis/agent-analysis/kit/script"
)

func exchange(frames ...script.Frame) agent.Exchange {
	ex := agent.Exchange{Sent: []byte(`{"threadId":"T","runId":"R","messages":[]}`), Frames: frames}
	for _, f := range frames {
		if f.Event != nil {
			ex.Transport.Events++
		}
	}
	return ex
}

// A script holds events as compact objects, delays to the millisecond.
func TestScriptOfAnExchange(t *testing.T) {
	s, err := Script(exchange(
		script.Frame{After: 1400 * time.Microsecond, Event: []byte(`{ "type": "RUN_STARTED", "threadId": "T", "runId": "R" }`)},
		script.Frame{After: 250600 * time.Microsecond, Comment: "keep-alive"},
		script.Frame{After: 2 * time.Millisecond, Event: []byte("{\"type\":\"RUN_FINISHED\",\n\"threadId\":\"T\",\"runId\":\"R\"}")},
	), "http://user:s3cret@agent.test/run?key=s3cret")
	if err != nil {
		t.Fatal(err)
	}
	if string(s.Input) != `{"threadId":"thread-1","runId":"run-1","messages":[]}` || s.Description != "Recorded from http://agent.test/run." || !s.RecordedAt.IsZero() {
		t.Errorf("%s %q %v", s.Input, s.Description, s.RecordedAt)
	}
	// When it was sent, if the exchange says: to the millisecond, in UTC.
	ex := exchange(script.Frame{Event: []byte(`{"type":"RUN_STARTED","threadId":"T","runId":"R"}`)})
	ex.Transport.Sent = time.Date(2026, 12, 7, 23, 0, 0, 1_999_999, time.FixedZone("CET", 3600))
	if s, err := Script(ex, "http://agent.test/run"); err != nil || s.RecordedAt != time.Date(2026, 12, 7, 22, 0, 0, 1_000_000, time.UTC) {
		t.Errorf("recordedAt %v: %v", s.RecordedAt, err)
	}
	want := []struct {
		after time.Duration
		event string
	}{
		{time.Millisecond, `{"type":"RUN_STARTED","threadId":"thread-1","runId":"run-1"}`},
		{251 * time.Millisecond, ""},
		{2 * time.Millisecond, `{"type":"RUN_FINISHED","threadId":"thread-1","runId":"run-1"}`},
	}
	for i, w := range want {
		if st := s.Frames[i]; st.After != w.after || string(st.Event) != w.event {
			t.Errorf("step %d: %v %s, want %v %s", i, st.After, st.Event, w.after, w.event)
		}
	}
}

func TestScriptRefusesWhatAScriptCannotHold(t *testing.T) {
	if _, err := Script(exchange(script.Frame{Comment: "only a comment"}), "u"); err == nil || err.Error() != "the agent sent no event" {
		t.Errorf("no event: %v", err)
	}
	_, err := Script(exchange(script.Frame{Event: []byte(`{"type":"RUN_STARTED"}`)}, script.Frame{Event: []byte("[1, 2]")}), "u")
	if err == nil || err.Error() != `event 1: "[1, 2]" is not a JSON object, and a script holds events as objects` {
		t.Errorf("an array: %v", err)
	}
	_, err = Script(exchange(script.Frame{Event: []byte("not json " + strings.Repeat("x", 100))}), "u")
	if err == nil || !strings.HasPrefix(err.Error(), `event 0: "not json xxx`) || !strings.Contains(err.Error(), `…" is not a JSON object`) {
		t.Errorf("not JSON: %v", err)
	}
}

// The requested run is run-1 of thread-1 whatever the input's member
// order, and an id used for a thread and a run is two placeholders.
func TestTheRequestedRunIsRunOneOfThreadOne(t *testing.T) {
	ex := exchange(script.Frame{Event: []byte(`{"type":"RUN_STARTED","threadId":"T","runId":"R","parentRunId":"P"}`)})
	ex.Sent = []byte(`{"parentRunId":"P","threadId":"T","runId":"R","messages":[]}`)
	s, err := Script(ex, "u")
	if err != nil {
		t.Fatal(err)
	}
	if string(s.Input) != `{"parentRunId":"run-2","threadId":"thread-1","runId":"run-1","messages":[]}` ||
		string(s.Frames[0].Event) != `{"type":"RUN_STARTED","threadId":"thread-1","runId":"run-1","parentRunId":"run-2"}` {
		t.Errorf("parentRunId first: %s / %s", s.Input, s.Frames[0].Event)
	}

	ex = exchange(script.Frame{Event: []byte(`{"type":"RUN_STARTED","threadId":"same","runId":"same"}`)})
	ex.Sent = []byte(`{"threadId":"same","runId":"same","messages":[]}`)
	if s, err = Script(ex, "u"); err != nil {
		t.Fatal(err)
	}
	if string(s.Input) != `{"threadId":"thread-1","runId":"run-1","messages":[]}` ||
		string(s.Frames[0].Event) != `{"type":"RUN_STARTED","threadId":"thread-1","runId":"run-1"}` {
		t.Errorf("one id for thread and run: %s / %s", s.Input, s.Frames[0].Event)
	}
}

// An id that is not UTF-8 is still an id: the stream is recorded, its
// relations kept, each such id its own placeholder.
func TestAnIDThatIsNotUTF8IsRecorded(t *testing.T) {
	s, err := Script(exchange(
		script.Frame{Event: []byte("{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"a\xff\"}")},
		script.Frame{Event: []byte("{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"a\xfe\"}")},
		script.Frame{Event: []byte("{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"a\xff\"}")},
	), "u")
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"msg-1", "msg-2", "msg-1"} {
		if got := string(s.Frames[i].Event); !strings.Contains(got, `"messageId":"`+want+`"`) {
			t.Errorf("event %d: %s, want %s", i, got, want)
		}
	}
}

// A replay renames what the recording renamed: the requested run's ids
// in RUN_STARTED's input and in a child run's parentRunId become the
// request's, so every link holds.
func TestARecordingReplaysWithItsLinks(t *testing.T) {
	s, err := Script(exchange(
		script.Frame{Event: []byte(`{"type":"RUN_STARTED","threadId":"T","runId":"R","input":{"threadId":"T","runId":"R","messages":[]}}`)},
		script.Frame{Event: []byte(`{"type":"RUN_STARTED","threadId":"T","runId":"C","parentRunId":"R"}`)},
		script.Frame{Event: []byte(`{"type":"RUN_FINISHED","threadId":"T","runId":"C"}`)},
		script.Frame{Event: []byte(`{"type":"RUN_FINISHED","threadId":"T","runId":"R"}`)},
	), "u")
	if err != nil {
		t.Fatal(err)
	}
	data, err := s.Encode()
	if err != nil {
		t.Fatal(err)
	}
	back, err := script.Parse(data, "x")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`{"type":"RUN_STARTED","threadId":"t9","runId":"r9","input":{"threadId":"t9","runId":"r9","messages":[]}}`,
		`{"type":"RUN_STARTED","threadId":"t9","runId":"run-2","parentRunId":"r9"}`,
		`{"type":"RUN_FINISHED","threadId":"t9","runId":"run-2"}`,
		`{"type":"RUN_FINISHED","threadId":"t9","runId":"r9"}`,
	}
	for i, st := range back.ForRequest("t9", "r9") {
		if string(st.Event) != want[i] {
			t.Errorf("event %d: %s, want %s", i, st.Event, want[i])
		}
	}
}
