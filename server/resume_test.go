package server_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/agent-analysis/agent-analysis/agui"
	"github.com/agent-analysis/agent-analysis/fixtures"
	"github.com/agent-analysis/agent-analysis/kit/script"
	"github.com/agent-analysis/agent-analysis/server"
	"github.com/agent-analysis/agent-analysis/server/library"
)

// resumeBody is a RunAgentInput that resumes a scenario's interrupted run
// with this resume list (JSON).
func resumeBody(threadID, runID, scenario, resume string) string {
	return fmt.Sprintf(`{"threadId":%q,"runId":%q,"messages":[],"resume":%s,"forwardedProps":{"scenario":%q}}`, threadID, runID, resume, scenario)
}

// answersJSON is the resume list that plays a continuation: its "when"
// with the ids bound to threadID, as the stream served them. A "when"
// without a status resolves with its payload, or cancels without one.
func answersJSON(t *testing.T, c script.Continuation, threadID string) string {
	t.Helper()
	var list []map[string]any
	for _, m := range c.When {
		status := m.Status
		if status == "" {
			status = string(agui.Abandoned)
			if m.Payload != nil {
				status = string(agui.Resolved)
			}
		}
		entry := map[string]any{"interruptId": script.BindInterrupt(m.InterruptID, threadID), "status": status}
		if m.Payload != nil {
			entry["payload"] = m.Payload
		}
		list = append(list, entry)
	}
	b, err := json.Marshal(list)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// wantRefused checks a 422 problem naming field, whose detail holds says,
// and that nothing of a stream was written.
func wantRefused(t *testing.T, rec *httptest.ResponseRecorder, field, says string) {
	t.Helper()
	var p server.Problem
	if err := json.Unmarshal(rec.Body.Bytes(), &p); err != nil {
		t.Fatalf("%d, not a problem: %s", rec.Code, rec.Body)
	}
	if rec.Code != http.StatusUnprocessableEntity || rec.Header().Get("Content-Type") != "application/problem+json" ||
		p.Status != 422 || p.Type != "urn:agent-analysis:problem:resume-refused" || p.Field != field || !strings.Contains(p.Detail, says) {
		t.Errorf("%d %s %+v; want 422 resume-refused naming %s: …%s…", rec.Code, rec.Header().Get("Content-Type"), p, field, says)
	}
	if strings.Contains(rec.Body.String(), "data:") {
		t.Errorf("a stream byte in the refusal: %s", rec.Body)
	}
}

func post(h http.Handler, body string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodPost, "/api/agent-analysis", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// Every resume the server cannot continue is a 422 problem naming the
// member at fault, decided before any stream byte.
func TestBadResumesAreRefused(t *testing.T) {
	h := server.New(server.Config{NoDelay: true})
	cancel := func(id string) string { return fmt.Sprintf(`{"interruptId":%q,"status":"cancelled"}`, id) }
	for name, tt := range map[string]struct {
		scenario, resume, field, says string
	}{
		"an empty list":                  {"approval", `[]`, "resume", `interrupt "rollback-api@t1" of the interrupted run has no entry`},
		"no entry for the interrupt":     {"approval", `[` + cancel("rollback-db@t1") + `]`, "resume/0/interruptId", `raised no interrupt "rollback-db@t1"`},
		"an unknown id":                  {"approval", `[` + cancel("nope") + `]`, "resume/0/interruptId", `raised no interrupt "nope"`},
		"the id as the script writes it": {"approval", `[` + cancel("rollback-api") + `]`, "resume/0/interruptId", `raised no interrupt "rollback-api"`},
		"an id of another thread": {"approval", `[` + cancel("rollback-api@other") + `]`, "resume/0/interruptId",
			`Interrupt "rollback-api@other" was raised on thread "other", not this one ("t1")`},
		"answered twice": {"approval", `[` + cancel("rollback-api@t1") + `,{"interruptId":"rollback-api@t1","status":"resolved","payload":{"approved":true}}]`,
			"resume/1/interruptId", `interrupt "rollback-api@t1" is answered twice`},
		"a resolved expired interrupt": {"expired-interrupt", `[{"interruptId":"rollback-api@t1","status":"resolved","payload":{"approved":false}}]`,
			"resume/0/status", `expired at 2026-01-01T00:00:00Z: it can only be cancelled`},
		"no continuation matching": {"approval", `[{"interruptId":"rollback-api@t1","status":"resolved","payload":{"approved":"yes"}}]`,
			"resume", `No continuation of scenario "approval" takes these answers; it has "approved", "rejected", "cancelled".`},
		"a resolved answer to a question with no answer shape": {"outcome-interrupt", `[{"interruptId":"approve-budget@t1","status":"resolved","payload":true}]`,
			"resume", `it has "cancelled"`},
		"a script without continuations":       {"normal", `[` + cancel("x") + `]`, "resume", `Scenario "normal" does not continue an interrupted run`},
		"an empty list to a script that never": {"normal", `[]`, "resume", `does not continue an interrupted run`},
	} {
		t.Run(name, func(t *testing.T) {
			wantRefused(t, post(h, resumeBody("t1", "r2", tt.scenario, tt.resume)), tt.field, tt.says)
		})
	}
}

// The refusals a fixture lists are refused as it says, on any thread.
func TestEveryListedRefusal(t *testing.T) {
	h := server.New(server.Config{NoDelay: true})
	listed := 0
	for _, s := range fixtures.All() {
		for _, r := range s.Refusals {
			listed++
			for _, thread := range []string{"t1", "thread-9"} {
				t.Run(s.Name+"/"+r.Why+"/"+thread, func(t *testing.T) {
					resume := strings.ReplaceAll(string(r.Resume), "{thread}", thread)
					wantRefused(t, post(h, resumeBody(thread, "r2", s.Name, resume)), r.Field, "")
				})
			}
		}
	}
	if listed < 4 {
		t.Errorf("%d refusals listed", listed)
	}
}

// A resume plays the first continuation its answers match, under the
// request's ids: the same bytes on every run, testdata/<name>.<cont>.sse
// for thread t1, run r2.
func TestEveryContinuationMatchesItsGoldenStream(t *testing.T) {
	var logs lockedBuffer
	h := server.New(server.Config{NoDelay: true, Logger: slog.New(slog.NewJSONHandler(&logs, nil))})
	played := 0
	for _, s := range fixtures.All() {
		for _, c := range s.Continuations {
			played++
			t.Run(s.Name+"/"+c.Name, func(t *testing.T) {
				rec := post(h, resumeBody("t1", "r2", s.Name, answersJSON(t, c, "t1")))
				if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != "text/event-stream" {
					t.Fatalf("%d: %s", rec.Code, rec.Body)
				}
				raw := rec.Body.Bytes()
				got, err := readEvents(iotest.OneByteReader(bytes.NewReader(raw)))
				if err != nil {
					t.Fatal(err)
				}
				var want [][]byte
				for _, st := range s.Continue(c, "t1", "r2") {
					if st.Event != nil {
						want = append(want, st.Event)
					}
				}
				if !slices.EqualFunc(got, want, bytes.Equal) {
					t.Errorf("events differ from the continuation's:\n%s", raw)
				}
				if first, last := describe(got[0]), describe(got[len(got)-1]); first != "RUN_STARTED t1 r2 1.0" || !strings.HasPrefix(last, "RUN_FINISHED t1 r2") {
					t.Errorf("the run is %q … %q", first, last)
				}
				checkGolden(t, s.Name+"."+c.Name, raw)
			})
		}
	}
	if played < 7 {
		t.Errorf("%d continuations played", played)
	}
	var named []string
	for _, l := range logLines(t, logs.snapshot()) {
		if l["path"] == "/api/agent-analysis" {
			named = append(named, fmt.Sprint(l["scenario"], "/", l["continuation"]))
		}
	}
	if len(named) != played || !slices.Contains(named, "approval/rejected") {
		t.Errorf("the request lines name %v", named)
	}
}

// The server keeps nothing between runs: a resume of what one instance
// streamed is played by another, from the ids the stream served.
func TestAResumeNeedsNoMemory(t *testing.T) {
	first := httptest.NewServer(server.New(server.Config{NoDelay: true}))
	defer first.Close()
	resp, err := http.DefaultClient.Do(newRunRequest(t.Context(), first.URL+"/api/agent-analysis", runBody("thread-7", "run-a", "approval")))
	if err != nil {
		t.Fatal(err)
	}
	events, err := readEvents(resp.Body)
	resp.Body.Close()
	if err != nil || len(events) == 0 {
		t.Fatalf("%d events, %v", len(events), err)
	}
	var finished struct {
		Outcome struct {
			Interrupts []struct {
				ID string `json:"id"`
			} `json:"interrupts"`
		} `json:"outcome"`
	}
	if err := json.Unmarshal(events[len(events)-1], &finished); err != nil || len(finished.Outcome.Interrupts) != 1 {
		t.Fatalf("the stream ends %s (%v)", events[len(events)-1], err)
	}
	id := finished.Outcome.Interrupts[0].ID
	if id != "rollback-api@thread-7" {
		t.Fatalf("the interrupt is served as %q", id)
	}

	second := httptest.NewServer(server.New(server.Config{NoDelay: true}))
	defer second.Close()
	body := resumeBody("thread-7", "run-b", "approval", fmt.Sprintf(`[{"interruptId":%q,"status":"resolved","payload":{"approved":true}}]`, id))
	resp, err = http.DefaultClient.Do(newRunRequest(t.Context(), second.URL+"/api/agent-analysis", body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	got, err := describeStream(resp.Body)
	want := []string{"RUN_STARTED thread-7 run-b 1.0", "TOOL_CALL_RESULT", "STATE_DELTA test /services/0/id \"api\" replace /services/0/latency 60", "RUN_FINISHED thread-7 run-b"}
	if err != nil || resp.StatusCode != 200 || !slices.Equal(got, want) {
		t.Errorf("%d %v:\n%s\nwant:\n%s", resp.StatusCode, err, lines(got), lines(want))
	}
	if err := judgeResume(t, events, "thread-7", "run-a", body); err != nil {
		t.Errorf("the engine refuses the resume it would send: %v", err)
	}
}

// judgeResume has the engine check a resume body against the interrupts
// the first stream left pending, as a client would before sending it.
func judgeResume(t *testing.T, events [][]byte, threadID, runID, body string) error {
	t.Helper()
	in, _, err := agui.ReadInput([]byte(runBody(threadID, runID, "approval")))
	if err != nil {
		t.Fatal(err)
	}
	c, _ := agui.NewConsumer(in, agui.Options{})
	for _, e := range events {
		c.Feed(e)
	}
	p, ok := c.Pending()
	if !ok {
		t.Fatal("nothing pending after the first stream")
	}
	resume, _, err := agui.ReadInput([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	return p.Check(resume, time.Now())
}

// A request that resumes nothing plays a script with continuations from
// its start, as before.
func TestWithoutResumeTheFirstRunPlays(t *testing.T) {
	h := server.New(server.Config{NoDelay: true})
	rec := post(h, runBody("t1", "r1", "approval"))
	got, err := readEvents(rec.Body)
	if err != nil || rec.Code != 200 || len(got) != 8 || !strings.Contains(describe(got[7]), `"id":"rollback-api@t1"`) {
		t.Errorf("%d %v %q", rec.Code, err, got)
	}
}

// A recording made long ago plays as it was recorded: its interrupt
// expires as long after the played stream as after the recorded one, and
// the resume it recorded, sent in time then, is taken.
func TestARecordingsInterruptExpiresAsRecorded(t *testing.T) {
	dir := t.TempDir()
	const rec = `{"recordedAt": "2020-01-01T00:00:00Z", "stream": [
	  {"afterMs": 0, "event": {"type": "RUN_STARTED", "threadId": "thread-1", "runId": "run-1"}},
	  {"afterMs": 1000, "event": {"type": "RUN_FINISHED", "threadId": "thread-1", "runId": "run-1", "outcome": {"type": "interrupt",
	    "interrupts": [{"id": "interrupt-1", "reason": "confirmation", "expiresAt": "2020-01-01T00:01:00Z"}]}}}],
	 "continuations": [{"name": "yes", "when": [{"interruptId": "interrupt-1", "status": "resolved"}], "stream": [
	  {"afterMs": 0, "event": {"type": "RUN_STARTED", "threadId": "thread-1", "runId": "run-2"}},
	  {"afterMs": 0, "event": {"type": "RUN_FINISHED", "threadId": "thread-1", "runId": "run-2"}}]}]}`
	if err := os.WriteFile(filepath.Join(dir, "recorded.json"), []byte(rec), 0o644); err != nil {
		t.Fatal(err)
	}
	lib, err := library.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	h := server.New(server.Config{NoDelay: true, Scripts: lib})
	before := time.Now()
	first := post(h, `{"threadId":"t1","runId":"r1","messages":[],"forwardedProps":{"scenario":"recorded"}}`)
	after := time.Now()
	var finished struct {
		Outcome struct {
			Interrupts []struct{ ExpiresAt time.Time }
		}
	}
	events := strings.Split(strings.TrimSpace(first.Body.String()), "\n\n")
	if first.Code != http.StatusOK || len(events) != 2 || json.Unmarshal([]byte(strings.TrimPrefix(events[1], "data: ")), &finished) != nil ||
		len(finished.Outcome.Interrupts) != 1 {
		t.Fatalf("%d\n%s", first.Code, first.Body)
	}
	// A minute after the request, less the second the shift is cut to.
	if at := finished.Outcome.Interrupts[0].ExpiresAt; at.Before(before.Add(time.Minute-time.Second)) || at.After(after.Add(time.Minute)) {
		t.Errorf("expires at %v; asked at %v", at, before)
	}
	resumed := post(h, resumeBody("t1", "r2", "recorded", `[{"interruptId":"interrupt-1@t1","status":"resolved","payload":true}]`))
	if resumed.Code != http.StatusOK || !strings.Contains(resumed.Body.String(), `"runId":"r2"}`) {
		t.Errorf("the resume: %d\n%s", resumed.Code, resumed.Body)
	}
}
