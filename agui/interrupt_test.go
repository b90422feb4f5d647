package agui

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// An interrupted run: a tool call, then the interrupt outcome with two
// questions, one about the call and one that expires.
const (
	callOpened  = `{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"rollback"}`
	callClosed  = `{"type":"TOOL_CALL_END","toolCallId":"c1"}`
	interrupted = `{"type":"RUN_FINISHED","threadId":"t","runId":"r","outcome":{"type":"interrupt","interrupts":[` +
		`{"id":"i1","reason":"confirmation","message":"Roll back?","toolCallId":"c1","responseSchema":{"type":"object","properties":{"approved":{"type":"boolean"}}}},` +
		`{"id":"i2","reason":"input","expiresAt":"2026-01-01T00:00:00Z","metadata":{"k":1}}]}}`
)

var now = time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)

func pendingOf(t *testing.T) Pending {
	t.Helper()
	c, steps := replay(t, started, callOpened, callClosed, interrupted)
	accepted(t, c, steps)
	p, ok := c.Pending()
	if !ok {
		t.Fatal("no pending interrupts after an interrupted run")
	}
	return p
}

// basic/patterns/interrupt-resume: the interrupt outcome carries at least
// one interrupt, each with an id unique within the run and a reason.
func TestInterruptOutcomeIsChecked(t *testing.T) {
	for _, tt := range []struct {
		outcome string
		rule    Rule
		says    string
	}{
		{`{"type":"interrupt","interrupts":[{"id":"a","reason":"x"},{"id":"a","reason":"y"}]}`, InterruptIDs, `interrupt "a" twice`},
		{`{"type":"interrupt","interrupts":[]}`, Malformed, "interrupts"},
		{`{"type":"interrupt"}`, Malformed, "interrupts: is required"},
		{`{"type":"interrupt","interrupts":[{"id":"a"}]}`, Malformed, "reason: is required"},
		{`{"type":"interrupt","interrupts":[{"id":"a","reason":"x","responseSchema":true}]}`, Malformed, "responseSchema"},
		{`{"type":"interrupt","interrupts":[{"id":"a","reason":"x","expiresAt":7}]}`, Malformed, "expiresAt"},
	} {
		t.Run(tt.outcome, func(t *testing.T) {
			_, steps := replay(t, started, `{"type":"RUN_FINISHED","threadId":"t","runId":"r","outcome":`+tt.outcome+`}`)
			rejected(t, steps, tt.rule, 1, tt.says)
		})
	}
}

func TestAnInterruptedRunLeavesItsInterruptsPending(t *testing.T) {
	p := pendingOf(t)
	if p.ThreadID != "t" || p.RunID != "r" || len(p.Interrupts) != 2 {
		t.Fatalf("pending %+v", p)
	}
	i := p.Interrupts[0]
	if i.ID != "i1" || i.Reason != "confirmation" || i.Message != "Roll back?" || i.ToolCallID != "c1" || i.Expired(now) {
		t.Errorf("first interrupt %+v", i)
	}
	if field, ok := i.Approval(); !ok || field != "approved" {
		t.Errorf("approval %q %v", field, ok)
	}
	j := p.Interrupts[1]
	if !j.Expired(now) || string(j.Metadata) != `{"k":1}` {
		t.Errorf("second interrupt %+v", j)
	}
	if _, ok := j.Approval(); ok {
		t.Error("an interrupt without a schema is not an approval")
	}
	// Pending only describes a stream whose last run is interrupted.
	for _, events := range [][]string{{started, finished}, {started, callOpened, callClosed, interrupted, `{"type":"RUN_ERROR","message":"late"}`}} {
		c, _ := replay(t, events...)
		if p, ok := c.Pending(); ok {
			t.Errorf("%v: pending %+v", events, p)
		}
	}
}

func TestExpiry(t *testing.T) {
	for at, expired := range map[string]bool{
		"": false, "tomorrow": false, "2026-06-01T00:00:00Z": true, "2026-06-01T00:00:00.001Z": false,
		"2026-05-31T23:59:59+00:00": true, "2026-06-01T01:00:00+02:00": true, "2026-06-01": false,
		"2026-05-31t23:59:59z": true,
	} {
		if got := (Interrupt{ExpiresAt: at}).Expired(now); got != expired {
			t.Errorf("%q: expired %v, want %v", at, got, expired)
		}
	}
}

func TestApprovalIsOneBoolean(t *testing.T) {
	for schema, want := range map[string]string{
		`{"type":"object","properties":{"ok":{"type":"boolean"}}}`:                       "ok",
		`{"type":"object","properties":{"ok":{"type":"string"}}}`:                        "",
		`{"type":"object","properties":{"a":{"type":"boolean"},"b":{"type":"boolean"}}}`: "",
		`{"type":"boolean"}`:                         "",
		`{"type":"object","properties":{"ok":true}}`: "",
		`{"type":"object","properties":{"approved":{"type":"boolean","description":"yes?"}}}`: "approved",
	} {
		got, ok := (Interrupt{ResponseSchema: []byte(schema)}).Approval()
		if got != want || ok != (want != "") {
			t.Errorf("%s: %q %v, want %q", schema, got, ok, want)
		}
	}
}

const base = `{"threadId":"t","runId":"r2","messages":[],"state":{"n":1}}`

// The coverage rule, the consumer's to enforce before anything is sent.
func TestResumeCoverage(t *testing.T) {
	p := pendingOf(t)
	yes := Approve(p.Interrupts[0], "approved", true)
	drop := Answer{InterruptID: "i2", Status: Abandoned}
	for _, tt := range []struct {
		name    string
		base    string
		answers []Answer
		field   string
		says    string
	}{
		{"covered", base, []Answer{yes, drop}, "", ""},
		{"one left out", base, []Answer{yes}, "resume", `"i2" of run "r" has no entry`},
		{"none", base, nil, "resume", `"i1", "i2"`},
		{"unknown id", base, []Answer{yes, drop, {InterruptID: "i9", Status: Resolved}}, "resume/2/interruptId", `no interrupt "i9"`},
		{"twice", base, []Answer{yes, yes, drop}, "resume/1/interruptId", "answered twice"},
		{"expired resolved", base, []Answer{yes, {InterruptID: "i2", Status: Resolved, Payload: []byte(`"late"`)}}, "resume/1/status", "can only be cancelled"},
		{"another thread", `{"threadId":"u","runId":"r2","messages":[]}`, []Answer{yes, drop}, "threadId", `thread "t", not "u"`},
		{"null payload", base, []Answer{{InterruptID: "i1", Status: Resolved, Payload: []byte(`null`)}, drop}, "resume/0/payload", "null"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in, err := p.Resume(input(t, tt.base), "r2", tt.answers, now)
			if tt.field == "" {
				if err != nil {
					t.Fatal(err)
				}
				body, _, _ := in.Request("")
				want := `{"threadId":"t","runId":"r2","messages":[],"state":{"n":1},"resume":[{"interruptId":"i1","status":"resolved","payload":{"approved":true}},{"interruptId":"i2","status":"cancelled"}],"protocolVersion":"1.1"}`
				if string(body) != want {
					t.Errorf("request\n%s\nwant\n%s", body, want)
				}
				return
			}
			var re *ResumeError
			var ie *InputError
			switch {
			case errors.As(err, &re) && re.Field == tt.field && strings.Contains(re.Reason, tt.says):
			case errors.As(err, &ie) && ie.Field == tt.field && strings.Contains(ie.Reason, tt.says):
			default:
				t.Fatalf("error %v; want %s: …%s…", err, tt.field, tt.says)
			}
		})
	}
}

// A reason names at most five interrupts left out, however many there are.
func TestAnUncoveredListIsNamedShortly(t *testing.T) {
	p := Pending{ThreadID: "t", RunID: "r"}
	for i := range 10000 {
		p.Interrupts = append(p.Interrupts, Interrupt{ID: fmt.Sprint("i", i), Reason: "x"})
	}
	err := p.Check(input(t, `{"threadId":"t","runId":"r2","messages":[],"resume":[]}`), now)
	if err == nil || len(err.Error()) > 200 || !strings.Contains(err.Error(), `"i4", and 9995 more`) {
		t.Errorf("%d bytes: %.200v", len(err.Error()), err)
	}
}

// A server runs the same check on an input it receives.
func TestCheckAReceivedResume(t *testing.T) {
	p := pendingOf(t)
	ok := input(t, `{"threadId":"t","runId":"r2","messages":[],"resume":[{"interruptId":"i2","status":"cancelled"},{"interruptId":"i1","status":"resolved","payload":{"approved":false},"metadata":{"by":"me"}}]}`)
	if err := p.Check(ok, now); err != nil {
		t.Fatal(err)
	}
	if a := ok.Answers(); len(a) != 2 || string(a[1].Payload) != `{"approved":false}` || string(a[1].Metadata) != `{"by":"me"}` || a[0].Status != Abandoned {
		t.Errorf("answers %+v", a)
	}
	if err := p.Check(input(t, `{"threadId":"t","runId":"r2","messages":[]}`), now); err == nil || !strings.Contains(err.Error(), "resume: ") {
		t.Errorf("no resume list: %v", err)
	}
}

// The run that continues answers the interrupted call, or is warned about.
func TestAResumedRunAnswersTheCall(t *testing.T) {
	p := pendingOf(t)
	in, err := p.Resume(input(t, `{"threadId":"t","runId":"r2","messages":[]}`), "r2", []Answer{Approve(p.Interrupts[0], "approved", true), {InterruptID: "i2", Status: Abandoned}}, now)
	if err != nil {
		t.Fatal(err)
	}
	start, end := `{"type":"RUN_STARTED","threadId":"t","runId":"r2"}`, `{"type":"RUN_FINISHED","threadId":"t","runId":"r2"}`
	result := `{"type":"TOOL_CALL_RESULT","messageId":"m","toolCallId":"c1","content":"done"}`
	for name, tt := range map[string]struct {
		events []string
		warns  bool
	}{
		"answered":           {[]string{start, result, end}, false},
		"left unanswered":    {[]string{start, end}, true},
		"named as pending":   {[]string{start, `{"type":"RUN_FINISHED","threadId":"t","runId":"r2","outcome":{"type":"success","pendingToolCallIds":["c1"]}}`}, false},
		"interrupted again":  {[]string{start, `{"type":"RUN_FINISHED","threadId":"t","runId":"r2","outcome":{"type":"interrupt","interrupts":[{"id":"i3","reason":"x"}]}}`}, false},
		"cancelled by agent": {[]string{start, `{"type":"RUN_FINISHED","threadId":"t","runId":"r2","outcome":{"type":"cancelled"}}`}, false},
	} {
		c, steps := replayWith(t, in, Options{Continues: p}, tt.events...)
		accepted(t, c, steps)
		ws := warned(steps)
		switch {
		case tt.warns && (len(ws) != 1 || ws[0].Rule != ResumeUnanswered || !strings.Contains(ws[0].Text, `tool call "c1"`)):
			t.Errorf("%s: warned %v", name, ws)
		case !tt.warns && len(ws) > 0:
			t.Errorf("%s: warned %v", name, ws)
		}
	}
}

// A call the answer declines, cancelled or denied, owes no result: the
// tool is not executed (basic/patterns/interrupt-resume).
func TestADeclinedCallOwesNoResult(t *testing.T) {
	p := pendingOf(t)
	start, end := `{"type":"RUN_STARTED","threadId":"t","runId":"r2"}`, `{"type":"RUN_FINISHED","threadId":"t","runId":"r2"}`
	for name, tt := range map[string]struct {
		first Answer
		warns bool
	}{
		"approved":                    {Approve(p.Interrupts[0], "approved", true), true},
		"rejected":                    {Approve(p.Interrupts[0], "approved", false), false},
		"cancelled":                   {Answer{InterruptID: "i1", Status: Abandoned}, false},
		"answered with other words":   {Answer{InterruptID: "i1", Status: Resolved, Payload: []byte(`{"note":"go"}`)}, true},
		"denied in a payload":         {Answer{InterruptID: "i1", Status: Resolved, Payload: []byte(`{"approved":false,"why":"no"}`)}, false},
		"a payload that is no object": {Answer{InterruptID: "i1", Status: Resolved, Payload: []byte(`false`)}, true},
	} {
		in, err := p.Resume(input(t, `{"threadId":"t","runId":"r2","messages":[]}`), "r2", []Answer{tt.first, {InterruptID: "i2", Status: Abandoned}}, now)
		if err != nil {
			t.Fatal(err)
		}
		c, steps := replayWith(t, in, Options{Continues: p}, start, end)
		accepted(t, c, steps)
		if ws := warned(steps); tt.warns != (len(ws) == 1 && ws[0].Rule == ResumeUnanswered) || len(ws) > 1 {
			t.Errorf("%s: warned %v", name, ws)
		}
	}
}

// FuzzResume judges a fuzzed resume input against the interrupts a fuzzed
// RUN_FINISHED leaves. Check must never panic, must accept exactly the
// lists that answer every interrupt once and resolve none expired on the
// same thread, and Resume must agree with it.
func FuzzResume(f *testing.F) {
	f.Add([]byte(interrupted), []byte(`{"threadId":"t","runId":"r2","messages":[],"resume":[{"interruptId":"i1","status":"resolved","payload":{"approved":true}},{"interruptId":"i2","status":"cancelled"}]}`))
	f.Add([]byte(interrupted), []byte(`{"threadId":"t","runId":"r2","messages":[],"resume":[{"interruptId":"i2","status":"resolved","payload":1}]}`))
	f.Add([]byte(`{"type":"RUN_FINISHED","threadId":"t","runId":"r","outcome":{"type":"interrupt","interrupts":[{"id":"","reason":""}]}}`), []byte(`{"threadId":"t","runId":"","messages":[],"resume":[{"interruptId":"","status":"cancelled","metadata":{}}]}`))
	f.Fuzz(func(t *testing.T, finish, resume []byte) {
		c, err := NewConsumer(Input{}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		c.Feed([]byte(started))
		c.Feed(finish)
		p, ok := c.Pending()
		if !ok {
			return
		}
		in, _, err := ReadInput(resume)
		if err != nil {
			return
		}
		err = p.Check(in, now)
		count := map[string]int{}
		valid := in.ThreadID == p.ThreadID
		for _, a := range in.Answers() {
			count[a.InterruptID]++
		}
		for _, i := range p.Interrupts {
			if count[i.ID] != 1 {
				valid = false
			}
			for _, a := range in.Answers() {
				if a.InterruptID == i.ID && a.Status == Resolved && i.Expired(now) {
					valid = false
				}
			}
			delete(count, i.ID)
		}
		if len(count) > 0 {
			valid = false
		}
		if valid != (err == nil) {
			t.Fatalf("Check says %v; the list answers every interrupt once: %v", err, valid)
		}
		var re *ResumeError
		if err != nil && !errors.As(err, &re) {
			t.Fatalf("Check's error is %T", err)
		}
		built, berr := p.Resume(in, in.RunID, in.Answers(), now)
		if (berr == nil) != (err == nil) {
			t.Fatalf("Resume says %v, Check %v", berr, err)
		}
		if berr == nil && len(built.Answers()) != len(in.Answers()) {
			t.Fatalf("Resume kept %d of %d answers", len(built.Answers()), len(in.Answers()))
		}
	})
}
