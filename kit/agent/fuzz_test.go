package agent

import (
	"errors"
	"testing"

	"github.com/agent-analysis/agent-analysis/agui"
	"github.com/agent-analysis/agent-analysis/kit/script"
)

// FuzzNewInput completes arbitrary bytes as a run input: it never
// panics; what it accepts the engine reads back as a RunAgentInput with
// every member real agents require; what it refuses says why (a JSON
// error with its line and column).
func FuzzNewInput(f *testing.F) {
	for _, seed := range []string{
		`{}`,
		`{"threadId":"t","messages":[{"id":"m","role":"user","content":"hi"}],"forwardedProps":{"a":1}}`,
		"\ufeff{\"ThreadId\":1,\"state\":null}",
		`{"tools":[],"tools":{}}`,
		`[]`,
	} {
		f.Add([]byte(seed), "", "")
	}
	f.Add([]byte(`{"forwardedProps":{"scenario":"x"}}`), "thread-1", "x")
	f.Fuzz(func(t *testing.T, data []byte, thread, scenario string) {
		in, _, err := NewInput(data, Inputs{ThreadID: thread, Scenario: scenario})
		if err != nil {
			var se *script.Error
			var ie *agui.InputError
			if !errors.As(err, &se) && !errors.As(err, &ie) && err.Error() == "" {
				t.Fatalf("a refusal that says nothing: %v", err)
			}
			return
		}
		body, _, err := in.Request("")
		if err != nil {
			t.Fatalf("an accepted input cannot be sent: %v", err)
		}
		back, _, err := agui.ReadInput(body)
		if err != nil {
			t.Fatalf("the engine refuses what was accepted: %v\n%s", err, body)
		}
		if back.ThreadID == "" && thread == "" || (thread != "" && back.ThreadID != thread) || back.RunID == "" {
			t.Fatalf("ids %q %q from %s", back.ThreadID, back.RunID, body)
		}
	})
}

// FuzzReadAnswers reads arbitrary bytes as a resume list: it never
// panics; every entry it accepts has an id and a status of the two, and
// is one the engine writes back (EntryJSON) as valid JSON.
func FuzzReadAnswers(f *testing.F) {
	for _, seed := range []string{
		`[{"interruptId":"a","status":"resolved","payload":{"approved":true},"metadata":{"k":null}}]`,
		`[{"interruptId":"a","status":"cancelled"}]`,
		`[{"interruptId":"a","Status":"cancelled"}]`,
		`[{"interruptId":"a","status":"resolved","status":"cancelled"}]`,
		"\n[\n{\"interruptId\":",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		answers, err := ReadAnswers(data)
		if err != nil {
			var se *script.Error
			if !errors.As(err, &se) {
				t.Fatalf("a refusal that is no *script.Error: %v", err)
			}
			return
		}
		for _, a := range answers {
			if a.Status != agui.Resolved && a.Status != agui.Abandoned {
				t.Fatalf("status %q", a.Status)
			}
			if _, _, err := NewInput([]byte(`{"resume":[`+string(EntryJSON(a))+`]}`), Inputs{}); err != nil {
				var ie *agui.InputError
				if !errors.As(err, &ie) {
					t.Fatalf("an entry written back is not JSON: %v: %s", err, EntryJSON(a))
				}
			}
		}
	})
}
