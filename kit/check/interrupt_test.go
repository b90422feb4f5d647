package check

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/agent-analysis/agent-analysis/kit/rules"

	"github.com/agent-analysis/agent-analysis/agui"
	"github.com/agent-analysis/agent-analysis/kit/agent"
)

// Every continuation of the approval scenario replays as the run that
// resumes it: accepted, the interrupted call answered.
func TestTheApprovalScenariosContinuationsReplay(t *testing.T) {
	results := File("../../fixtures/approval.json", true)
	var names []string
	for _, r := range results {
		names = append(names, r.Name)
		if !r.OK || len(r.Notes) != 0 {
			t.Errorf("%s: %+v %+v", r.Name, r.Failures, r.Notes)
		}
	}
	if strings.Join(names, " ") != "approval approval/approved approval/rejected approval/cancelled" {
		t.Errorf("results %q", names)
	}
	var b bytes.Buffer
	Print(&b, results, nil, false)
	if !strings.Contains(b.String(), "ok   approval/approved\n") {
		t.Errorf("%s", b.String())
	}
}

// A file whose run ends interrupted says so, as a live run does: in its
// line and in the JSON report.
func TestAFileEndingInterruptedSaysSo(t *testing.T) {
	res := File("../../fixtures/approval.json", false)
	want := `run "run-1" waits for interrupt "rollback-api" (confirmation, on tool call "call-rollback")`
	if len(res) != 4 || !res[0].OK || res[0].Interrupted != want || res[1].Interrupted != "" {
		t.Fatalf("%+v", res)
	}
	var out bytes.Buffer
	Print(&out, res[:1], nil, false)
	if out.String() != "ok   approval (interrupted: "+want+")\n1 passed, 0 failed\n" {
		t.Errorf("%s", out.String())
	}
	out.Reset()
	PrintJSON(&out, res[:1], nil)
	if !strings.Contains(out.String(), `"interrupted": "run \"run-1\" waits for interrupt`) {
		t.Errorf("%s", out.String())
	}
	// A continuation is a run of its own, and says how it ended too.
	doc := `{"name":"n","stream":[{"type":"RUN_STARTED","threadId":"t","runId":"r"},
	  {"type":"RUN_FINISHED","threadId":"t","runId":"r","outcome":{"type":"interrupt","interrupts":[{"id":"ask","reason":"confirmation"}]}}],
	 "continuations":[{"name":"failed","when":[{"interruptId":"ask"}],"stream":[
	  {"type":"RUN_STARTED","threadId":"t","runId":"r2"},{"type":"RUN_ERROR","message":"overloaded"}]}]}`
	if r := Data("n.json", []byte(doc), false); len(r) != 2 || r[1].Errored != `the agent reported an error: RUN_ERROR "overloaded"` {
		t.Errorf("%+v", r)
	}
}

// Continuations that go wrong fail each its own way, by its own line.
func TestContinuationsThatGoWrong(t *testing.T) {
	results := File("testdata/continuations/hostile.json", true)
	got := map[string]Result{}
	for _, r := range results {
		got[strings.TrimPrefix(r.Name, "hostile/")] = r
	}
	if len(results) != 8 || !got["hostile"].OK || !got["answered"].OK || len(got["answered"].Notes) != 0 {
		t.Fatalf("%+v", results)
	}
	if r := got["unanswered"]; !r.OK || len(r.Notes) != 1 || !strings.Contains(r.Notes[0], "warning (resume-unanswered-call)") {
		t.Errorf("unanswered: %+v", r)
	}
	// A "when" that names one of two interrupts plays for any answer to
	// the other, as the server's matching does: the replay cancels it.
	if r := got["left-out"]; !r.OK {
		t.Errorf("left-out: %+v", r)
	}
	for name, want := range map[string]struct{ rule, says string }{
		"expired":      {rules.Resume, "the resume was not sent: resume/1/status: "},
		"other-thread": {"thread-of-run", `RUN_STARTED names thread "u"`},
		"never-ends":   {rules.Truncated, "the stream ended while run "},
		"wrong-expect": {"expect.state", `state {"n":1}, want {"n":5}`},
	} {
		r := got[name]
		if r.OK || len(r.Failures) != 1 || r.Failures[0].Rule != want.rule || !strings.Contains(r.Failures[0].Text, want.says) {
			t.Errorf("%s: %+v, want %s: …%s…", name, r.Failures, want.rule, want.says)
		}
	}
	// Without -expect, a continuation's expect is not read: the stream
	// must only be accepted.
	for _, r := range File("testdata/continuations/hostile.json", false) {
		if r.Name == "hostile/wrong-expect" && !r.OK {
			t.Errorf("without -expect: %+v", r)
		}
	}
}

// A continuation's "expect": null is no expect, as a script's own is:
// under -expect its stream must still be accepted.
func TestAContinuationsNullExpectIsNone(t *testing.T) {
	doc := `{"name":"n","expect":null,"stream":[{"type":"RUN_STARTED","threadId":"t","runId":"r"},
	  {"type":"RUN_FINISHED","threadId":"t","runId":"r","outcome":{"type":"interrupt","interrupts":[{"id":"ask","reason":"confirmation"}]}}],
	 "continuations":[{"name":"broken","when":[{"interruptId":"ask"}],"expect":null,"stream":[
	  {"type":"RUN_STARTED","threadId":"t","runId":"r2"},{"type":"STATE_DELTA","delta":"garbage"},{"type":"RUN_FINISHED","threadId":"t","runId":"r2"}]}]}`
	r := Data("n.json", []byte(doc), true)
	if len(r) != 2 || !r[0].OK || r[1].OK || r[1].Failures[0].Rule == rules.Expect {
		t.Errorf("%+v", r)
	}
}

// check and serve read a continuation alike: one whose "when" names an
// interrupt twice is refused, naming it, by both (serve's side is
// TestServeRefusesBadFixtures).
func TestAWhenNamingAnInterruptTwiceIsRefused(t *testing.T) {
	doc := `{"name":"n","stream":[{"type":"RUN_STARTED","threadId":"t","runId":"r"},
	  {"type":"RUN_FINISHED","threadId":"t","runId":"r","outcome":{"type":"interrupt","interrupts":[{"id":"ask","reason":"confirmation"}]}}],
	 "continuations":[{"name":"yes","when":[{"interruptId":"ask","status":"resolved"},{"interruptId":"ask","payload":{"approved":true}}],"stream":[
	  {"type":"RUN_STARTED","threadId":"t","runId":"r2"},{"type":"RUN_FINISHED","threadId":"t","runId":"r2"}]}]}`
	r := Data("n.json", []byte(doc), false)
	if len(r) != 1 || r[0].OK || r[0].Failures[0].Rule != rules.File || !strings.Contains(r[0].Failures[0].Text, `when 1: interrupt "ask" is named twice`) {
		t.Errorf("%+v", r)
	}
}

// An SSE capture (curl -N) is read as a stream: any line ending, data
// lines joined, comments kept, fields AG-UI ignores noted.
func TestCapturesAreReadAsStreams(t *testing.T) {
	for _, tt := range []struct {
		file  string
		rules []string
		notes []string
	}{
		{"crlf", nil, []string{`SSE fields AG-UI gives no meaning to, which clients ignore: "event" ×1, "id" ×1, "retry" ×1`, "1 event(s) over several data lines", "1 data line(s) with no space"}},
		{"cr", nil, nil},
		{"cut", []string{"truncated", "sse-framing"}, nil},
		{"after-finish", []string{"after-finish"}, nil},
	} {
		r := File("testdata/captures/"+tt.file+".sse", true)
		if len(r) != 1 {
			t.Fatalf("%s: %d results", tt.file, len(r))
		}
		if got := ruleIDs(r[0]); strings.Join(got, " ") != strings.Join(tt.rules, " ") || r[0].OK != (len(tt.rules) == 0) || r[0].Name != tt.file {
			t.Errorf("%s: %+v, want %q", tt.file, r[0], tt.rules)
		}
		notes := strings.Join(r[0].Notes, "\n")
		for _, n := range tt.notes {
			if !strings.Contains(notes, n) {
				t.Errorf("%s: notes\n%s\nwant %q", tt.file, notes, n)
			}
		}
	}
	// This project's golden streams are captures too.
	if r := File("../../server/testdata/normal.sse", false); len(r) != 1 || !r[0].OK {
		t.Errorf("normal.sse: %+v", r)
	}
}

func TestAResumeNotSentFailsNamingTheField(t *testing.T) {
	r := Resumed("a/approved", "a", agent.Resumed{
		Answers: []agui.Answer{{InterruptID: "i", Status: agui.Resolved, Payload: []byte(`{"ok":true}`)}},
		Refused: &agui.ResumeError{Field: "resume/0/status", Reason: "expired"},
	})
	if r.OK || len(r.Failures) != 1 || r.Failures[0] != (rules.Failure{Rule: rules.Resume, Text: "the resume was not sent: resume/0/status: expired"}) ||
		r.Continues != "a" || string(r.Resume) != `[{"interruptId":"i","status":"resolved","payload":{"ok":true}}]` {
		t.Errorf("%+v", r)
	}
	other := Resumed("a/x", "a", agent.Resumed{Refused: errors.New("no")})
	if other.Failures[0].Text != "the resume was not sent: no" {
		t.Errorf("%+v", other)
	}
}
