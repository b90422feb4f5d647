package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/agent-analysis/agent-analysis/internal/testfile"
	"github.com/agent-analysis/agent-analysis/server/servertest"
)

// interruptingAgent interrupts its first run, asking to approve call c1
// (and, with expired, something else that expired); a resume is answered
// by resumed. asked counts the requests.
func interruptingAgent(t *testing.T, expired bool, resumed func(w http.ResponseWriter, r *http.Request, in map[string]json.RawMessage)) (string, *atomic.Int32) {
	var asked atomic.Int32
	url := servertest.Upstream(t, func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		var in map[string]json.RawMessage
		json.NewDecoder(r.Body).Decode(&in)
		if in["resume"] != nil {
			resumed(w, r, in)
			return
		}
		late := ""
		if expired {
			late = `,{"id":"late","reason":"input","expiresAt":"2001-01-01T00:00:00Z"}`
		}
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, "data: {\"type\":\"RUN_STARTED\",\"threadId\":%s,\"runId\":%s}\n\n", in["threadId"], in["runId"])
		fmt.Fprint(w, "data: {\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"c1\",\"toolCallName\":\"rollback\"}\n\n")
		fmt.Fprint(w, "data: {\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"c1\"}\n\n")
		fmt.Fprintf(w, "data: {\"type\":\"RUN_FINISHED\",\"threadId\":%s,\"runId\":%s,\"outcome\":{\"type\":\"interrupt\",\"interrupts\":["+
			"{\"id\":\"ask\",\"reason\":\"confirmation\",\"toolCallId\":\"c1\",\"responseSchema\":{\"type\":\"object\",\"properties\":{\"approved\":{\"type\":\"boolean\"}}}}%s]}}\n\n",
			in["threadId"], in["runId"], late)
	})
	return url, &asked
}

// resumedWith streams a resumed run: RUN_STARTED, events, then finish
// (a RUN_FINISHED's members after its ids), or none when finish is "-".
func resumedWith(finish string, events ...string) func(w http.ResponseWriter, r *http.Request, in map[string]json.RawMessage) {
	return func(w http.ResponseWriter, r *http.Request, in map[string]json.RawMessage) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, "data: {\"type\":\"RUN_STARTED\",\"threadId\":%s,\"runId\":%s}\n\n", in["threadId"], in["runId"])
		for _, e := range events {
			fmt.Fprintf(w, "data: %s\n\n", e)
		}
		if finish != "-" {
			fmt.Fprintf(w, "data: {\"type\":\"RUN_FINISHED\",\"threadId\":%s,\"runId\":%s%s}\n\n", in["threadId"], in["runId"], finish)
		}
	}
}

const callResult = `{"type":"TOOL_CALL_RESULT","messageId":"m2","toolCallId":"c1","content":"done"}`

// check -url -answer answers an interrupted run and judges both runs:
// two lines, two JSON results, two JUnit testcases.
func TestCheckURLAnswersAnInterruptedRun(t *testing.T) {
	var resume atomic.Value
	url, asked := interruptingAgent(t, false, func(w http.ResponseWriter, r *http.Request, in map[string]json.RawMessage) {
		resume.Store(string(in["resume"]))
		resumedWith("", callResult)(w, r, in)
	})
	junit := filepath.Join(t.TempDir(), "report.xml")
	var out bytes.Buffer
	if err := run(t.Context(), []string{"check", "-url", url, "-name", "normal", "-answer", "approve", "-junit", junit}, &out, io.Discard); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	lines := strings.Split(out.String(), "\n")
	if !strings.HasPrefix(lines[0], `ok   normal (interrupted: run "run-`) || !strings.HasSuffix(lines[0], `waits for interrupt "ask" (confirmation, on tool call "c1"))`) ||
		lines[2] != "ok   normal/approved" || !strings.HasPrefix(lines[3], "     200 text/event-stream · 3 events") || lines[4] != "2 passed, 0 failed" {
		t.Errorf("%s", out.String())
	}
	if got := resume.Load(); got != `[{"interruptId":"ask","status":"resolved","payload":{"approved":true}}]` || asked.Load() != 2 {
		t.Errorf("resume %v, asked %d", got, asked.Load())
	}
	raw, _ := os.ReadFile(junit)
	var doc struct {
		Suites []struct {
			Cases []struct {
				Name      string `xml:"name,attr"`
				Classname string `xml:"classname,attr"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(raw, &doc); err != nil || len(doc.Suites[0].Cases) != 2 || doc.Suites[0].Cases[1].Name != "normal/approved" || doc.Suites[0].Cases[1].Classname != url {
		t.Errorf("%v\n%s", err, raw)
	}

	out.Reset()
	if err := run(t.Context(), []string{"check", "-url", url, "-name", "normal", "-answer", "reject", "-json"}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	var report struct {
		Passed  int
		Results []struct {
			Name, Interrupted, Continues string
			Resume                       json.RawMessage
		}
	}
	if json.Unmarshal(out.Bytes(), &report) != nil || report.Passed != 2 || len(report.Results) != 2 ||
		!strings.Contains(report.Results[0].Interrupted, `"ask"`) || report.Results[1].Name != "normal/rejected" || report.Results[1].Continues != "normal" ||
		!strings.Contains(compact(report.Results[1].Resume), `"payload":{"approved":false}`) {
		t.Errorf("%s", out.String())
	}
}

// Without -answer, an interrupted run is no failure: its line says so,
// and which flag answers it.
func TestCheckURLSaysARunIsInterrupted(t *testing.T) {
	url, asked := interruptingAgent(t, false, nil)
	var out bytes.Buffer
	if err := run(t.Context(), []string{"check", "-url", url}, &out, io.Discard); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	first, _, _ := strings.Cut(out.String(), "\n")
	if !strings.Contains(first, "; to answer it: agent-analysis check -url "+url+" -thread thread-") || !strings.HasSuffix(first, " -answer approve|reject|cancel|FILE)") || asked.Load() != 1 {
		t.Errorf("%s", out.String())
	}
}

// The command a report prints answers the interrupt it names: on the same
// thread, an answer file naming the interrupt by the id the report
// printed is accepted, and the resumed run judged. Header values are not
// in it.
func TestTheAnswerHintAnswers(t *testing.T) {
	api := servertest.Ours(t)
	var out bytes.Buffer
	if err := run(t.Context(), []string{"check", "-url", api, "-scenario", "approval", "-accept", "proto", "-H", "X-Token: s3cret"}, &out, io.Discard); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	id := regexp.MustCompile(`waits for interrupt "([^"]+)"`).FindStringSubmatch(out.String())
	hint := regexp.MustCompile(`to answer it: (.*) -answer approve\|reject\|cancel\|FILE\)`).FindStringSubmatch(out.String())
	if id == nil || hint == nil || strings.Contains(out.String(), "s3cret") || !strings.Contains(hint[1], "-H 'X-Token: …'") ||
		!strings.Contains(hint[1], " -accept proto ") {
		t.Fatalf("no interrupt or hint, or a header's value, in:\n%s", out.String())
	}
	answers := testfile.Write(t, t.TempDir(), "yes.json", `[{"interruptId":`+strconv.Quote(id[1])+`,"status":"resolved","payload":{"approved":true}}]`)
	args := strings.Fields(strings.Replace(strings.TrimPrefix(hint[1], "agent-analysis "), "'X-Token: …'", "X-Token:s3cret", 1))
	out.Reset()
	if err := run(t.Context(), append(args, "-answer", answers), &out, io.Discard); err != nil || !strings.Contains(out.String(), "ok   approval/yes\n") {
		t.Errorf("%v: %v\n%s", args, err, out.String())
	}
}

// Agents that go wrong when resumed fail the resumed run, by its rule.
func TestCheckURLAgainstAgentsThatResumeBadly(t *testing.T) {
	for _, tt := range []struct {
		name    string
		args    []string // after -answer cancel, which a later -answer overrides
		resumed func(w http.ResponseWriter, r *http.Request, in map[string]json.RawMessage)
		want    string // the resumed run's line
		failed  bool
		note    string
	}{
		{"never comes", []string{"-timeout", "200ms"}, func(w http.ResponseWriter, r *http.Request, _ map[string]json.RawMessage) {
			servertest.NeverAnswers(w, r)
		},
			"FAIL normal/cancelled: timeout: no answer within 200ms: the agent sent no response headers", true, ""},
		{"answers 422", nil, func(w http.ResponseWriter, r *http.Request, _ map[string]json.RawMessage) {
			w.Header().Set("Content-Type", "application/problem+json")
			w.WriteHeader(http.StatusUnprocessableEntity)
			fmt.Fprint(w, `{"title":"Bad resume","detail":"resume/0: no such interrupt"}`)
		}, "FAIL normal/cancelled: http-status: the agent answered 422 Unprocessable Entity, not 2xx: Bad resume resume/0: no such interrupt", true, ""},
		{"stream cut", nil, resumedWith("-", callResult), `FAIL normal/cancelled: truncated: `, true, ""},
		{"interrupts again", nil, resumedWith(`,"outcome":{"type":"interrupt","interrupts":[{"id":"again","reason":"x"}]}`),
			`ok   normal/cancelled (interrupted: again: run "run-`, false, ""},
		{"leaves the approved call unanswered", []string{"-v", "-answer", "approve"}, resumedWith(""), "ok   normal/approved", false,
			`note: warning (resume-unanswered-call): run "run-`},
		{"leaves the cancelled call unanswered", []string{"-v"}, resumedWith(""), "ok   normal/cancelled", false, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			url, _ := interruptingAgent(t, false, tt.resumed)
			var out bytes.Buffer
			err := run(t.Context(), append([]string{"check", "-url", url, "-name", "normal", "-answer", "cancel"}, tt.args...), &out, io.Discard)
			if errors.Is(err, errFailed) != tt.failed || (err != nil && !errors.Is(err, errFailed)) {
				t.Errorf("err %v", err)
			}
			var resumedLine string
			for _, l := range strings.Split(out.String(), "\n") {
				if strings.Contains(l, "normal/") {
					resumedLine = l
				}
			}
			if !strings.HasPrefix(resumedLine, tt.want) || !strings.Contains(out.String(), tt.note) || (tt.note == "" && strings.Contains(out.String(), "warning")) {
				t.Errorf("%s\nwant a line %q and %q", out.String(), tt.want, tt.note)
			}
		})
	}
}

// A resume the engine refuses is a failure naming the member at fault,
// and nothing is sent.
func TestCheckURLSendsNoResumeTheEngineRefuses(t *testing.T) {
	url, asked := interruptingAgent(t, true, resumedWith("", callResult))
	dir := t.TempDir()
	late := testfile.Write(t, dir, "late.json", `[{"interruptId":"ask","status":"resolved","payload":{"approved":true}},{"interruptId":"late","status":"resolved","payload":1}]`)
	var out bytes.Buffer
	err := run(t.Context(), []string{"check", "-url", url, "-name", "normal", "-answer", late}, &out, io.Discard)
	lines := strings.Split(out.String(), "\n")
	if !errors.Is(err, errFailed) || lines[2] != `FAIL normal/late: resume: the resume was not sent: resume/1/status: interrupt "late" expired at 2001-01-01T00:00:00Z: it can only be cancelled (https://docs.ag-ui.com/spec/1.0/basic/patterns/interrupt-resume)` ||
		asked.Load() != 1 {
		t.Errorf("%v, asked %d\n%s", err, asked.Load(), out.String())
	}
	// approve answers the approval and cancels the expired interrupt.
	if err := run(t.Context(), []string{"check", "-url", url, "-answer", "approve"}, io.Discard, io.Discard); err != nil || asked.Load() != 3 {
		t.Errorf("approve: %v, asked %d", err, asked.Load())
	}
}

func compact(raw []byte) string {
	var b bytes.Buffer
	json.Compact(&b, raw)
	return b.String()
}

// record -answer keeps the interrupted run and the run that resumes it,
// as the script's one continuation, ids stable; check replays both.
func TestRecordAnswersAnInterruptedRun(t *testing.T) {
	url, asked := interruptingAgent(t, false, resumedWith("", callResult))
	path := filepath.Join(t.TempDir(), "rec.json")
	var out bytes.Buffer
	if err := run(t.Context(), []string{"record", "-url", url, "-answer", "approve", "-o", path}, &out, io.Discard); err != nil || asked.Load() != 2 {
		t.Fatalf("%v, asked %d\n%s", err, asked.Load(), out.String())
	}
	if !strings.HasPrefix(out.String(), "recorded "+path+`: 4 events, 0 comments; its resume "approved": 3 events, 0 comments`) ||
		!strings.Contains(out.String(), "ok   the stream is valid AG-UI, every run ended (interrupted: ") ||
		!strings.Contains(out.String(), "ok   the resumed run's stream is valid AG-UI, every run ended\n") {
		t.Errorf("%s", out.String())
	}
	raw, _ := os.ReadFile(path)
	var s struct {
		Stream        []struct{ Event json.RawMessage }
		Continuations []struct {
			Name   string
			When   json.RawMessage
			Stream []struct{ Event json.RawMessage }
		}
	}
	if err := json.Unmarshal(raw, &s); err != nil || len(s.Stream) != 4 || len(s.Continuations) != 1 {
		t.Fatalf("%v\n%s", err, raw)
	}
	c := s.Continuations[0]
	if c.Name != "approved" || compact(c.When) != `[{"interruptId":"interrupt-1","status":"resolved","payload":{"approved":true}}]` || len(c.Stream) != 3 ||
		compact(c.Stream[0].Event) != `{"type":"RUN_STARTED","threadId":"thread-1","runId":"run-2"}` ||
		!strings.Contains(compact(s.Stream[3].Event), `"interrupts":[{"id":"interrupt-1"`) {
		t.Errorf("%s", raw)
	}
	out.Reset()
	if err := run(t.Context(), []string{"check", "-expect", path}, &out, io.Discard); err != nil || out.String() != "ok   rec (interrupted: run \"run-1\" waits for interrupt \"interrupt-1\" (confirmation, on tool call \"call-1\"))\nok   rec/approved\n2 passed, 0 failed\n" {
		t.Errorf("check of the recording: %v\n%s", err, out.String())
	}
}

// A recording whose resume goes wrong writes nothing; -answer to a run
// that is not interrupted is a note.
func TestRecordAnswersOnlyWhatItCan(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "rec.json")
	refusing, _ := interruptingAgent(t, false, func(w http.ResponseWriter, r *http.Request, _ map[string]json.RawMessage) {
		http.Error(w, "no", http.StatusBadRequest)
	})
	var out bytes.Buffer
	err := run(t.Context(), []string{"record", "-url", refusing, "-answer", "reject", "-o", path}, &out, io.Discard)
	if err == nil || err.Error() != "nothing recorded: the resumed run: http-status: the agent answered 400 Bad Request, not 2xx: \"no\"" ||
		!strings.HasPrefix(out.String(), "FAIL rec/rejected: http-status: the agent answered 400") {
		t.Errorf("%v\n%s", err, out.String())
	}
	if _, err := os.Stat(path); err == nil {
		t.Error("a file was written")
	}
	out.Reset()
	if err := run(t.Context(), []string{"record", "-url", servertest.Ours(t), "-answer", "approve", "-o", path}, &out, io.Discard); err != nil ||
		!strings.Contains(out.String(), "note: -answer: the run did not end interrupted: there was nothing to answer") {
		t.Errorf("%v\n%s", err, out.String())
	}
}

// This server's approval scenario plays the continuation a resume's
// answers select: every answer gives two passing runs.
func TestCheckURLAnswersTheApprovalScenario(t *testing.T) {
	api := servertest.Ours(t)
	for how, name := range map[string]string{"approve": "approved", "reject": "rejected", "cancel": "cancelled"} {
		var out bytes.Buffer
		err := run(t.Context(), []string{"check", "-url", api, "-scenario", "approval", "-answer", how, "-v"}, &out, io.Discard)
		if err != nil || !strings.Contains(out.String(), "\nok   approval/"+name+"\n") || !strings.HasSuffix(out.String(), "2 passed, 0 failed\n") || strings.Contains(out.String(), "note:") {
			t.Errorf("%s: %v\n%s", how, err, out.String())
		}
	}
}
