package script

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestParseReadsEveryShape(t *testing.T) {
	array := `[
  {"type":"RUN_STARTED","threadId":"t","runId":"r"},
  {"type": "RUN_FINISHED", "threadId": "t", "runId": "r"}
]`
	lines := `{"type":"RUN_STARTED","threadId":"t","runId":"r"}

{"afterMs":250,"comment":"keep-alive"}
{"afterMs":1.5,"event":{"type":"RUN_FINISHED","threadId":"t","runId":"r"}}
`
	corpus := `{
  "name": "a-fixture",
  "description": "what it proves",
  "specPage": "/spec/1.0/events/lifecycle",
  "client": {"maxProtocolVersion": "0.0.57"},
  "input": {"messages": []},
  "stream": [
    {"type":"RUN_STARTED","threadId":"t","runId":"r"},
    {"afterMs": 2000, "event": {"type":"RUN_FINISHED","threadId":"t","runId":"r"}}
  ],
  "expect": {"outcome": "completed"}
}`
	tests := []struct {
		name, data, want string
		lines            []int
		after            time.Duration
	}{
		{"array", array, "file", []int{2, 3}, 0},
		{"lines", lines, "file", []int{1, 3, 4}, 1500 * time.Microsecond},
		{"corpus", corpus, "a-fixture", []int{8, 9}, 2 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Parse([]byte(tt.data), "file")
			if err != nil {
				t.Fatal(err)
			}
			if s.Name != tt.want || len(s.Frames) != len(tt.lines) {
				t.Fatalf("%s with %d frames", s.Name, len(s.Frames))
			}
			for i, st := range s.Frames {
				if st.Line != tt.lines[i] {
					t.Errorf("frame %d on line %d, want %d", i, st.Line, tt.lines[i])
				}
			}
			if last := s.Frames[len(s.Frames)-1]; last.After != tt.after || string(last.Event) != `{"type":"RUN_FINISHED","threadId":"t","runId":"r"}` {
				t.Errorf("last frame %+v", last)
			}
			if len(s.Events()) != 2 {
				t.Errorf("%d events", len(s.Events()))
			}
		})
	}
	s, _ := Parse([]byte(corpus), "file")
	if s.Peer != "0.0.57" || string(s.Expect) != `{"outcome": "completed"}` || string(s.Input) != `{"messages": []}` || s.Extra["specPage"] == nil {
		t.Errorf("corpus fields %+v", s)
	}
	if s, _ := Parse([]byte(lines), "x"); s.Frames[1].Comment != "keep-alive" || s.Frames[1].After != 250*time.Millisecond {
		t.Errorf("comment frame %+v", s.Frames[1])
	}
}

func TestParseRefusesBadScriptsWithTheirLine(t *testing.T) {
	tests := []struct {
		data string
		line int
		says string
	}{
		{"", 0, "empty"},
		{"  \n ", 0, "empty"},
		{`"RUN_STARTED"`, 1, "a script is a JSON array"},
		{"[\n{\"type\":\"A\"},\n{\"type\":\n]", 4, "invalid JSON"},
		{"{\"type\":\"A\"}\n{\"type\":\"B\"\n", 2, "invalid JSON"},
		{"{\"type\":\"A\"}\n[1]\n", 2, "an event is a JSON object"},
		{`[{"type":"A"},{"afterMs":-5,"event":{"type":"B"}}]`, 1, "afterMs must be a number between"},
		{`[{"afterMs":"5","event":{"type":"B"}}]`, 1, "afterMs must be a number between"},
		{`[{"afterMs":1,"event":{"type":"B"},"comment":"c"}]`, 1, "an event or a comment"},
		{`[{"afterMs":1,"comment":"a\nb"}]`, 1, "a comment is one line"},
		{`[{"afterMs":1,"evnt":{"type":"B"}}]`, 1, `stream item 0: a frame has no member "evnt"`},
		{`[{"afterMs":1,"Event":{"type":"B"}}]`, 1, `a frame has no member "Event": names are case-sensitive ("event")`},
		{`[{"Event":{"type":"B"}}]`, 1, `a frame has no member "Event": names are case-sensitive ("event")`},
		{`[{"afterMs":1,"event":{"type":"B"},"event":{"type":"C"}}]`, 1, `a frame gives "event" twice`},
		{"{\"name\":\"x\",\n\"stream\":[{\"type\":\"A\"}],\"name\":\"y\"}", 2, `a script gives "name" twice (first at line 1, column 9)`},
		{`{"detail":"Not Found"}`, 1, `the file holds an HTTP error body, not a stream: {"detail":"Not Found"}`},
		{`{"type":"urn:agent-analysis:problem:unknown-scenario","title":"Unknown scenario","status":422}`, 1, `the file holds an HTTP error body, not a stream: {"type":"urn:agent-analysis:problem:unknown-scenario"`},
		{`{"Stream":[{"type":"A"}]}`, 1, `a script has no member "Stream": names are case-sensitive ("stream")`},
		{`{"name":"x"}`, 1, `neither a "stream" (a script) nor a "type" (an event)`},
		{`[]`, 0, "holds no event"},
		{"{\n\"name\":\" \",\"stream\":[{\"type\":\"A\"}]}", 2, "name must not be blank"},
		{`{"name":"x","stream":{"type":"A"}}`, 1, "stream is a JSON array, not an object"},
		{`{"name":"x","input":[1],"stream":[{"type":"A"}]}`, 1, "input must be an object"},
	}
	for _, tt := range tests {
		_, err := Parse([]byte(tt.data), "file")
		var se *Error
		if !errors.As(err, &se) || se.Line != tt.line || !strings.Contains(se.Reason, tt.says) {
			t.Errorf("%q: %v, want line %d saying %q", tt.data, err, tt.line, tt.says)
		}
	}
	if _, err := Parse([]byte("["+strings.Repeat(`{"type":"A"},`, MaxBytes/12)+`{"type":"A"}]`), "big"); err == nil || !strings.Contains(err.Error(), "over 16 MiB") {
		t.Errorf("a big file: %v", err)
	}
}

// An event is kept as written: a script may hold invalid AG-UI on purpose.
func TestEventsAreKeptAsWritten(t *testing.T) {
	s, err := Parse([]byte(`[{"type":"X","type":"Y","delta":42, "n": 1.50}]`), "x")
	if err != nil || string(s.Frames[0].Event) != `{"type":"X","type":"Y","delta":42,"n":1.50}` {
		t.Errorf("%s, %v", s.Frames[0].Event, err)
	}
}

// The requested run takes the request's ids, and its thread the request's
// thread, wherever a recording names them; another run or thread keeps its
// own, and application data is left as it is.
func TestForRequestReplacesTheRequestedRunsIDs(t *testing.T) {
	const stream = `[
  {"type":"RUN_STARTED","threadId":"thr","runId":"old"},
  {"type":"RUN_FINISHED","threadId":"thr","runId":"old"},
  {"type":"RUN_STARTED","runId":"req","threadId":"thr","input":{"threadId":"thr","runId":"req"}},
  {"type":"CUSTOM","name":"runId","value":{"runId":"req"}},
  {"type":"RUN_FINISHED","threadId":"other-thread","runId":"req"}
]`
	s, err := Parse([]byte(stream), "x")
	if err != nil {
		t.Fatal(err)
	}
	if th, r := s.Requested(); th != "thr" || r != "req" {
		t.Fatalf("requested %s %s", th, r)
	}
	got := s.ForRequest("t1", "r1")
	want := []string{
		`{"type":"RUN_STARTED","threadId":"t1","runId":"old"}`,
		`{"type":"RUN_FINISHED","threadId":"t1","runId":"old"}`,
		`{"type":"RUN_STARTED","runId":"r1","threadId":"t1","input":{"threadId":"t1","runId":"r1"}}`,
		`{"type":"CUSTOM","name":"runId","value":{"runId":"req"}}`,
		`{"type":"RUN_FINISHED","threadId":"other-thread","runId":"r1"}`,
	}
	for i, st := range got {
		if string(st.Event) != want[i] {
			t.Errorf("event %d: %s, want %s", i, st.Event, want[i])
		}
	}
	if string(s.Frames[2].Event) != `{"type":"RUN_STARTED","runId":"req","threadId":"thr","input":{"threadId":"thr","runId":"req"}}` {
		t.Errorf("the script changed: %s", s.Frames[2].Event)
	}
	// The input names the requested run when it says.
	s, _ = Parse([]byte(`{"input":{"threadId":"thr","runId":"old"},"stream":`+stream+`}`), "x")
	if got := s.ForRequest("t1", "r1"); string(got[0].Event) != `{"type":"RUN_STARTED","threadId":"t1","runId":"r1"}` ||
		string(got[2].Event) != `{"type":"RUN_STARTED","runId":"req","threadId":"t1","input":{"threadId":"t1","runId":"req"}}` {
		t.Errorf("%s / %s", got[0].Event, got[2].Event)
	}
	// Escaped ids are compared as the strings they are.
	s, _ = Parse([]byte(`[{"type":"RUN_STARTED","threadId":"th\u0072","runId":"a\"b"}]`), "x")
	if got := s.ForRequest("t", "r"); string(got[0].Event) != `{"type":"RUN_STARTED","threadId":"t","runId":"r"}` {
		t.Errorf("%s", got[0].Event)
	}
}

// A recording renames the requested run's ids in RUN_STARTED's input and
// in a child run's parentRunId too: the replay keeps those links, under
// the request's ids, and a thread id equal to the run's is no run id.
func TestForRequestKeepsTheLinksARecordingKept(t *testing.T) {
	s, err := Parse([]byte(`{"input":{"threadId":"thread-1","runId":"run-1","messages":[]},"stream":[
  {"type":"RUN_STARTED","threadId":"thread-1","runId":"run-1","input":{"threadId":"thread-1","runId":"run-1","parentRunId":"run-2","messages":[]}},
  {"type":"RUN_STARTED","threadId":"thread-1","runId":"run-3","parentRunId":"run-1"},
  {"type":"RUN_FINISHED","threadId":"thread-1","runId":"run-3"},
  {"type":"RUN_FINISHED","threadId":"thread-1","runId":"run-1"}
]}`), "x")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`{"type":"RUN_STARTED","threadId":"T","runId":"R","input":{"threadId":"T","runId":"R","parentRunId":"run-2","messages":[]}}`,
		`{"type":"RUN_STARTED","threadId":"T","runId":"run-3","parentRunId":"R"}`,
		`{"type":"RUN_FINISHED","threadId":"T","runId":"run-3"}`,
		`{"type":"RUN_FINISHED","threadId":"T","runId":"R"}`,
	}
	got := s.ForRequest("T", "R")
	for i, st := range got {
		if string(st.Event) != want[i] {
			t.Errorf("event %d: %s, want %s", i, st.Event, want[i])
		}
	}
	if th, r := got[1].RunIDs(); th != "T" || r != "run-3" {
		t.Errorf("the child run's ids read back as %s %s", th, r)
	}
	// One id for the thread and the run: each is replaced as what it is.
	s, _ = Parse([]byte(`{"input":{"threadId":"same","runId":"same"},"stream":[{"type":"RUN_STARTED","threadId":"same","runId":"same"}]}`), "x")
	if got := s.ForRequest("T", "R"); string(got[0].Event) != `{"type":"RUN_STARTED","threadId":"T","runId":"R"}` {
		t.Errorf("%s", got[0].Event)
	}
}

// The requested run is named by the input's threadId and runId, exactly as
// 1.0 spells them and both strings; otherwise by the last RUN_STARTED.
func TestRequestedReadsTheInputExactly(t *testing.T) {
	const started = `{"type":"RUN_STARTED","threadId":"t-events","runId":"r-events"}`
	for input, want := range map[string][2]string{
		`{"threadId":"t-in","runId":"r-in"}`:      {"t-in", "r-in"},
		`{"runId":"r\u002din","threadId":"t-in"}`: {"t-in", "r-in"},
		`{"ThreadId":"t-in","RunId":"r-in"}`:      {"t-events", "r-events"},
		`{"threadId":"t-in","runId":7}`:           {"t-events", "r-events"},
		`{"threadId":"t-in"}`:                     {"t-events", "r-events"},
		`[1]`:                                     {"t-events", "r-events"},
	} {
		s := Script{Input: []byte(input), Frames: mustSteps(t, started)}
		if th, r := s.Requested(); th != want[0] || r != want[1] {
			t.Errorf("input %s: requested %s %s, want %s %s", input, th, r, want[0], want[1])
		}
	}
}

func mustSteps(t *testing.T, events ...string) []Frame {
	t.Helper()
	s, err := Parse([]byte("["+strings.Join(events, ",")+"]"), "x")
	if err != nil {
		t.Fatal(err)
	}
	return s.Frames
}
