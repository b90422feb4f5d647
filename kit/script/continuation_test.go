package script

import (
	"errors"
	"strings"
	"testing"

	"github.com/agent-analysis/agent-analysis/agui"
)

// interrupted is a script whose run ends with two interrupts, and how it
// goes on; {{C}} is replaced by more continuations.
const interrupted = `{
  "name": "ask",
  "input": {"threadId": "T", "runId": "R", "messages": []},
  "stream": [
    {"type": "RUN_STARTED", "threadId": "T", "runId": "R"},
    {"type": "RUN_FINISHED", "threadId": "T", "runId": "R", "outcome": {"type": "interrupt", "interrupts": [
      {"id": "a", "reason": "confirmation", "toolCallId": "c1", "expiresAt": "2026-01-01T00:00:00Z", "responseSchema": {"type": "object"}},
      {"id": "b", "reason": "input"}
    ]}}
  ],
  "continuations": [
    {
      "name": "yes",
      "when": [{"interruptId": "a", "status": "resolved", "payload": {"ok": true, "n": 1}}],
      "outcome": {"status": "Completed"},
      "stream": [
        {"type": "RUN_STARTED", "threadId": "T", "runId": "R2"},
        {"afterMs": 5, "event": {"type": "RUN_FINISHED", "threadId": "T", "runId": "R2"}}
      ]
    }{{C}}
  ],
  "group": "x"
}`

func parseInterrupted(t *testing.T, more string) (Script, error) {
	t.Helper()
	return Parse([]byte(strings.Replace(interrupted, "{{C}}", more, 1)), "file")
}

func TestParseReadsContinuations(t *testing.T) {
	s, err := parseInterrupted(t, `, {"name": "any", "when": [{"interruptId": "b"}], "stream": [{"type": "RUN_STARTED", "threadId": "T", "runId": "R3"}]}`)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Continuations) != 2 || s.Extra["continuations"] != nil || s.Extra["group"] == nil {
		t.Fatalf("continuations %+v, extra %v", s.Continuations, s.Extra)
	}
	yes := s.Continuations[0]
	if yes.Name != "yes" || yes.Line != 12 || len(yes.When) != 1 || yes.When[0].Status != "resolved" ||
		string(yes.When[0].Payload) != `{"ok":true,"n":1}` || string(yes.Extra["outcome"]) != `{"status": "Completed"}` {
		t.Errorf("yes = %+v", yes)
	}
	if len(yes.Frames) != 2 || yes.Frames[0].Line != 17 || yes.Frames[1].Line != 18 || yes.Frames[1].Type != "RUN_FINISHED" {
		t.Errorf("frames %+v", yes.Frames)
	}
	if any := s.Continuations[1]; any.When[0].Status != "" || any.When[0].Payload != nil || any.Line != 20 {
		t.Errorf("any = %+v", any)
	}
	is := s.Interrupts()
	if len(is) != 2 || is[0].ID != "a" || is[0].ToolCallID != "c1" || is[0].ExpiresAt != "2026-01-01T00:00:00Z" ||
		string(is[0].ResponseSchema) != `{"type":"object"}` || is[1].ID != "b" || is[1].ResponseSchema != nil {
		t.Errorf("interrupts %+v", is)
	}
}

func TestParseRefusesBadContinuationsWithTheirLine(t *testing.T) {
	stream := `"stream": [{"type": "RUN_STARTED", "threadId": "T", "runId": "R3"}]`
	tests := []struct {
		more string
		line int
		says string
	}{
		{`, {"name": " ", "when": [{"interruptId": "a"}], ` + stream + `}`, 20, "name must not be blank"},
		{`, {"when": [{"interruptId": "a"}], ` + stream + `}`, 20, "name is missing"},
		{`, {"name": "yes", "when": [{"interruptId": "a"}], ` + stream + `}`, 20, `the name "yes" is taken`},
		{`, {"name": "n", "when": [], ` + stream + `}`, 20, "when must list at least one answer"},
		{`, {"name": "n", ` + stream + `}`, 20, "when is missing"},
		{`, {"name": "n", "when": [{"interruptId": ""}], ` + stream + `}`, 20, "interruptId must not be blank"},
		{`, {"name": "n", "when": [{"interrupt": "a"}], ` + stream + `}`, 20, `an answer has no member "interrupt"`},
		{`, {"name": "n", "when": [{"InterruptId": "a"}], ` + stream + `}`, 20, `an answer has no member "InterruptId": names are case-sensitive ("interruptId")`},
		{`, {"name": "n", "when": [{"interruptId": "a", "interruptId": "b"}], ` + stream + `}`, 20, `an answer gives "interruptId" twice (first at line 20, column 47)`},
		{`, {"name": "n", "name": "m", "when": [{"interruptId": "a"}], ` + stream + `}`, 20, `a continuation gives "name" twice`},
		{`, {"name": "n", "when": [{"interruptId": "a", "status": "done"}], ` + stream + `}`, 20, "status must be"},
		{`, {"name": "n", "when": [{"interruptId": "a", "payload": null}], ` + stream + `}`, 20, "payload must not be null"},
		{`, {"name": "n", "when": [{"interruptId": "z"}], ` + stream + `}`, 20, `raises no interrupt "z"`},
		// A resume answers an interrupt once: two entries for one could be
		// met by one answer, a resume the engine refuses.
		{`, {"name": "n", "when": [{"interruptId": "a", "status": "resolved"}, {"interruptId": "a", "payload": {"ok": true}}], ` + stream + `}`, 20,
			`continuation 1: "n": when 1: interrupt "a" is named twice (when 0 names it): a resume answers an interrupt once`},
		{`, {"name": "n", "when": [{"interruptId": "a"}], "stream": []}`, 20, "the stream holds no event"},
		{`, {"name": "n", "when": [{"interruptId": "a"}],
        "stream": [
          7
        ]}`, 22, `continuation 1: "n": stream item 0: an event is a JSON object`},
		{`, 7`, 20, "a continuation is a JSON object, not a number"},
	}
	for _, tt := range tests {
		_, err := parseInterrupted(t, tt.more)
		var se *Error
		if !errors.As(err, &se) || se.Line != tt.line || !strings.Contains(se.Reason, tt.says) {
			t.Errorf("%s: error %v; want line %d …%s…", tt.more, err, tt.line, tt.says)
		}
	}
	plain := `{"stream": [{"type": "RUN_STARTED", "threadId": "T", "runId": "R"}, {"type": "RUN_FINISHED", "threadId": "T", "runId": "R"}],
  "continuations": [{"name": "n", "when": [{"interruptId": "a"}], "stream": [{"type": "RUN_STARTED", "threadId": "T", "runId": "R2"}]}]}`
	if _, err := Parse([]byte(plain), "x"); err == nil || !strings.Contains(err.Error(), "line 2: continuations resume an interrupted run") {
		t.Errorf("continuations of a run not interrupted: %v", err)
	}
	at := `{"stream": [{"type": "RUN_STARTED", "threadId": "T", "runId": "R"},
  {"type": "RUN_FINISHED", "threadId": "T", "runId": "R", "outcome": {"type": "interrupt", "interrupts": [{"id": "a@x", "reason": "r"}]}}],
  "continuations": [{"name": "n", "when": [{"interruptId": "a@x"}], "stream": [{"type": "RUN_STARTED", "threadId": "T", "runId": "R2"}]}]}`
	if _, err := Parse([]byte(at), "x"); err == nil || !strings.Contains(err.Error(), `interrupt "a@x": a script that continues names its interrupts without "@"`) {
		t.Errorf("an interrupt id with @: %v", err)
	}
	if _, err := Parse([]byte(`{"stream": [{"type": "RUN_STARTED"}], "continuations": {}}`), "x"); err == nil || !strings.Contains(err.Error(), "line 1, column 56: continuations is a JSON array, not an object") {
		t.Errorf("continuations not a list: %v", err)
	}
}

func TestAContinuationMatchesItsAnswers(t *testing.T) {
	c := Continuation{When: []Match{
		{InterruptID: "a", Status: "resolved", Payload: []byte(`{"ok":true,"n":1,"list":[1,{"x":2}]}`)},
		{InterruptID: "b"},
	}}
	yes := func(payload string) []agui.Answer {
		return []agui.Answer{{InterruptID: "b", Status: agui.Abandoned}, {InterruptID: "a", Status: agui.Resolved, Payload: []byte(payload)}}
	}
	for payload, want := range map[string]bool{
		`{"ok":true,"n":1,"list":[1,{"x":2}]}`:                  true,
		`{"n":1.0,"ok":true,"list":[1e0,{"x":20e-1}],"more":3}`: true,  // numbers by value, other members free
		`{"ok":true,"n":1,"list":[1,{"x":2,"y":3}]}`:            false, // inside an array, exactly
		`{"ok":true,"n":1,"list":[1]}`:                          false,
		`{"ok":"true","n":1,"list":[1,{"x":2}]}`:                false,
		`{"ok":true,"n":2,"list":[1,{"x":2}]}`:                  false,
		`{"ok":true,"list":[1,{"x":2}]}`:                        false,
		`{"ok":true,"n":1e999999999,"list":[1,{"x":2}]}`:        false,
		`[]`:  false,
		`nul`: false,
	} {
		if got := c.Matches(yes(payload)); got != want {
			t.Errorf("payload %s: matches %t", payload, got)
		}
	}
	ok := yes(`{"ok":true,"n":1,"list":[1,{"x":2}]}`)
	if c.Matches(ok[1:]) || c.Matches(nil) {
		t.Error("matches without an answer to b")
	}
	if c.Matches([]agui.Answer{ok[0], {InterruptID: "a", Status: agui.Abandoned, Payload: ok[1].Payload}}) {
		t.Error("matches a cancelled answer")
	}
	if c.Matches([]agui.Answer{ok[0], {InterruptID: "a", Status: agui.Resolved}}) {
		t.Error("matches an answer without a payload")
	}
	for _, tt := range []struct {
		value, pattern string
		want           bool
	}{
		{`"a"`, `"a"`, true}, {`null`, `null`, true}, {`false`, `false`, true}, {`0`, `-0.0`, true},
		{`1`, `"1"`, false}, {`{}`, `[]`, false}, {`[{"a":1}]`, `[{}]`, false}, {`{"a":{"b":1,"c":2}}`, `{"a":{"b":1}}`, true},
	} {
		if got := Contains([]byte(tt.value), []byte(tt.pattern)); got != tt.want {
			t.Errorf("Contains(%s, %s) = %t", tt.value, tt.pattern, got)
		}
	}
}

// A request receives the interrupts bound to its thread, in the requested
// run's RUN_FINISHED alone; a continuation plays under the request's ids.
func TestInterruptsAreBoundToTheRequestsThread(t *testing.T) {
	s, err := parseInterrupted(t, "")
	if err != nil {
		t.Fatal(err)
	}
	frames := s.ForRequest("t1", "r1")
	want := `{"type":"RUN_FINISHED","threadId":"t1","runId":"r1","outcome":{"type":"interrupt","interrupts":[` +
		`{"id":"a@t1","reason":"confirmation","toolCallId":"c1","expiresAt":"2026-01-01T00:00:00Z","responseSchema":{"type":"object"}},{"id":"b@t1","reason":"input"}]}}`
	if got := string(frames[1].Event); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if th, run := frames[1].RunIDs(); th != "t1" || run != "r1" {
		t.Errorf("ids %s %s", th, run)
	}
	s.Continuations = nil
	if got := string(s.ForRequest("t1", "r1")[1].Event); !strings.Contains(got, `"id":"a",`) {
		t.Errorf("bound without continuations: %s", got)
	}
	s, _ = parseInterrupted(t, "")
	next := s.Continue(s.Continuations[0], "t1", "r2")
	if string(next[0].Event) != `{"type":"RUN_STARTED","threadId":"t1","runId":"r2"}` || string(next[1].Event) != `{"type":"RUN_FINISHED","threadId":"t1","runId":"r2"}` {
		t.Errorf("continuation %s %s", next[0].Event, next[1].Event)
	}
	for _, tt := range []struct {
		sent, id, other string
		ok              bool
	}{
		{"a@t1", "a", "", true}, {"b@t1", "b", "", true}, {"a@t2", "", "t2", false}, {"a@t1@t2", "", "t1@t2", false},
		{"a", "", "", false}, {"z@t1", "", "", false}, {"a@", "", "", false},
	} {
		id, other, ok := UnbindInterrupt(tt.sent, "t1", []string{"a", "b"})
		if id != tt.id || other != tt.other || ok != tt.ok {
			t.Errorf("UnbindInterrupt(%q) = %q, %q, %t", tt.sent, id, other, ok)
		}
	}
}

func TestEncodeWritesContinuations(t *testing.T) {
	s, err := parseInterrupted(t, `, {"name": "any", "when": [{"interruptId": "b"}], "stream": [{"type": "RUN_STARTED", "threadId": "T", "runId": "R3"}, {"comment": "x"}]}`)
	if err != nil {
		t.Fatal(err)
	}
	data, err := s.Encode()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse(data, "x")
	if err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	if len(back.Continuations) != 2 {
		t.Fatalf("%d continuations:\n%s", len(back.Continuations), data)
	}
	for i, c := range s.Continuations {
		b := back.Continuations[i]
		bw, cw := b.When[0], c.When[0]
		if b.Name != c.Name || len(b.When) != len(c.When) || bw.InterruptID != cw.InterruptID || bw.Status != cw.Status || string(bw.Payload) != string(cw.Payload) ||
			len(b.Frames) != len(c.Frames) || len(b.Extra) != len(c.Extra) {
			t.Errorf("continuation %d: %+v, want %+v", i, b, c)
		}
		for j, st := range c.Frames {
			if string(b.Frames[j].Event) != string(st.Event) || b.Frames[j].After != st.After || b.Frames[j].Comment != st.Comment {
				t.Errorf("continuation %d frame %d: %+v", i, j, b.Frames[j])
			}
		}
	}
	if !strings.Contains(string(data), `"payload": {`) || strings.Contains(string(data), `"payload": null`) || strings.Contains(string(data), `"status": ""`) {
		t.Errorf("when written as\n%s", data)
	}
}
