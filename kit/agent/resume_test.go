package agent

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/agent-analysis/agent-analysis/agui"
	"github.com/agent-analysis/agent-analysis/server/servertest"
)

// interrupting is an agent whose first run proposes a call and asks two
// things, one an approval of the call; a resume is answered by then.
func interrupting(t *testing.T, expiresAt string, then func(w http.ResponseWriter, in map[string]json.RawMessage)) (url string, bodies func() []string) {
	var mu sync.Mutex
	var seen []string
	url = servertest.Upstream(t, func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		seen = append(seen, string(body))
		mu.Unlock()
		var in map[string]json.RawMessage
		json.Unmarshal(body, &in)
		if in["resume"] != nil {
			then(w, in)
			return
		}
		var thread, run string
		json.Unmarshal(in["threadId"], &thread)
		json.Unmarshal(in["runId"], &run)
		w.Header().Set("Content-Type", "text/event-stream")
		for _, ev := range []string{
			`{"type":"RUN_STARTED","threadId":"` + thread + `","runId":"` + run + `"}`,
			`{"type":"STATE_SNAPSHOT","snapshot":{"n":1}}`,
			`{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}`,
			`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"Roll back?"}`,
			`{"type":"TEXT_MESSAGE_END","messageId":"m1"}`,
			`{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"rollback","parentMessageId":"m1"}`,
			`{"type":"TOOL_CALL_END","toolCallId":"c1"}`,
			`{"type":"RUN_FINISHED","threadId":"` + thread + `","runId":"` + run + `","outcome":{"type":"interrupt","interrupts":[` +
				`{"id":"i1@` + thread + `","reason":"confirmation","toolCallId":"c1","responseSchema":{"type":"object","properties":{"approved":{"type":"boolean"}}}},` +
				`{"id":"i2","reason":"input","expiresAt":"` + expiresAt + `"}]}}`,
		} {
			fmt.Fprintf(w, "data: %s\n\n", ev)
		}
	})
	return url, func() []string { mu.Lock(); defer mu.Unlock(); return append([]string(nil), seen...) }
}

// answering ends a resumed run with events between its start and finish.
func answering(events ...string) func(w http.ResponseWriter, in map[string]json.RawMessage) {
	return func(w http.ResponseWriter, in map[string]json.RawMessage) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, "data: {\"type\":\"RUN_STARTED\",\"threadId\":%s,\"runId\":%s}\n\n", in["threadId"], in["runId"])
		for _, ev := range events {
			fmt.Fprintf(w, "data: %s\n\n", ev)
		}
		fmt.Fprintf(w, "data: {\"type\":\"RUN_FINISHED\",\"threadId\":%s,\"runId\":%s}\n\n", in["threadId"], in["runId"])
	}
}

const result = `{"type":"TOOL_CALL_RESULT","messageId":"m2","toolCallId":"c1","content":"done"}`

func TestAnInterruptedRunIsResumed(t *testing.T) {
	url, bodies := interrupting(t, "", answering(result))
	in := demo(t, "approval")
	first := Run(t.Context(), Request{URL: url, Input: in})
	if first.Interrupted == nil || len(first.Interrupted.Interrupts) != 2 || len(first.Failures) != 0 || first.Violation != nil {
		t.Fatalf("%+v", first)
	}
	answer, err := ParseAnswer("approve")
	if err != nil {
		t.Fatal(err)
	}
	resumed := Resume(t.Context(), Request{URL: url}, first, answer)
	ex := resumed.Exchange
	if resumed.Refused != nil || len(ex.Failures) != 0 || ex.Violation != nil || ex.Truncated != "" || len(ex.Warnings) != 0 || ex.Interrupted != nil {
		t.Fatalf("%+v", resumed)
	}
	sent := bodies()
	if len(sent) != 2 {
		t.Fatalf("%d requests", len(sent))
	}
	var got struct {
		ThreadID, RunID string
		State           json.RawMessage
		Messages        []struct{ ID, Role string }
		Resume          json.RawMessage
	}
	json.Unmarshal([]byte(sent[1]), &got)
	if got.ThreadID != in.ThreadID || got.RunID == in.RunID || !strings.HasPrefix(got.RunID, "run-") || string(got.State) != `{"n":1}` ||
		len(got.Messages) != 1 || got.Messages[0].ID != "m1" ||
		string(got.Resume) != `[{"interruptId":"i1@`+in.ThreadID+`","status":"resolved","payload":{"approved":true}},{"interruptId":"i2","status":"cancelled"}]` {
		t.Errorf("the resume sent:\n%s", sent[1])
	}
	if string(ex.Sent) != sent[1] {
		t.Errorf("Sent %s", ex.Sent)
	}
}

// The resumed run is judged as continuing the first: leaving an approved
// call unanswered is warned of; a rejected one owes no result.
func TestAResumedRunThatLeavesTheCallUnansweredIsWarned(t *testing.T) {
	url, _ := interrupting(t, "", answering())
	for how, warns := range map[string]bool{"approve": true, "reject": false, "cancel": false} {
		first := Run(t.Context(), Request{URL: url, Input: demo(t, "approval")})
		answer, _ := ParseAnswer(how)
		ex := Resume(t.Context(), Request{URL: url}, first, answer).Exchange
		if warned := len(ex.Warnings) == 1 && ex.Warnings[0].Rule == agui.ResumeUnanswered && strings.Contains(ex.Warnings[0].Text, `"c1"`); warned != warns || len(ex.Warnings) > 1 {
			t.Errorf("%s: warnings %+v", how, ex.Warnings)
		}
	}
}

// A list the engine refuses is never sent.
func TestARefusedResumeIsNotSent(t *testing.T) {
	url, bodies := interrupting(t, "2001-01-01T00:00:00Z", answering(result))
	first := Run(t.Context(), Request{URL: url, Input: demo(t, "approval")})
	dir := t.TempDir()
	file := filepath.Join(dir, "late.json")
	os.WriteFile(file, []byte(`[{"interruptId":"i2","status":"resolved","payload":"late"}]`), 0o644)
	for _, tt := range []struct{ answer, field string }{{file, "resume/0/status"}, {"approve", ""}} {
		answer, err := ParseAnswer(tt.answer)
		if err != nil {
			t.Fatal(err)
		}
		r := Resume(t.Context(), Request{URL: url}, first, answer)
		var re *agui.ResumeError
		switch {
		case tt.field != "" && (!errors.As(r.Refused, &re) || re.Field != tt.field):
			t.Errorf("%s: refused %v, want %s", tt.answer, r.Refused, tt.field)
		case tt.field == "" && r.Refused != nil:
			t.Errorf("%s: refused %v", tt.answer, r.Refused) // the expired one is cancelled, not approved
		}
	}
	if n := len(bodies()); n != 2 {
		t.Errorf("%d requests, want the first and the approval", n)
	}
	notInterrupted := Resume(t.Context(), Request{URL: url}, Exchange{}, Answer{how: "cancel"})
	if notInterrupted.Refused == nil || !strings.Contains(notInterrupted.Refused.Error(), "did not end interrupted") {
		t.Errorf("%v", notInterrupted.Refused)
	}
}

func TestAnswersAreReadExactly(t *testing.T) {
	a, err := ReadAnswers([]byte(`[{"interruptId":"x","status":"resolved","payload": {"a": 1.50},"metadata":{"by":"me"}}, {"interruptId":"y","status":"cancelled"}]`))
	if err != nil || len(a) != 2 || string(a[0].Payload) != `{"a":1.50}` || string(a[0].Metadata) != `{"by":"me"}` || a[1].Status != agui.Abandoned {
		t.Fatalf("%+v %v", a, err)
	}
	if got := string(EntryJSON(a[0])); got != `{"interruptId":"x","status":"resolved","payload":{"a":1.50},"metadata":{"by":"me"}}` {
		t.Errorf("%s", got)
	}
	for data, says := range map[string]string{
		`{}`:                                  "a JSON array",
		`null`:                                "not null",
		`[{"interruptId":"x"}]`:               "entry 0: status is required",
		`[{"status":"resolved"}]`:             "entry 0: interruptId is required",
		`[{"interruptId":"x","status":"ok"}]`: `entry 0: status is "ok"`,
		`[{"interruptId":"x","status":"resolved","payloads":1}]`:         `entry 0: a resume entry has no member "payloads"`,
		`[{"interruptId":"x","Status":"resolved"}]`:                      `no member "Status": names are case-sensitive ("status")`,
		`[{"interruptId":"x","status":"resolved","status":"cancelled"}]`: `a resume entry gives "status" twice`,
		`[{"interruptId":"x","status":"cancelled","metadata":[]}]`:       "metadata must be an object",
		`[{"interruptId":"x","status":"resolved","payload":null}]`:       "payload must not be null",
		"[\n{\"interruptId\":\"x\",\n\"status\": }]":                     "line 3",
		// A file may hold what no request may carry.
		"[{\"interruptId\":\"x\",\"status\":\"resolved\",\"payload\":{\"\xa8\":null}}]": "line 1, column 53: entry 0: payload: invalid JSON: invalid UTF-8",
		`[{"interruptId":"x","status":"cancelled","metadata":{"a":1,"a":2}}]`:           "entry 0: metadata: invalid JSON: duplicate object member name",
	} {
		if _, err := ReadAnswers([]byte(data)); err == nil || !strings.Contains(err.Error(), says) {
			t.Errorf("%s: %v, want %q", data, err, says)
		}
	}
	if _, err := ParseAnswer(filepath.Join(t.TempDir(), "missing.json")); err == nil || !strings.Contains(err.Error(), "approve, reject, cancel, or a JSON file") {
		t.Errorf("a missing file: %v", err)
	}
}

func TestApproveRejectCancel(t *testing.T) {
	p := agui.Pending{Interrupts: []agui.Interrupt{
		{ID: "a", ResponseSchema: []byte(`{"type":"object","properties":{"ok":{"type":"boolean"}}}`)},
		{ID: "b"},
	}}
	for how, want := range map[string]string{
		"approve": `{"interruptId":"a","status":"resolved","payload":{"ok":true}} {"interruptId":"b","status":"cancelled"}`,
		"reject":  `{"interruptId":"a","status":"resolved","payload":{"ok":false}} {"interruptId":"b","status":"cancelled"}`,
		"cancel":  `{"interruptId":"a","status":"cancelled"} {"interruptId":"b","status":"cancelled"}`,
	} {
		a, _ := ParseAnswer(how)
		var got []string
		for _, e := range a.To(p) {
			got = append(got, string(EntryJSON(e)))
		}
		if strings.Join(got, " ") != want {
			t.Errorf("%s: %s", how, got)
		}
	}
}
