package server_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agent-analysis/agent-analysis/agui"
	"github.com/agent-analysis/agent-analysis/agui/jsonpatch"
	"github.com/agent-analysis/agent-analysis/fixtures"
	"github.com/agent-analysis/agent-analysis/kit/script"
	"github.com/agent-analysis/agent-analysis/server"
)

// FuzzRunRequest: whatever the body, the answer is a problem+json 4xx, or
// 200 with exactly the named script's events for the request's ids, or,
// for a resume, the events of the first continuation its answers match,
// which the engine's own check of the resume accepts. Never a panic,
// never a 5xx.
func FuzzRunRequest(f *testing.F) {
	f.Add(runBody("t", "r", "normal"), "application/json")
	f.Add(runBody("t", "r", "invalid"), "application/json; charset=utf-8")
	f.Add(runBody("t", "r", "nope"), "application/json")
	f.Add(`{"thread_id":"t","run_id":"r","forwarded_props":{"scenario":"slow"}}`, "application/json")
	f.Add(`{"threadId":"t","runId":"r","forwardedProps":{"scenario":"normal"},"messages":[{"id":"m","role":"user","content":"hi"}]}`, "application/json")
	f.Add(`{"threadId":"t","runId":"r","messages":[],"protocolVersion":"1.9","forwardedProps":{"scenario":"no-terminal-event"}}`, "application/json")
	f.Add(`{"threadId":null}`, "application/json")
	f.Add(`{"threadId":"t","runId":"r","forwardedProps":{"scenario":"normal"}}`, "text/plain")
	f.Add(`{"threadId":"0","runId":"0","messages":[]}`, "application/json") // a stock client's first request: no scenario
	f.Add(`{"threadId":"0","runId":"0","messages":[],"forwardedProps":{}}`, "application/json")
	f.Add(`nul`, "application/json")
	f.Add(resumeBody("t", "r2", "approval", `[{"interruptId":"rollback-api@t","status":"resolved","payload":{"approved":true}}]`), "application/json")
	f.Add(resumeBody("t", "r2", "approval", `[{"interruptId":"rollback-api@t","status":"cancelled"}]`), "application/json")
	f.Add(resumeBody("t", "r2", "approval", `[{"interruptId":"rollback-api@u","status":"cancelled"}]`), "application/json")
	f.Add(resumeBody("t", "r2", "expired-interrupt", `[{"interruptId":"rollback-api@t","status":"resolved","payload":{"approved":false}}]`), "application/json")
	f.Add(resumeBody("t", "r2", "outcome-interrupt", `[{"interruptId":"approve-budget@t","status":"cancelled","metadata":{"by":"me"}}]`), "application/json")
	f.Add(resumeBody("t", "r2", "resume-unanswered-call", `[]`), "application/json")
	f.Add(resumeBody("t", "r2", "normal", `[{"interruptId":"x","status":"cancelled"}]`), "application/json")

	h := server.New(server.Config{NoDelay: true})
	f.Fuzz(func(t *testing.T, body, contentType string) {
		req := httptest.NewRequest(http.MethodPost, "/api/agent-analysis", strings.NewReader(body))
		req.Header.Set("Content-Type", contentType)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)

		switch {
		case rec.Code == http.StatusOK:
			if rec.Header().Get("Content-Type") != "text/event-stream" {
				t.Fatalf("200 with Content-Type %q", rec.Header().Get("Content-Type"))
			}
			got, err := readEvents(rec.Body)
			if err != nil {
				t.Fatal(err)
			}
			in, _, err := agui.ReadInput([]byte(body))
			if err != nil {
				t.Fatalf("streamed for an input the engine refuses: %v", err)
			}
			scenario := server.DefaultScenario // what a request naming none plays
			if props, ok := in.ForwardedProps().(*jsonpatch.Object); ok {
				if named, ok := props.Get("scenario"); ok {
					scenario = named.(string)
				}
			}
			fixture, ok := fixtures.Lookup(scenario)
			if !ok {
				t.Fatalf("streamed an unknown script %v", scenario)
			}
			sent := fixture.ForRequest(in.ThreadID, in.RunID)
			if answers := in.Answers(); answers != nil {
				sent = continued(t, fixture.Script, in, answers)
			}
			var want [][]byte
			for _, f := range sent {
				if f.Event != nil {
					want = append(want, f.Event)
				}
			}
			if !slices.EqualFunc(got, want, bytes.Equal) {
				t.Fatalf("streamed another script than %s's", scenario)
			}
		case rec.Code >= 400 && rec.Code < 500:
			if rec.Header().Get("Content-Type") != "application/problem+json" {
				t.Fatalf("%d with Content-Type %q", rec.Code, rec.Header().Get("Content-Type"))
			}
			var p server.Problem
			if err := json.Unmarshal(rec.Body.Bytes(), &p); err != nil || p.Status != rec.Code || p.Title == "" {
				t.Fatalf("problem %+v (%v) for status %d", p, err, rec.Code)
			}
		default:
			t.Fatalf("status %d: %s", rec.Code, rec.Body)
		}
	})
}

// continued is what a resume the server accepted must play: the first
// continuation its answers match, their ids unbound; the resume must be
// one the engine accepts for the interrupts the script raised.
func continued(t *testing.T, s script.Script, in agui.Input, answers []agui.Answer) []script.Frame {
	t.Helper()
	var ids []string
	p := agui.Pending{ThreadID: in.ThreadID}
	for _, i := range s.Interrupts() {
		ids = append(ids, i.ID)
		i.ID = script.BindInterrupt(i.ID, in.ThreadID)
		p.Interrupts = append(p.Interrupts, i)
	}
	if err := p.Check(in, time.Now()); err != nil {
		t.Fatalf("streamed for a resume the engine refuses: %v", err)
	}
	unbound := make([]agui.Answer, len(answers))
	for n, a := range answers {
		id, _, ok := script.UnbindInterrupt(a.InterruptID, in.ThreadID, ids)
		if !ok {
			t.Fatalf("streamed for an interrupt id %q not of this thread", a.InterruptID)
		}
		a.InterruptID = id
		unbound[n] = a
	}
	for _, c := range s.Continuations {
		if c.Matches(unbound) {
			return s.Continue(c, in.ThreadID, in.RunID)
		}
	}
	t.Fatalf("streamed for answers no continuation takes")
	return nil
}
